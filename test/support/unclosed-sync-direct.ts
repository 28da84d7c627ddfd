/**
 * A process that makes sync calls on its calling thread (an `http:` server) and closes neither its
 * client nor the server, run as its own process by the direct-call test: once its work is done it must
 * exit, though its worker lent a connection that is still open. Prints what it received.
 */
import { StocksClient } from '../../src/index.js';
import { startFaultServerThread } from './fault-server.js';

const server = await startFaultServerThread([{ body: { status: 'OK', ticker: 'AAPL', results: [] } }]);
const client = StocksClient('unclosed-key', { baseUrl: server.url });
const tickers = [client.getPreviousClose('AAPL').ticker, client.getPreviousClose('AAPL').ticker];
console.log(JSON.stringify({ tickers, requests: (await server.requests()).length }));

import {
  createServer,
  type IncomingMessage,
  maxHeaderSize,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { newRequestId } from './app.js';
import { errorBody, jsonResponse } from './http.js';
import { sendInSlices } from './send-in-slices.js';

type Fetch = Parameters<typeof getRequestListener>[0];

/**
 * The HTTP/1 server of `fetch`. Requests refused before they reach the app are answered in the
 * service's error shape too, naming what is wrong, where Node and the adapter would send an empty
 * body: a request line and headers over Node's limit (431), a request Node cannot parse (400), an
 * HTTP/1.1 request without a Host header (400), a target or Host the adapter cannot make a URL of
 * (400). `hostname` names the server in URLs of HTTP/1.0 requests, which may come without a Host.
 * Large answers are written a slice at a time (`sendInSlices`), so clients that do not read hold little.
 */
export function createHttpServer(fetch: Fetch, hostname: string): Server {
  const listener = getRequestListener(fetch, {
    hostname,
    errorHandler: (e) => refusal(400, `Malformed request: ${e instanceof Error ? e.message : String(e)}`),
  });
  // Node's own check answers an empty 400; this one says why.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    sendInSlices(res);
    if (req.httpVersion === '1.1' && req.headers.host === undefined) missingHost(req, res);
    else void listener(req, res);
  });
  server.on('clientError', (error: Error & { code?: string; reason?: string }, socket: Socket) => {
    // A client that went away cannot be answered.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, text] = clientErrorStatus(error);
    const body = JSON.stringify(errorBody(status, newRequestId(), text));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

function clientErrorStatus(error: Error & { code?: string; reason?: string }): [number, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        `The request line and headers together exceed ${maxHeaderSize} bytes; send a shorter query string`,
      ];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'The request was not received in time'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'The chunk extensions of the request body are too large'];
    default:
      return [
        400,
        `Malformed HTTP request: ${error.reason ?? error.message}${error.code ? ` (${error.code})` : ''}`,
      ];
  }
}

function refusal(status: number, message: string): Response {
  const id = newRequestId();
  return jsonResponse(JSON.stringify(errorBody(status, id, message)), status, id);
}

function missingHost(_req: IncomingMessage, res: ServerResponse): void {
  const id = newRequestId();
  const body = JSON.stringify(
    errorBody(400, id, 'Malformed request: an HTTP/1.1 request needs a Host header'),
  );
  res.writeHead(400, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-request-id': id,
    connection: 'close',
  });
  res.end(body);
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';
import type { SeenRequest } from './recording-server.js';
import { handlers } from './server-handlers.js';

// Runs the recording server on its own thread, so that a synchronous client blocking the test's
// thread can still be answered.
let handler = 'fixed';
let config: unknown = { body: '{}' };
let requests: SeenRequest[] = [];
let origin = '';

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const seen: SeenRequest = {
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0] as string,
    query: [...url.searchParams.entries()],
    headers: req.headers,
    at: performance.timeOrigin + performance.now(),
  };
  requests.push(seen);
  const answer = (handlers[handler] ?? handlers.fixed)!(seen, origin, config);
  res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
  res.end(answer.body);
});

server.listen(0, '127.0.0.1', () => {
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  parentPort?.postMessage({ id: 0, url: origin });
});

parentPort?.on('message', (m: { id: number; type: string; handler?: string; config?: unknown }) => {
  if (m.type === 'use') {
    handler = m.handler ?? 'fixed';
    config = m.config;
    parentPort?.postMessage({ id: m.id });
  } else if (m.type === 'take') {
    parentPort?.postMessage({ id: m.id, requests });
    requests = [];
  } else if (m.type === 'stop') {
    server.closeAllConnections();
    server.close(() => parentPort?.postMessage({ id: m.id }));
  }
});

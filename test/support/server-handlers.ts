import type { SeenRequest } from './recording-server.js';

/** What a handler answers. */
export interface Answer {
  status?: number;
  body: string;
  headers?: Record<string, string>;
}

/** A named request handler of the recording server; `config` comes from the test. */
export type Handler = (req: SeenRequest, origin: string, config: any) => Answer;

/** Three pages of AAPL trades linked by next_url / previous_url on the server's own origin. */
function paginated(req: SeenRequest, origin: string): Answer {
  const cursor = req.query.find(([k]) => k === 'cursor')?.[1];
  const n = cursor ? Number(cursor.slice(1)) : 1;
  const link = (m: number) => `${origin}/v3/trades/AAPL?cursor=p${m}`;
  const body = {
    status: 'OK',
    request_id: `req-${n}`,
    results: [1, 2, 3].map((i) => ({ id: String((n - 1) * 3 + i), price: n * 10 + i })),
    ...(n < 3 && { next_url: link(n + 1) }),
    ...(n > 1 && { previous_url: n === 2 ? `${origin}/v3/trades/AAPL?limit=3` : link(n - 1) }),
  };
  return { body: JSON.stringify(body) };
}

/** A fixed answer set by the test. */
function fixed(_req: SeenRequest, _origin: string, config: Answer): Answer {
  return config ?? { body: '{}' };
}

export const handlers: Record<string, Handler> = { fixed, paginated };

/**
 * A real HTTP server on 127.0.0.1 that misbehaves on request, for what msw and the mock cannot do
 * faithfully (bodies that stall, sockets that reset): one `node:http` server per instance, listening
 * on port 0, with a scenario per test.
 *
 * Each scenario gets its own base URL (`http://127.0.0.1:<port>/s/<n>/api/v1`), so tests can run
 * concurrently against one server and still count their own attempts. A scenario is a list of
 * handlers answered in turn, the last one repeating. `serve` sets the scenario at the root instead,
 * for a test file that swaps one route per test (`useRealServer` in test/helpers/real-server.ts).
 *
 * This file imports nothing from vitest: the heap check (heap-check.mjs) runs it in a child process.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Answers one request, `attempt` from 1 within the scenario; a throw or rejection resets the socket. */
export type Handler = (req: IncomingMessage, res: ServerResponse, attempt: number) => void | Promise<void>;

/** What the server saw of one request. */
export interface SeenRequest {
  readonly method: string;
  /** The path and query below the scenario's prefix, as sent on the wire (still percent-encoded). */
  readonly url: string;
  /** The request line's target exactly as received. */
  readonly rawUrl: string;
  readonly headers: IncomingHttpHeaders;
}

export interface Scenario {
  /** The base URL to give the client, ending in /api/v1. */
  readonly base: string;
  /** The origin alone, `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Requests the server received for this scenario so far. */
  readonly attempts: number;
  /** What the server saw of each (empty when the server does not record). */
  readonly requests: readonly SeenRequest[];
}

export interface FaultServer {
  readonly origin: string;
  /** A new scenario answering with each handler in turn; the last one repeats. */
  scenario(...handlers: Handler[]): Scenario;
  /**
   * From now on, the requests outside every scenario's prefix are a new scenario answered by these
   * handlers, URLs untouched; its base is `<origin>/api/v1`.
   */
  serve(...handlers: Handler[]): Scenario;
  /** Requests that matched no scenario. */
  readonly strays: readonly SeenRequest[];
  close(): Promise<void>;
}

interface ScenarioState {
  readonly handlers: Handler[];
  readonly requests: SeenRequest[];
  count: number;
}

export interface FaultServerOptions {
  /**
   * Keep every request's method, URL and headers (default). Off, only the count is kept: for the
   * heap check, where 5,000 kept requests would be the leak it looks for.
   */
  readonly record?: boolean;
}

/** The key of the scenario `serve` sets: no `/s/<n>` prefix has it. */
const root = '';

/** Sets the scenario of `id` (the root's replaces the one before), to be given to clients as `base`. */
function addScenario(
  scenarios: Map<string, ScenarioState>,
  id: string,
  base: string,
  handlers: Handler[],
): Scenario {
  if (handlers.length === 0) throw new Error('a scenario needs at least one handler');
  const state: ScenarioState = { handlers, requests: [], count: 0 };
  scenarios.set(id, state);
  return {
    base,
    origin: new URL(base).origin,
    get attempts() {
      return state.count;
    },
    requests: state.requests,
  };
}

/** Answers with the handler for this attempt. */
function answer(state: ScenarioState, req: IncomingMessage, res: ServerResponse): void {
  const attempt = ++state.count;
  const handler = state.handlers[Math.min(attempt - 1, state.handlers.length - 1)]!;
  try {
    Promise.resolve(handler(req, res, attempt)).catch(() => res.destroy());
  } catch {
    res.destroy();
  }
}

/** Closing destroys every socket still open: a stalled answer would otherwise hold `close` forever. */
function destroyOnClose(server: ReturnType<typeof createServer>): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return async () => {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}

export async function startFaultServer({ record = true }: FaultServerOptions = {}): Promise<FaultServer> {
  const scenarios = new Map<string, ScenarioState>();
  const strays: SeenRequest[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const rawUrl = req.url ?? '/';
    const match = /^\/s\/(\d+)(\/.*)?$/s.exec(rawUrl);
    const state = scenarios.get(match ? match[1]! : root);
    const seen = { method: req.method ?? '', url: match?.[2] ?? rawUrl, rawUrl, headers: { ...req.headers } };
    if (!state) {
      strays.push(seen);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such scenario"}');
      return;
    }
    if (record) state.requests.push(seen);
    answer(state, req, res);
  });
  const close = destroyOnClose(server);
  // A reset client socket is expected here, not a failure of the test.
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    strays,
    scenario: (...handlers) => {
      const id = String(++next);
      return addScenario(scenarios, id, `${origin}/s/${id}/api/v1`, handlers);
    },
    serve: (...handlers) => addScenario(scenarios, root, `${origin}/api/v1`, handlers),
    close,
  };
}

// ---------------------------------------------------------------------------------------------
// Faults. Each returns a handler; the bodies are valid `GET /subjects` answers unless said otherwise.

export const subjects = [
  { id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 },
  { id: 2, name: 'Chemistry', slug: 'chemistry', journals: 5, papers: 70, citations: 1200 },
];

/** Serves `body` as JSON (an object is serialized, a string is sent as it is). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        ...headers,
      })
      .end(text);
  };
}

/** Serves whatever `make` builds from the request (for servers that echo it back). */
export function echo(make: (req: IncomingMessage) => { status?: number; body: unknown }): Handler {
  return (req, res, attempt) => {
    const { status, body } = make(req);
    json(body, status)(req, res, attempt);
  };
}

/** A TCP reset as soon as the request arrives: no status line, nothing. */
export function resetBeforeResponse(): Handler {
  return (req) => {
    req.socket.resetAndDestroy();
  };
}

/** Headers promising the whole body, half of it, a pause, then a TCP reset. */
export function resetMidBody(body: unknown = subjects): Handler {
  return (_req, res) => {
    const text = JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.write(text.slice(0, Math.floor(text.length / 2)));
    const timer = setTimeout(() => res.socket?.resetAndDestroy(), 30);
    res.on('close', () => clearTimeout(timer));
  };
}

/** Reads the request and never answers: not a byte, not a reset. */
export function never(): Handler {
  return () => {};
}

/** Headers at once, then `bytes` bytes of the body every `everyMs` ms. */
export function dribble(body: unknown, bytes: number, everyMs: number): Handler {
  return (_req, res) => {
    const text = Buffer.from(JSON.stringify(body));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
    let at = 0;
    const timer = setInterval(() => {
      res.write(text.subarray(at, at + bytes));
      at += bytes;
      if (at >= text.length) {
        clearInterval(timer);
        res.end();
      }
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

/**
 * JSON cut in the middle.
 * - `honest-length`: `content-length` is that of the cut body, so HTTP-wise the message is complete;
 * - `full-length`: `content-length` promises the whole body, the connection closes after the cut;
 * - `chunked`: chunked encoding, the connection closes without the last chunk.
 */
export function truncatedJson(
  mode: 'honest-length' | 'full-length' | 'chunked',
  body: unknown = subjects,
  status = 200,
): Handler {
  return (_req, res) => {
    const text = JSON.stringify(body);
    const cut = text.slice(0, Math.floor(text.length * 0.6));
    if (mode === 'honest-length') {
      res
        .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(cut) })
        .end(cut);
      return;
    }
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (mode === 'full-length') headers['content-length'] = Buffer.byteLength(text);
    res.writeHead(status, headers);
    res.write(cut, () => res.socket?.end());
  };
}

/** A plain JSON body labelled `Content-Encoding: gzip`: the client's decompression fails mid-read. */
export function falseGzip(body: unknown = subjects): Handler {
  return json(body, 200, { 'content-encoding': 'gzip' });
}

/** The kind of page nginx or a cloud load balancer serves when the upstream is down. */
export function htmlPage(status: number, label: string, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    const text =
      `<html>\r\n<head><title>${status} ${label}</title></head>\r\n<body>\r\n` +
      `<center><h1>${status} ${label}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
    res
      .writeHead(status, {
        'content-type': 'text/html',
        'content-length': Buffer.byteLength(text),
        server: 'nginx',
        ...headers,
      })
      .end(text);
  };
}

export function redirect(status: 301 | 302 | 303 | 307 | 308, location: string): Handler {
  return (_req, res) => {
    res.writeHead(status, { location, 'content-length': 0 }).end();
  };
}

/**
 * Writes `chunk` over and over until `bytes` are out or the client goes away, at the pace the client
 * reads (the server's own memory stays flat however long the body), then ends the answer.
 */
export async function writeUntilClosed(
  res: ServerResponse,
  chunk: Buffer,
  bytes = Number.POSITIVE_INFINITY,
): Promise<void> {
  let closed = false;
  let wake = () => {};
  res.on('close', () => {
    closed = true;
    wake();
  });
  res.on('drain', () => wake());
  for (let sent = 0; sent < bytes && !closed; sent += chunk.length) {
    if (!res.write(chunk)) await new Promise<void>((resolve) => (wake = resolve));
  }
  if (!closed) res.end();
}

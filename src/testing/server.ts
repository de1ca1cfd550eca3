import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { connectionHeaders } from './fault-checks.js';
import { createMockApi, type MockApi, serverAnswer, servesControl } from './mock-api.js';
import { resolveMockServerOptions } from './mock-api-options.js';
import type { MockServerOptions } from './mock-api-types.js';
import { loadHttp } from './node-http.js';
import { errorResponse } from './responses.js';
import {
  allowedHosts,
  exposedWarning,
  isLoopback,
  refuseControl,
  refusedPageWarning,
} from './server-guard.js';
import { answerConnect, answerRefused, expectationRefused, methodRefusal } from './server-refusals.js';

export type { MockServerOptions } from './mock-api-types.js';

/**
 * The largest request body the server reads, in bytes (1 MiB): every API endpoint is a GET, and a
 * control call (a fault with its `body`, a webhook URL) is far smaller. A larger body is answered 413
 * and the rest of it is never read.
 */
const maxRequestBodyBytes = 1_048_576;

/**
 * A running mock server.
 *
 * @example
 * ```ts
 * const server = await startMockServer();
 * try { console.log(server.url); } finally { await server.close(); }
 * ```
 */
export interface MockServer {
  /** Base URL of the API, e.g. `http://127.0.0.1:53187/api/v1`. */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /** The mock behind the server: its dataset, keys, faults, `updateScore`… */
  readonly api: MockApi;
  /** Stops listening and drops open connections. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the mock as a real HTTP server on loopback, for clients in other processes or languages,
 * browser pages, and tests over real sockets.
 *
 * Request bodies are capped at 1 MiB (413). The control endpoints answer only requests whose `Host`
 * names the mock, from no web page or from an allowed origin, and POSTs sent as `application/json`
 * (403 or 415 otherwise). Bound to an address other than loopback, it prints a warning on stderr.
 *
 * @example
 * ```ts
 * import { startMockServer, MOCK_API_KEY } from 'scholarly-metrics/testing';
 * const server = await startMockServer({ port: 0 });
 * const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url });
 * await server.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  // Loaded here, not at the top, so that importing `scholarly-metrics/testing` in a browser (for msw's
  // setupWorker) never touches a Node module.
  const { createServer, STATUS_CODES } = await loadHttp();
  const { port, host, controlOrigins: trusted } = resolveMockServerOptions(options);
  const { api: given, port: _port, host: _host, controlOrigins: _origins, ...mockOptions } = options;
  const api = given ?? createMockApi(mockOptions);
  let origin = 'http://127.0.0.1';
  let allowed: Allowed = { port: 0, hosts: new Set<string>(), origins: new Set<string>() };
  const warnRefused = refusedPageWarner();
  // The answers each connection still owes: a refusal written while one is owed would be taken for it.
  const owed = new WeakMap<object, number>();
  const server = createServer((req, res) => {
    owed.set(req.socket, (owed.get(req.socket) ?? 0) + 1);
    res.once('close', () => owed.set(req.socket, (owed.get(req.socket) ?? 1) - 1));
    serve(api, req, res, origin, allowed, warnRefused).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : undefined);
    });
  });
  // An `Expect` other than 100-continue, which Node would refuse with a bare 417: refused in JSON.
  server.on('checkExpectation', (req, res) => void write(res, expectationRefused(api, req), true));
  server.on('connect', (req, socket: Duplex) => {
    answerConnect(api, req, socket, STATUS_CODES).catch(() => socket.destroy());
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable || (owed.get(socket) ?? 0) > 0) {
      socket.destroy();
      return;
    }
    answerRefused(api, error, socket, STATUS_CODES).catch(() => socket.destroy());
  });
  await listen(server, port, host);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The mock server has no TCP address');
  const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${hostInUrl}:${address.port}`;
  const hosts = allowedHosts(address.address, address.port, host);
  allowed = {
    port: address.port,
    hosts,
    origins: new Set([...[...hosts].map((name) => `http://${name}`), ...trusted]),
  };
  if (!isLoopback(address.address)) process.stderr.write(exposedWarning(address.address, address.port));
  return { url: `${origin}${api.basePath}`, port: address.port, api, close: closerOf(server) };
}

/** Who may call the control endpoints: the port and `Host` values of the mock, and the pages trusted. */
type Allowed = Parameters<typeof refuseControl>[2];

/**
 * Prints the warning of a refused page once per page, and for a few pages only: a script sending
 * made-up origins cannot flood stderr.
 */
function refusedPageWarner(): (page: string) => void {
  const warned = new Set<string>();
  return (page) => {
    if (warned.has(page) || warned.size >= 10) return;
    warned.add(page);
    process.stderr.write(refusedPageWarning(page));
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops listening and drops open connections; every call after the first gets the same promise. */
function closerOf(server: Server): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
}

/**
 * A method a Fetch `Request` cannot carry (`new Request` throws), so the core never sees it: the
 * server answers it itself, as the core answers any method other than GET, HEAD and OPTIONS. CONNECT
 * comes as a tunnel (server-refusals.ts), and Node's parser refuses TRACK.
 */
const forbiddenMethods = new Set(['TRACE']);

/**
 * The URL a request is for, its path as sent: concatenated, not resolved, so that a path such as
 * `//journals` stays a path, not a host. A full URL in the request line is resolved; one no URL
 * parser reads is `undefined`.
 */
function targetOf(req: IncomingMessage, origin: string): string | undefined {
  return req.url?.startsWith('/') ? `${origin}${req.url}` : URL.parse(req.url ?? '/', origin)?.href;
}

/** A request's headers as the Fetch core gets them, those of the connection left out. */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (connectionHeaders.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

async function serve(
  api: MockApi,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  allowed: Allowed,
  warnRefused: (page: string) => void,
): Promise<void> {
  const abort = new AbortController();
  // A client that hangs up mid-delay cancels the delay instead of leaving a timer behind.
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const target = targetOf(req, origin);
  if (target === undefined) {
    const message = 'The request line holds a URL that cannot be read';
    return write(res, serverAnswer(api, errorResponse(400, message)), true);
  }
  // Guarded only where they are served: elsewhere the core says they are off.
  if (servesControl(api) && new URL(target).pathname.startsWith('/__mock/')) {
    const refusal = refuseControl(req.method ?? 'GET', req.headers, allowed, req.socket.localAddress);
    if (refusal?.page !== undefined) warnRefused(refusal.page);
    // Answered before the body is read; `connection: close` keeps its unread rest from being taken
    // for the next request.
    // A page refused for its origin gets no CORS: it sees a CORS error, and the mock says why on stderr.
    const answer =
      refusal && serverAnswer(api, errorResponse(refusal.status, refusal.message), !refusal.page);
    if (answer) return write(res, answer, true);
  }
  if (forbiddenMethods.has(req.method ?? '')) {
    return write(res, serverAnswer(api, methodRefusal(api, req.method!, new URL(target).pathname)), true);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const body = hasBody ? await readCapped(req) : undefined;
  if (body === 'too_large') {
    const message = `The request body is larger than ${maxRequestBodyBytes} bytes`;
    return write(res, serverAnswer(api, errorResponse(413, message)), true);
  }
  if (body === 'aborted') return;
  // The URL parser would take `/./`, `/../` (`%2e` too) and backslashes out of the path: another path
  // than the one sent, which the mock's exact paths answer 404, as they do a doubled slash.
  const sentPath = (req.url ?? '/').split('?')[0]!;
  if (/\\|\/(\.|%2e){1,2}(\/|$)/i.test(sentPath)) {
    return write(res, serverAnswer(api, errorResponse(404, `No endpoint at ${sentPath}`)), false);
  }
  const request = new Request(target, {
    method: req.method ?? 'GET',
    headers: headersOf(req),
    body: body !== undefined && body.length > 0 ? body : undefined,
    signal: abort.signal,
  });
  const response = await api.handle(request);
  if (response.type === 'error') {
    req.socket.destroy(); // a `reset` fault: the client sees the connection drop
    return;
  }
  await write(res, response, false);
}

async function write(res: ServerResponse, response: Response, close: boolean): Promise<void> {
  const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  if (body !== undefined) outHeaders['content-length'] = String(body.length);
  if (close) outHeaders.connection = 'close';
  res.writeHead(response.status, outHeaders);
  res.end(body);
}

/**
 * Reads a request body up to {@link maxRequestBodyBytes}. Past it (declared or counted), reading
 * stops: the stream is paused and nothing more is kept, so a huge or endless body costs at most the
 * cap. `'aborted'` when the client went away mid-body.
 */
function readCapped(req: IncomingMessage): Promise<Buffer<ArrayBuffer> | 'too_large' | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (declared > maxRequestBodyBytes) return Promise.resolve('too_large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (result: Buffer<ArrayBuffer> | 'too_large' | 'aborted') => {
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxRequestBodyBytes) {
        req.pause();
        finish('too_large');
      } else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onClose = () => finish('aborted');
    req.on('data', onData).on('end', onEnd).on('close', onClose);
    // A stream error with no listener would crash the process; 'close' follows it.
    req.on('error', () => {});
  });
}

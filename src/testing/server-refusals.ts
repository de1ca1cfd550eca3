/**
 * The mock server's answers to requests no handler reads: what Node's parser refuses, CONNECT, and an
 * `Expect` it cannot meet, in JSON with CORS and a request id as every answer, where Node would send
 * a bare status line.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { quote } from '../core/describe-value.js';
import { controlMethodRefusal } from './control.js';
import { type MockApi, serverAnswer, servesControl } from './mock-api.js';
import { errorResponse } from './responses.js';

/** What Node's parser refuses, by its error code: the status Node itself would answer, and why. */
const refusedRequests: Record<string, readonly [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request line and headers are larger than the mock reads (16 KiB)'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions are larger than the mock reads'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time'],
  // `curl "…?q=Müller"` sends the letter as it is, where a URL holds it percent-encoded.
  HPE_INVALID_URL: [
    400,
    'The request line holds a character a URL cannot (a space, a letter past ASCII): percent-encode it',
  ],
};

/** Node's reason phrase of each status (`http.STATUS_CODES`). */
type Reasons = Readonly<Record<number, string | undefined>>;

/**
 * Answers a request Node's parser refused before any handler saw it (headers too large, no HTTP at
 * all). The caller writes nothing to a socket that is gone or still owes an answer.
 */
export function answerRefused(api: MockApi, error: NodeJS.ErrnoException, socket: Duplex, reasons: Reasons) {
  const [status, message] = refusedRequests[error.code ?? ''] ?? [
    400,
    'The request is not HTTP the mock reads',
  ];
  return answerOnSocket(socket, serverAnswer(api, errorResponse(status, message)), reasons);
}

/**
 * Answers CONNECT, which Node hands over as a bare socket (a tunnel, no response to write): the API has
 * no such method, and the client is told so as for TRACE.
 */
export function answerConnect(api: MockApi, req: IncomingMessage, socket: Duplex, reasons: Reasons) {
  return answerOnSocket(socket, serverAnswer(api, methodRefusal(api, 'CONNECT', req.url)), reasons);
}

/**
 * The 405 of a method the core never sees (TRACE, CONNECT), as the core answers another method: with
 * the `Allow` of the control endpoint asked for, where the mock serves them, else the API's.
 */
export function methodRefusal(api: MockApi, method: string, target = ''): Response {
  const pathname = target.startsWith('/') ? target.split('?')[0]! : target;
  const control = servesControl(api) ? controlMethodRefusal(method, pathname) : undefined;
  return (
    control ??
    errorResponse(405, `${method} is not allowed: every endpoint is a GET`, { allow: 'GET, HEAD, OPTIONS' })
  );
}

/** Writes `response` whole on `socket`, and closes it. */
async function answerOnSocket(socket: Duplex, response: Response, reasons: Reasons): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${reasons[response.status]}`];
  for (const [name, value] of response.headers) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${body.length}`, 'connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(lines.join('\r\n')), body]));
}

/** The answer to an `Expect` other than 100-continue. */
export function expectationRefused(api: MockApi, req: IncomingMessage): Response {
  const message = `The mock meets no expectation but 100-continue, not ${quote(String(req.headers.expect))}`;
  return serverAnswer(api, errorResponse(417, message));
}

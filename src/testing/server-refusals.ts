/**
 * The mock server's answers to requests no handler reads: what Node's parser refuses, and an `Expect`
 * it cannot meet, in JSON with CORS and a request id as every answer, where Node would send a bare
 * status line.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { quote } from '../core/describe-value.js';
import { type MockApi, serverAnswer } from './mock-api.js';
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

/**
 * Answers a request Node's parser refused before any handler saw it (headers too large, no HTTP at
 * all). The caller writes nothing to a socket that is gone or still owes an answer.
 */
export async function answerRefused(
  api: MockApi,
  error: NodeJS.ErrnoException,
  socket: Duplex,
  reasons: Readonly<Record<number, string | undefined>>,
): Promise<void> {
  const [status, message] = refusedRequests[error.code ?? ''] ?? [
    400,
    'The request is not HTTP the mock reads',
  ];
  const response = serverAnswer(api, errorResponse(status, message));
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${status} ${reasons[status]}`];
  for (const [name, value] of response.headers) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${body.length}`, 'connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(lines.join('\r\n')), body]));
}

/** The answer to an `Expect` other than 100-continue. */
export function expectationRefused(api: MockApi, req: IncomingMessage): Response {
  const message = `The mock meets no expectation but 100-continue, not ${quote(String(req.headers.expect))}`;
  return serverAnswer(api, errorResponse(417, message));
}

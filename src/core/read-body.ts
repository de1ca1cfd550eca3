import type { Deadline } from './abort.js';
import { ResponseTooLargeError } from './errors.js';

/**
 * Reads a response body as text, never more than `limit` bytes of it; `what` names the request in
 * the error, built only when there is one.
 *
 * `response.text()` buffers whatever arrives: an endless body, or a small gzip that expands a
 * thousandfold, grows memory until the process dies or V8 refuses the string. Here a declared
 * `Content-Length` over the limit is refused before reading, and the bytes are counted as they come
 * out of the runtime's decoder (after `Content-Encoding` is undone), so memory stays near the limit
 * whatever the encoding. Past it the body is cancelled, which releases the connection.
 *
 * The whole read is raced once against the attempt's deadline (one promise, not one per chunk); when
 * the deadline wins, the reader is cancelled too.
 */
export async function readBody(
  response: Response,
  limit: number,
  deadline: Deadline,
  what: () => string,
): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  if (declaredLength(response) > limit) {
    // Cancelling an unread body fails only if it is locked, which a fresh response's is not.
    body.cancel().catch(() => {});
    throw new ResponseTooLargeError(what(), limit);
  }
  const reader = body.getReader();
  try {
    return await deadline.race(readAll(reader, limit, what));
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
}

/** The `Content-Length` of a body sent as is; a compressed length says nothing of the decoded size. */
function declaredLength(response: Response): number {
  const encoding = response.headers.get('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return 0;
  const length = Number(response.headers.get('content-length'));
  return Number.isFinite(length) ? length : 0;
}

async function readAll(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
  what: () => string,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) throw new ResponseTooLargeError(what(), limit);
    chunks.push(value);
  }
  return decode(chunks, size);
}

const decoder = new TextDecoder();

/** UTF-8 as `response.text()` decodes it (a BOM dropped, bad bytes replaced), in one pass. */
function decode(chunks: Uint8Array[], size: number): string {
  if (chunks.length === 0) return '';
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return decoder.decode(whole);
}

import type { Deadline } from './abort.js';
import { ResponseTooLargeError } from './errors.js';

/**
 * Reads a stream to its end, never keeping more than `limit` bytes of it: the one capped, deadlined
 * reader of API responses and webhook bodies. Resolves with the bytes, or `undefined` once they pass
 * the limit; rejects with the deadline's reason when it aborts first, or with the stream's error. In
 * each of those cases the stream is cancelled, which releases the connection (or makes the adapter
 * over it stop reading).
 *
 * The whole read is raced once against the deadline (one promise, not one per chunk), so a stream
 * that stops sending costs no more than the deadline.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array>,
  limit: number,
  deadline: Pick<Deadline, 'race'>,
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  try {
    const bytes = await deadline.race(readAll(reader, limit));
    if (bytes === undefined) reader.cancel().catch(() => {});
    return bytes;
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
}

async function readAll(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) return undefined;
    chunks.push(value);
  }
  return joined(chunks, size);
}

/** The chunks as one byte array; a single chunk as it is. */
function joined(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}

/**
 * Reads a response body as text, never more than `limit` bytes of it; `what` names the request in
 * the error, built only when there is one.
 *
 * `response.text()` buffers whatever arrives: an endless body, or a small gzip that expands a
 * thousandfold, grows memory until the process dies or V8 refuses the string. Here a declared
 * `Content-Length` over the limit is refused before reading, and the bytes are counted as they come
 * out of the runtime's decoder (after `Content-Encoding` is undone), so memory stays near the limit
 * whatever the encoding.
 */
export async function readBody(
  response: Response,
  limit: number,
  deadline: Deadline,
  what: () => string,
): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  // The limit counts decoded bytes, of which a compressed length says nothing.
  const encoding = response.headers.get('content-encoding')?.trim().toLowerCase() ?? 'identity';
  if (encoding === 'identity' && declaredLength(response.headers.get('content-length')) > limit) {
    // Cancelling an unread body fails only if it is locked, which a fresh response's is not.
    body.cancel().catch(() => {});
    throw new ResponseTooLargeError(what(), limit);
  }
  const bytes = await readCapped(body, limit, deadline);
  if (bytes === undefined) throw new ResponseTooLargeError(what(), limit);
  // UTF-8 as `response.text()` decodes it: a BOM dropped, bad bytes replaced.
  return decoder.decode(bytes);
}

const decoder = /* @__PURE__ */ new TextDecoder();

/**
 * The length a `Content-Length` declares, 0 for none: a response or a webhook body past the cap is
 * refused before a byte of it is read. Only digits make a length; a malformed one (`1e9`, `0x400`, a
 * list) declares nothing, and the count of the bytes as they are read applies the cap. What a
 * Content-Encoding means is the caller's: the length is of the bytes sent, not of the decoded ones.
 */
export function declaredLength(contentLength: string | null | undefined): number {
  return /^\d+$/.test(contentLength ?? '') ? Number(contentLength) : 0;
}

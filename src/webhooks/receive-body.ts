import { quote } from '../core/describe-value.js';
import { declaredLength, readCapped } from '../core/read-body.js';
import type { Delivery, Reply } from './delivery.js';
import { invalid, reply } from './reply.js';
import { timeLimit } from './time-limit.js';

/*
 * A delivery's body for the Fetch and the Node receivers alike: refused unread for a coding they
 * cannot undo or a declared length past the cap, else read within the cap and the time.
 */

/** DecompressionStream, typed for byte streams (its writable side is declared for any BufferSource). */
type Decoder = ReadableWritablePair<Uint8Array, Uint8Array>;

/** A body read up to the cap: its bytes, or why there are none. */
type CappedBody = Uint8Array | 'too_large' | 'too_slow' | 'unreadable';

/** The body a delivery's stream brings, decoded, or the refusal when it is too large, slow or unreadable. */
export async function receiveBody(
  delivery: Delivery,
  maxBodyBytes: number,
  bodyTimeoutMs: number,
): Promise<{ body: Uint8Array } | { refusal: Reply }> {
  const coding = codingOf(delivery.contentEncoding);
  if (coding === undefined) {
    await letGo(delivery, bodyTimeoutMs);
    return { refusal: unsupportedEncoding(delivery.contentEncoding) };
  }
  // The bytes sent count against the cap as well as the decoded ones: a declared length past it is
  // refused whatever the coding.
  if (declaredLength(delivery.contentLength) > maxBodyBytes) {
    await letGo(delivery, bodyTimeoutMs);
    return { refusal: tooLarge(maxBodyBytes) };
  }
  const body = await readWithin(delivery, coding, maxBodyBytes, bodyTimeoutMs);
  if (body === 'too_large') return { refusal: tooLarge(maxBodyBytes) };
  if (body === 'too_slow') {
    const message = `the body did not arrive within ${bodyTimeoutMs} ms`;
    return { refusal: reply(408, { error: 'request_timeout', message }, { connection: 'close' }) };
  }
  if (body === 'unreadable') {
    const what = coding === null ? 'read' : `decoded from ${coding}`;
    return { refusal: invalid(`invalid webhook payload: the body could not be ${what}`) };
  }
  return { body };
}

/**
 * Lets a body refused unread go, waiting at most `ms` for it: a sender's stream whose cancel never
 * settles must not hold the answer.
 */
async function letGo(delivery: Delivery, ms: number): Promise<void> {
  const limit = timeLimit(ms, () => undefined);
  try {
    await limit.race(delivery.drop());
  } finally {
    limit.clear();
  }
}

/**
 * 405: a method other than POST. A body sent with it is refused unread, as a 413's is: let go of, and
 * not kept on the connection.
 */
export async function wrongMethod(delivery: Delivery, bodyTimeoutMs: number): Promise<Reply> {
  await letGo(delivery, bodyTimeoutMs);
  const message = 'webhook events are delivered with POST';
  return reply(405, { error: 'method_not_allowed', message }, { allow: 'POST', connection: 'close' });
}

/** 413: the body is past the cap. */
function tooLarge(maxBodyBytes: number): Reply {
  const message = `the body is larger than ${maxBodyBytes} bytes`;
  // The unread rest of the body must not be taken for the next request.
  return reply(413, { error: 'payload_too_large', message }, { connection: 'close' });
}

/**
 * The read, given `bodyTimeoutMs` in all: a slow sender must not hold the receiver. A time limit
 * rather than core's Deadline, which also follows a caller's signal and aborts a fetch: a receiver
 * has neither, and this entry's browser bundle would carry them.
 */
async function readWithin(
  delivery: Delivery,
  coding: CompressionFormat | null,
  maxBodyBytes: number,
  bodyTimeoutMs: number,
): Promise<CappedBody> {
  let timedOut = false;
  let sentTooMuch = false;
  const limit = timeLimit(bodyTimeoutMs, () => {
    timedOut = true;
    throw new Error('the body took too long');
  });
  try {
    const stream = delivery.stream();
    if (stream === null) return new Uint8Array(0);
    // The cap counts decoded bytes, so a small gzip that expands a thousandfold stops at the cap, and
    // the bytes sent too, so a gzip that decodes to next to nothing cannot be sent without end.
    let sent = 0;
    const counted = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength;
        sentTooMuch = sent > maxBodyBytes;
        if (sentTooMuch) controller.error();
        else controller.enqueue(chunk);
      },
    });
    const decoded =
      coding === null
        ? stream
        : stream.pipeThrough(counted).pipeThrough(new DecompressionStream(coding) as Decoder);
    return (await readCapped(decoded, maxBodyBytes, limit)) ?? 'too_large';
  } catch {
    // Sent past the cap; the sender went away or the stream broke (nothing valid arrived); or the
    // time ran out.
    return sentTooMuch ? 'too_large' : timedOut ? 'too_slow' : 'unreadable';
  } finally {
    limit.clear();
  }
}

/**
 * The decoder a Content-Encoding needs: `null` for a body sent as is, `undefined` for a coding the
 * receiver cannot undo. Express's body parsers undo gzip and deflate too, so a sender (or a proxy)
 * that compresses is understood either way.
 */
function codingOf(contentEncoding: string | null | undefined): CompressionFormat | null | undefined {
  const coding = contentEncoding?.trim().toLowerCase() || 'identity';
  if (coding === 'identity') return null;
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  return coding === 'deflate' ? 'deflate' : undefined;
}

/** 415 (RFC 7694): the sender learns which codings are understood, and may send the body as is. */
function unsupportedEncoding(contentEncoding: string | null | undefined): Reply {
  const message = `the Content-Encoding ${quote(String(contentEncoding))} is not supported; send gzip, deflate or identity`;
  return reply(
    415,
    { error: 'unsupported_encoding', message },
    // The body was left unread: it must not be taken for the next request.
    { 'accept-encoding': 'gzip, deflate', connection: 'close' },
  );
}

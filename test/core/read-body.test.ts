import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/core/abort.js';
import { readBody } from '../../src/core/read-body.js';
import { ResponseTooLargeError } from '../../src/index.js';

/** A body that hands out `chunks` and then never ends, recording whether it was cancelled. */
function stalling(chunks: string[]) {
  const state = { cancelled: false };
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(new TextEncoder().encode(chunks[next++]));
      // Otherwise nothing more, ever: the reader waits.
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

describe('readBody', () => {
  const deadline = () => new Deadline(60_000, undefined);

  it('reads a body as response.text() would, a BOM dropped and bad bytes replaced', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0xff]);
    const expected = await new Response(bytes).text();
    await expect(readBody(new Response(bytes), 100, deadline(), () => 'GET /x')).resolves.toBe(expected);
  });

  it('an empty or absent body is the empty string', async () => {
    await expect(readBody(new Response(null, { status: 204 }), 1, deadline(), () => 'GET /x')).resolves.toBe(
      '',
    );
    await expect(readBody(new Response(''), 1, deadline(), () => 'GET /x')).resolves.toBe('');
  });

  it('a declared Content-Length over the limit is refused before a byte is read, and cancelled', async () => {
    const { body, state } = stalling([]);
    const response = new Response(body, { headers: { 'content-length': '1000' } });
    const error = await readBody(response, 999, deadline(), () => 'GET /x').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toBe(
      'GET /x: the response body is larger than maxResponseBytes (999 bytes) and was not read',
    );
    expect(state.cancelled).toBe(true);
  });

  it.each(['1e9', '0x400', '12, 12'])(
    'a malformed Content-Length (%s) is no declared length: the bytes are counted instead',
    async (length) => {
      const response = new Response('0123456789', { headers: { 'content-length': length } });
      await expect(readBody(response, 1_000, deadline(), () => 'GET /x')).resolves.toBe('0123456789');
    },
  );

  it('a compressed length says nothing of the decoded size: the bytes are counted instead', async () => {
    const response = new Response('0123456789', {
      headers: { 'content-length': '1000000', 'content-encoding': 'gzip' },
    });
    await expect(readBody(response, 10, deadline(), () => 'GET /x')).resolves.toBe('0123456789');
  });

  it('the count passing the limit mid-body cancels the body', async () => {
    const { body, state } = stalling(['12345', '67890', 'x']);
    const error = await readBody(new Response(body), 10, deadline(), () => 'GET /x').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(state.cancelled).toBe(true);
  });

  it('a stalled body is given up when the attempt’s signal aborts, and cancelled', async () => {
    const { body, state } = stalling(['{"partial":']);
    const caller = new AbortController();
    const pending = readBody(new Response(body), 100, new Deadline(60_000, caller.signal), () => 'GET /x');
    caller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(state.cancelled).toBe(true);
  });
});

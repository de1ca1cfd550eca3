// A stream's place ends with its request's abort even when nothing but the relay holds the request
// (Node's fetch lets a request's signal follow the caller's abort only while the request is alive).
// Collections need --expose-gc, so the check runs in a child process (relay-requests-let-go.mjs).
import { describe, expect, it } from 'vitest';
import { reportWithGc } from '../helpers/child.js';

describe('the event relay, its requests let go of by the server', () => {
  it('frees the place of each stream whose request is aborted, after collections', async () => {
    const { code, stderr, report } = await reportWithGc(
      new URL('./relay-requests-let-go.mjs', import.meta.url),
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(report).toEqual({ before: 2000, after: 1000, bodies: 2000 });
  }, 60_000);
});

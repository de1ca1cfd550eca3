// A stream's place ends with its request's abort even when nothing but the relay holds the request
// (Node's fetch lets a request's signal follow the caller's abort only while the request is alive).
// Collections need --expose-gc, so the check runs in a child process (relay-requests-let-go.mjs).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runWithGc } from '../helpers/child.js';

describe('the event relay, its requests let go of by the server', () => {
  it('frees the place of each stream whose request is aborted, after collections', async () => {
    const script = fileURLToPath(new URL('./relay-requests-let-go.mjs', import.meta.url));
    const { code, stdout, stderr } = await runWithGc(script, []);
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(report).toEqual({ before: 2000, after: 1000, bodies: 2000 });
  }, 60_000);
});

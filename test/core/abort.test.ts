import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RequestAbortedError, TimeoutError } from '../../src/index.js';
import { useRealServer } from '../helpers/real-server.js';

// A real socket: msw's interceptor cannot abort a body mid-stream without tripping undici.
const server = useRealServer();
const subjects = [{ id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 }];

/** Sends the headers and the first bytes at once, then stalls for `stallMs` before the rest. */
function slowBody(stallMs: number) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    const text = JSON.stringify(subjects);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(text.slice(0, 10));
    const timer = setTimeout(() => res.end(text.slice(10)), stallMs);
    res.on('close', () => clearTimeout(timer));
  };
}

function answer(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
}

/** Each reply in turn; the last one repeats. */
function inTurn(...replies: Array<(req: IncomingMessage, res: ServerResponse) => void>) {
  let n = 0;
  return (req: IncomingMessage, res: ServerResponse) => replies[Math.min(n++, replies.length - 1)]!(req, res);
}

function never() {
  return () => {};
}

describe('timeout', () => {
  it('covers the body read, not only the headers', async () => {
    server.serve(slowBody(3_000));
    const started = performance.now();
    const error = await server
      .client({ timeout: 200, maxRetries: 0 })
      .subjects.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(server.hits).toBe(1);
  });

  it('is per attempt, and a timed-out attempt is retried', async () => {
    server.serve(inTurn(slowBody(3_000), answer(subjects)));
    await expect(server.client({ timeout: 200 }).subjects.list()).resolves.toEqual(subjects);
    expect(server.hits).toBe(2);
  });

  it('per-request timeout overrides the client', async () => {
    server.serve(slowBody(3_000));
    await expect(
      server.client({ timeout: 60_000 }).subjects.list({ timeout: 100, maxRetries: 0 }),
    ).rejects.toThrow(TimeoutError);
  });
});

describe('abort', () => {
  it('an already-aborted signal sends nothing', async () => {
    server.serve(answer(subjects));
    const error = await server
      .client()
      .subjects.list({ signal: AbortSignal.abort(new Error('stop')) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as Error).cause).toEqual(new Error('stop'));
    expect(server.hits).toBe(0);
  });

  it('aborting while waiting for headers rejects at once', async () => {
    server.serve(never());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    await expect(server.client().subjects.list({ signal: controller.signal })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('aborting during the body read rejects at once', async () => {
    server.serve(slowBody(5_000));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    await expect(server.client().subjects.list({ signal: controller.signal })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('aborting during a backoff sleep ends the sleep and sends nothing more', async () => {
    server.serve(inTurn(answer({}, 503, { 'retry-after': '30' }), answer(subjects)));
    const controller = new AbortController();
    const pending = server.client().subjects.list({ signal: controller.signal });
    await delay(100);
    controller.abort();
    const started = performance.now();
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    expect(performance.now() - started).toBeLessThan(200);
    await delay(50);
    expect(server.hits).toBe(1);
  });

  it('a custom fetch that ignores the signal still cannot make a body read hang', async () => {
    const stalled = async () =>
      new Response(new ReadableStream({ start() {} }), { headers: { 'content-type': 'application/json' } });
    const started = performance.now();
    await expect(
      server.client({ fetch: stalled, timeout: 100, maxRetries: 0 }).subjects.list(),
    ).rejects.toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

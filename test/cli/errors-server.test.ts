// What a misbehaving server draws from the command line: an absurd Retry-After, a refusal in words a
// terminal would act on, and no answer at all (a status line on a terminal, none off one).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run as runCommandLine } from '../../src/cli/main.js';
import { useRealServer } from '../support.js';
import { run, testIO } from './helpers.js';

describe('an absurd Retry-After (a server that means harm, or has a bug)', () => {
  const server = useRealServer();

  it.each([
    ['10000000000000', /clears in 24 h 0 min: run the same command again after \d{4}-/],
    ['9'.repeat(400), /clears in 24 h 0 min: run the same command again after \d{4}-/],
    ['Sat, 13 Sep 275760 00:00:00 GMT', /clears in 24 h 0 min: run the same command again after \d{4}-/],
    ['1e300', /did not say when the rate limit clears: run the same command again later/],
  ])('Retry-After: %s: the RateLimitError, when to run again, exit 75', async (retryAfter, hint) => {
    server.serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
      res.end('{"error":{"code":"rate_limited","message":"Daily request limit exceeded"}}');
    });
    const result = await run(['subjects', 'list'], { url: server.base });
    expect(result.stderr).toMatch(/^error: RateLimitError: [^\n]+\nhint: [^\n]+\n$/);
    expect(result.stderr).toMatch(hint);
    expect(result.code).toBe(75);
  });
});

describe("the server's own words", () => {
  const server = useRealServer();
  const refusal = { error: { status: 400, message: 'sort must be one of score, -score\u001b[31m' } };
  const serveRefusal = () =>
    server.serve((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(refusal));
    });

  it('a 400 says what the server said, escaped, on its one line', async () => {
    serveRefusal();
    const result = await run(['subjects', 'list'], { url: server.base });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: BadRequestError: 400 Bad Request: sort must be one of score, -score\\u001b[31m\n',
    );
  });

  it('--debug adds the body the server sent, escaped', async () => {
    serveRefusal();
    const result = await run(['--debug', 'subjects', 'list'], { url: server.base });
    expect(result.code).toBe(1);
    const bodyLine = result.stderr.split('\n').find((line) => line.startsWith('body: '));
    expect(bodyLine).toBe(`body: ${JSON.stringify(refusal)}`);
    expect(result.stderr).not.toContain('\u001b');
  });
});

/** Resolves once `server` has a request (with real turns of the loop: the timers are fake). */
async function arrived(server: { hits: number }): Promise<void> {
  while (server.hits === 0) await new Promise((resolve) => setImmediate(resolve));
}

describe('a server that does not answer, on a terminal', () => {
  const server = useRealServer();
  afterEach(() => {
    vi.useRealTimers();
  });

  it('after 2 s the status line says whom the request waits for; the answer takes it away', async () => {
    let answer: () => void = () => {};
    server.serve((_req, res) => {
      answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { io, stderr } = testIO({ url: server.base, terminal: { stderr: true } });
    const running = runCommandLine(['subjects', 'list'], io);
    await arrived(server);
    const host = new URL(server.base).host;
    await vi.advanceTimersByTimeAsync(1_999);
    expect(stderr()).not.toContain('waiting for');
    await vi.advanceTimersByTimeAsync(1);
    expect(stderr()).toBe(`\r\u001b[2Kwaiting for ${host}…`);
    answer();
    expect(await running).toBe(0);
    // Erased once answered; then the last word.
    expect(stderr()).toBe(`\r\u001b[2Kwaiting for ${host}…\r\u001b[2K0 subjects match\n`);
  });

  it('off a terminal: no such line', async () => {
    let answer: () => void = () => {};
    server.serve((_req, res) => {
      answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { io, stderr } = testIO({ url: server.base });
    const running = runCommandLine(['subjects', 'list'], io);
    await arrived(server);
    await vi.advanceTimersByTimeAsync(5_000);
    answer();
    expect(await running).toBe(0);
    expect(stderr()).toBe('');
  });
});

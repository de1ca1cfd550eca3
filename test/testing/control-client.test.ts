import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConfigurationError,
  ConnectionError,
  MetricError,
  NotFoundError,
} from '../../src/index.js';
import {
  createMockApi,
  MOCK_BASE_URL,
  type MockServer,
  mockControl,
  startMockServer,
} from '../../src/testing/index.js';
import { createRandom, deriveSeed } from '../../src/testing/random.js';
import { refusedPageWarning } from '../../src/testing/server-guard.js';
import { smallSizes } from './helpers.js';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ sizes: smallSizes, control: true });
});
afterAll(async () => {
  await server.close();
});

/** A control request as a program other than mockControl would send it. */
function send(path: string, method: string, body?: string): Promise<Response> {
  const headers: Record<string, string> =
    body === undefined && method !== 'POST' ? {} : { 'content-type': 'application/json' };
  return fetch(new URL(path, server.url), { method, headers, body });
}

/** A server on 127.0.0.1 answering every request with `answer`, for as long as `run` takes. */
async function withServer(answer: Parameters<typeof createServer>[1], run: (url: string) => Promise<void>) {
  const other: Server = createServer(answer);
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(other.address() as AddressInfo).port}`);
  } finally {
    other.close();
  }
}

describe('mockControl: refusals are the SDK’s typed errors', () => {
  it('throws the APIError of the status, with the server’s message', async () => {
    const error = await mockControl(server.url)
      .updateScore(999_999, 1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      message: 'Mock control POST /__mock/score failed: 404 Not Found: No journal with id 999999',
    });
    await expect(mockControl(server.url).updateScore(1, -4)).rejects.toBeInstanceOf(BadRequestError);
  });

  it('throws a ConfigurationError naming the option, as the same call in-process does', async () => {
    const error = await mockControl(server.url)
      .fault({ delayMs: 3e9 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option: 'fault.delayMs', message: expect.stringMatching(/delayMs/) });
  });

  it('throws a ConnectionError naming the control URL when nothing answers', async () => {
    let port = 0;
    await withServer(
      () => {},
      async (url) => {
        port = Number(new URL(url).port);
      },
    );
    const error = await mockControl(`http://127.0.0.1:${port}/api/v1`)
      .reset()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain(
      `Mock control POST http://127.0.0.1:${port}/__mock/reset failed: `,
    );
  });

  it('escapes and shortens what the server says, as an APIError does', async () => {
    const said = `\u001b[2J\u001b[31mFAKE\u001b[0m ${'x'.repeat(5000)}`;
    const answer: Parameters<typeof createServer>[1] = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: said }));
    };
    await withServer(answer, async (url) => {
      const error = await mockControl(url)
        .reset()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MetricError);
      expect(error).toMatchObject({ status: 400 });
      const { message } = error as Error;
      expect(message).not.toContain('\u001b');
      expect(message).toContain('\\u001b[2J');
      expect(message.length).toBeLessThan(300);
    });
  });

  it('refuses a fault JSON cannot carry as a ConfigurationError, sending nothing', async () => {
    const sent: string[] = [];
    const spy: typeof fetch = (input, init) => {
      sent.push(String(input));
      return fetch(input, init);
    };
    // A function or a symbol JSON would drop without a word: the fault would go out without its body.
    for (const body of [1n, () => 1, Symbol('x'), { nested: [() => 1] }]) {
      const fault = { status: 500, body } as never;
      await expect(mockControl(server.url, spy).fault(fault)).rejects.toMatchObject({
        name: 'ConfigurationError',
        option: 'fault.body',
      });
    }
    expect(sent).toEqual([]);
  });

  it('refuses a fault body JSON cannot carry as the same fault in-process is refused', async () => {
    for (const body of [1n, () => 1, Symbol('x'), { a: () => 1 }, [Symbol('x')]]) {
      const fault = { status: 503, body } as never;
      const inProcess = (() => {
        try {
          createMockApi().faults.next(fault);
        } catch (error) {
          return error;
        }
      })();
      const remote = await mockControl(server.url)
        .fault(fault)
        .catch((error: unknown) => error);
      expect(inProcess).toBeInstanceOf(ConfigurationError);
      expect(remote).toBeInstanceOf(ConfigurationError);
      expect(remote).toMatchObject({ option: 'fault.body', message: (inProcess as Error).message });
    }
  });

  it('lists the subscribed URLs and clears the queued faults', async () => {
    const control = mockControl(server.url);
    await control.subscribe('http://127.0.0.1:9/hooks');
    expect(await control.webhooks()).toEqual(['http://127.0.0.1:9/hooks']);
    await control.fault({ status: 503 });
    await control.clearFaults();
    expect(server.api.faults.pending).toBe(0);
    await control.reset();
    expect(await control.webhooks()).toEqual([]);
  });
});

describe('control endpoints: methods and bodies', () => {
  it('answers another method on a control path 405 with Allow, and HEAD as GET', async () => {
    const put = await send('/__mock/reset', 'PUT');
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
    const head = await send('/__mock/webhooks', 'HEAD');
    expect([head.status, await head.text()]).toEqual([200, '']);
    // A refusal to HEAD has no body either, in-process as over a socket.
    const api = createMockApi({ control: true });
    for (const path of ['/__mock/reset', '/__mock/nothing']) {
      const refused = await api.fetch(`${MOCK_BASE_URL.replace(/\/api\/v1$/, '')}${path}`, {
        method: 'HEAD',
      });
      expect([refused.status >= 400, await refused.text()]).toEqual([true, '']);
    }
    expect((await send('/__mock/nothing', 'GET')).status).toBe(404);
  });

  it('refuses a body that is not a JSON object in its own words', async () => {
    for (const body of ['{x', '', '[1]']) {
      const answer = await send('/__mock/faults', 'POST', body);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { message: string }).message).toMatch(
        /^The body must be a JSON object; it was (empty|not one)$/,
      );
    }
  });

  it('names the score field as sent: new_score', async () => {
    const body = JSON.stringify({ journal_id: 1, new_score: 1.5 });
    const answer = await send('/__mock/score', 'POST', body);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toMatch(/^new_score must be/);
  });

  it('refuses a field misspelt (which would be ignored), naming it, as /__mock/faults does', async () => {
    const score = await send('/__mock/score', 'POST', JSON.stringify({ journal_id: 1, newScore: 5 }));
    expect(score.status).toBe(400);
    expect(await score.json()).toMatchObject({
      option: 'newScore',
      message: expect.stringMatching(/takes no option "newScore"/),
    });
    const hook = await send(
      '/__mock/webhooks',
      'POST',
      JSON.stringify({ url: 'http://127.0.0.1:1/h', secret: 'x' }),
    );
    expect(hook.status).toBe(400);
    expect(await hook.json()).toMatchObject({ option: 'secret' });
  });
});

describe('fault headers that frame the message', () => {
  it.each([
    'transfer-encoding',
    'Content-Length',
    'connection',
    'keep-alive',
    'upgrade',
    'te',
    'trailer',
    'proxy-connection',
  ])('refuses %s, which the server sets itself', async (name) => {
    const api = createMockApi({ sizes: smallSizes });
    expect(() => api.faults.next({ status: 503, headers: { [name]: 'chunked' } })).toThrow(
      expect.objectContaining({ option: 'fault.headers' }),
    );
    await expect(
      mockControl(server.url).fault({ status: 503, headers: { [name]: 'chunked' } }),
    ).rejects.toMatchObject({ option: 'fault.headers' });
  });
});

describe('the refused-page warning', () => {
  it('escapes control characters in the Origin it quotes', () => {
    const line = refusedPageWarning('http://evil.test\u009b31m\u009dx');
    expect(line).not.toMatch(/[\u0080-\u009f]/);
    expect(line).toContain('http://evil.test\\u009b31m\\u009dx');
    expect(refusedPageWarning('Sec-Fetch-Site: cross\u001b[2J')).toContain('\\u001b[2J');
  });
});

describe('seeds', () => {
  it('gives distinct safe-integer seeds distinct streams, seeds in 0..2^32-1 as before', () => {
    const draws = (seed: number) => {
      const random = createRandom(seed);
      return [random.next(), random.next(), random.next()];
    };
    expect(draws(42)).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
    expect(deriveSeed(42, 7)).toBe(142_367_074);
    const seeds = [42, 2 ** 32 + 42, -4_294_967_254, -(2 ** 53) + 1, 2 ** 53 - 1];
    expect(new Set(seeds.map((seed) => draws(seed).join())).size).toBe(seeds.length);
    expect(new Set(seeds.map((seed) => deriveSeed(seed, 7))).size).toBe(seeds.length);
    const journals = (seed: number) =>
      JSON.stringify(createMockApi({ seed, sizes: smallSizes }).dataset.journals.slice(0, 3));
    expect(journals(2 ** 32 + 42)).not.toBe(journals(42));
  });
});

/**
 * The mock's own bounds: fault delays (a longer one used to overflow setTimeout and answer at once)
 * and dataset sizes (a larger one used to end in an out-of-memory abort), refused with the maximum
 * named, by the API, the server, the control endpoint and the command line; and the warning printed
 * when the server listens beyond loopback.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import {
  createMockApi,
  MOCK_API_KEY,
  MOCK_BASE_URL,
  MOCK_MAX_DELAY_MS,
  MOCK_MAX_SIZES,
  type MockServer,
  startMockServer,
} from '../../src/testing/index.js';
import { exposedWarning, isLoopback } from '../../src/testing/server-guard.js';
import { countSdkTimers, untilTimersSet, useFakeClock } from '../helpers/fake-clock.js';
import { spawnNode } from '../helpers/spawn.js';
import { smallApi, smallSizes } from './helpers.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('fault delays', () => {
  it('names a maximum of ten minutes', () => {
    expect(MOCK_MAX_DELAY_MS).toBe(600_000);
  });

  it.each([3e9, MOCK_MAX_DELAY_MS + 1, 2 ** 31])(
    'refuses delayMs %d with a ConfigurationError naming the maximum',
    (delayMs) => {
      const api = smallApi();
      expect(() => api.faults.next({ delayMs })).toThrow(ConfigurationError);
      expect(() => api.faults.next({ delayMs })).toThrow(`from 0 to ${MOCK_MAX_DELAY_MS}`);
      expect(api.faults.pending).toBe(0);
    },
  );

  it.each([3e9, [0, 3e9] as const, [MOCK_MAX_DELAY_MS, MOCK_MAX_DELAY_MS + 1] as const])(
    'refuses latencyMs %j at creation and in configure',
    (latencyMs) => {
      expect(() => smallApi({ faults: { latencyMs } })).toThrow(
        `\`faults.latencyMs\` must be an integer from 0 to ${MOCK_MAX_DELAY_MS}`,
      );
      expect(() => smallApi().faults.configure({ latencyMs })).toThrow(ConfigurationError);
    },
  );

  it('waits the whole maximum delay, not a moment less (no timer overflow)', async () => {
    useFakeClock();
    const mockTimers = countSdkTimers('testing/');
    const api = smallApi();
    api.faults.next({ delayMs: MOCK_MAX_DELAY_MS });
    let status: number | undefined;
    const answered = api
      .fetch(`${MOCK_BASE_URL}/subjects`, { headers: { authorization: `Bearer ${MOCK_API_KEY}` } })
      .then((response) => {
        status = response.status;
      });
    await untilTimersSet(mockTimers);
    await vi.advanceTimersByTimeAsync(MOCK_MAX_DELAY_MS - 1);
    expect(status).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await answered;
    expect(status).toBe(200);
  });

  it('answers 400 to a control call queuing a longer delay', async () => {
    const server = await startMockServer({ sizes: smallSizes, control: true });
    servers.push(server);
    const answer = await fetch(`${new URL(server.url).origin}/__mock/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ delayMs: 3e9 }),
    });
    expect(answer.status).toBe(400);
    expect((await answer.json()).message).toContain(`from 0 to ${MOCK_MAX_DELAY_MS}`);
    expect(server.api.faults.pending).toBe(0);
  });
});

describe('dataset sizes', () => {
  it.each([
    ['papers', 20_000_000, MOCK_MAX_SIZES.papers],
    ['papers', MOCK_MAX_SIZES.papers + 1, MOCK_MAX_SIZES.papers],
    ['journals', 1e9, MOCK_MAX_SIZES.journals],
    ['authors', 1e8, MOCK_MAX_SIZES.authors],
  ])('refuses %s: %d before generating anything, naming the maximum', async (name, value, max) => {
    const message = `\`sizes.${name}\` must be an integer from 0 to ${max}`;
    expect(() => createMockApi({ sizes: { [name]: value } })).toThrow(ConfigurationError);
    expect(() => createMockApi({ sizes: { [name]: value } })).toThrow(message);
    await expect(startMockServer({ sizes: { [name]: value } })).rejects.toThrow(message);
  });

  it('keeps the maxima documented on the options', () => {
    const lists = { subjects: 30, countries: 72 };
    expect(MOCK_MAX_SIZES).toEqual({ journals: 10_000, papers: 1_000_000, authors: 100_000, ...lists });
    for (const [name, max] of Object.entries(lists)) {
      expect(() => createMockApi({ sizes: { [name]: max + 1 } })).toThrow(`from 0 to ${max}`);
      expect(createMockApi({ sizes: { ...smallSizes, [name]: max } }).dataset[name as never]).toHaveLength(
        max,
      );
    }
  });
});

const cli = fileURLToPath(new URL('../../src/testing/cli.ts', import.meta.url));

async function runCli(args: string[]) {
  const { code, stderr } = await spawnNode(cli, args).exited;
  return { code, stderr };
}

describe('the command line', () => {
  it('exits 2 with the usage for --papers 20000000 and --latency past the maximum, serving nothing', async () => {
    const papers = await runCli(['--port', '0', '--papers', '20000000']);
    expect(papers.code).toBe(2);
    expect(papers.stderr).toContain('--papers can be at most 1000000, got 20000000');
    expect(papers.stderr).toContain('Usage: scholarly-metrics-mock');
    const latency = await runCli(['--port', '0', '--latency', '10-3000000000']);
    expect(latency.code).toBe(2);
    expect(latency.stderr).toContain(`--latency can be at most ${MOCK_MAX_DELAY_MS}, got 3000000000`);
  });
});

describe('listening beyond loopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['fe80::1', false],
    ['128.0.0.1', false],
  ])('%s is loopback: %s', (address, loopback) => {
    expect(isLoopback(address)).toBe(loopback);
  });

  it('says loudly what is exposed', () => {
    const warning = exposedWarning('0.0.0.0', 4010);
    expect(warning).toContain('WARNING');
    expect(warning).toContain('0.0.0.0:4010');
    expect(warning).toMatch(/well-known API keys/);
  });

  it('prints nothing on stderr when bound to 127.0.0.1', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      servers.push(await startMockServer({ sizes: smallSizes }));
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });
});

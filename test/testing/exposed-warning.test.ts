/**
 * startMockServer({ host }) warns on stderr when the address it is bound to is not loopback. Tests
 * never listen beyond 127.0.0.1, so node:http is replaced here by a server that only says where it
 * listens: nothing is bound at all.
 */
import { describe, expect, it, vi } from 'vitest';

const bound = vi.hoisted(() => ({ address: '0.0.0.0', family: 'IPv4' }));

vi.mock('node:http', () => ({
  STATUS_CODES: {},
  createServer: () => ({
    on: () => {},
    once: () => {},
    off: () => {},
    listen: (_port: number, _host: string, ready: () => void) => ready(),
    address: () => ({ address: bound.address, family: bound.family, port: 4010 }),
    close: (done: () => void) => done(),
    closeAllConnections: () => {},
  }),
}));

const { startMockServer } = await import('../../src/testing/server.js');
const { createMockApi } = await import('../../src/testing/mock-api.js');

async function stderrOf(host: string, address: string, family = 'IPv4'): Promise<string> {
  bound.address = address;
  bound.family = family;
  let written = '';
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    written += String(chunk);
    return true;
  });
  try {
    const server = await startMockServer({ host, api: createMockApi({ sizes: { papers: 0 } }) });
    await server.close();
  } finally {
    write.mockRestore();
  }
  return written;
}

describe('startMockServer beyond loopback', () => {
  it.each([
    ['0.0.0.0', '0.0.0.0', 'IPv4'],
    ['::', '::', 'IPv6'],
    ['192.168.1.20', '192.168.1.20', 'IPv4'],
  ])('warns on stderr when bound to %s', async (host, address, family) => {
    const warning = await stderrOf(host, address, family);
    expect(warning).toContain(
      '*** WARNING: scholarly-metrics mock server listening on a non-loopback address',
    );
    expect(warning).toContain(`${address}:4010`);
  });

  it.each([
    ['127.0.0.1', '127.0.0.1', 'IPv4'],
    ['localhost', '::1', 'IPv6'],
  ])('stays quiet when bound to %s', async (host, address, family) => {
    expect(await stderrOf(host, address, family)).toBe('');
  });
});

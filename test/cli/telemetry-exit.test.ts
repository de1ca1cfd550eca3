// The collector never decides when the bin exits: a collector on 127.0.0.1 that refuses
// connections, stays silent or trickles its reply byte by byte holds the real bin's exit no longer
// than the flush's bound, and Ctrl-C during that flush exits 130 at once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { flushBoundMs } from '../../src/cli/telemetry.js';
import { freePort } from '../helpers/free-port.js';
import { start } from './helpers.js';

/** A collector on 127.0.0.1 that never answers well: it refuses, stays silent, or trickles a reply. */
async function hostileCollector(behaviour: 'refuses' | 'is silent' | 'trickles') {
  if (behaviour === 'refuses') {
    const port = await freePort();
    return {
      endpoint: `http://127.0.0.1:${port}`,
      requested: new Promise<void>(() => {}),
      close: async () => {},
    };
  }
  const sockets = new Set<Socket>();
  let requested!: () => void;
  const firstRequest = new Promise<void>((resolve) => {
    requested = resolve;
  });
  const server: Server = createServer((req, res) => {
    req.resume();
    requested();
    if (behaviour === 'is silent') return;
    // A byte every 100 ms, never the end: the socket is never idle.
    res.writeHead(200, { 'content-type': 'application/json' });
    const drip = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(drip));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested: firstRequest,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the collector does not decide when the bin exits', { timeout: 60_000 }, () => {
  // The bound is 2 s after the command's work; left to the exporters, such a collector holds the exit
  // 8–10 s, or for ever (trickling). The margin leaves room for a loaded machine.
  const margin = 6_000;

  it.each(['refuses', 'is silent', 'trickles'] as const)(
    'a collector that %s: the bin exits with its own code, within the bound',
    async (behaviour) => {
      const collector = await hostileCollector(behaviour);
      try {
        const bin = start(['--mock', 'journals', 'get', '1', '--format', 'json'], {
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint },
        });
        // The command's work is done once its record is out; the flush starts then.
        while (bin.output().stdout === '' && bin.child.exitCode === null) await sleep(10);
        const workDone = performance.now();
        const result = await bin.exited;
        expect(performance.now() - workDone).toBeLessThan(margin);
        expect(result.code).toBe(0);
        expect(JSON.parse(result.stdout)).toMatchObject({ id: 1 });
        expect(result.stderr).toBe('');
      } finally {
        await collector.close();
      }
    },
  );

  it.each(['is silent', 'trickles'] as const)(
    'Ctrl-C while the last export waits on a collector that %s: exit 130, at once',
    async (behaviour) => {
      const collector = await hostileCollector(behaviour);
      try {
        const bin = start(['--mock', 'journals', 'get', '1'], {
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint },
        });
        await collector.requested;
        bin.child.kill('SIGINT');
        const interrupted = performance.now();
        const result = await bin.exited;
        expect(result.code).toBe(130);
        // The bound after Ctrl-C is half a second (checked exactly in telemetry.test.ts, with fake timers).
        expect(performance.now() - interrupted).toBeLessThan(margin - flushBoundMs);
      } finally {
        await collector.close();
      }
    },
  );
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

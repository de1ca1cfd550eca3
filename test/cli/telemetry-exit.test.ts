// The collector never decides when the bin exits: a collector on 127.0.0.1 that refuses
// connections, stays silent or trickles its reply byte by byte does not hold the real bin's exit,
// and Ctrl-C during the flush exits 130. A trickling reply never ends, so a bin that waited for it
// would never exit: the test's own timeout is the only clock here. The bounds themselves (2 s after
// the work, half a second after Ctrl-C) are checked exactly in telemetry-flush.test.ts, with fake timers.
import { describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/free-port.js';
import { type Handler, startFaultServer } from '../support.js';
import { start } from './helpers.js';

/** A byte every 100 ms, never the end: the socket is never idle. */
const trickle: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const drip = setInterval(() => res.write(' '), 100);
  res.on('close', () => clearInterval(drip));
};

/** A collector on 127.0.0.1 that never answers well: it refuses, stays silent, or trickles a reply. */
async function hostileCollector(behaviour: 'refuses' | 'is silent' | 'trickles') {
  if (behaviour === 'refuses') {
    return {
      endpoint: `http://127.0.0.1:${await closedPort()}`,
      requested: new Promise<void>(() => {}),
      close: async () => {},
    };
  }
  let requested!: () => void;
  const firstRequest = new Promise<void>((resolve) => {
    requested = resolve;
  });
  const server = await startFaultServer({ record: false });
  server.serve((req, res, attempt) => {
    req.resume();
    requested();
    if (behaviour === 'trickles') trickle(req, res, attempt);
  });
  return { endpoint: server.origin, requested: firstRequest, close: () => server.close() };
}

describe('the collector does not decide when the bin exits', { timeout: 60_000 }, () => {
  it.each(['refuses', 'is silent', 'trickles'] as const)(
    'a collector that %s: the bin exits with its own code',
    async (behaviour) => {
      const collector = await hostileCollector(behaviour);
      try {
        const bin = start(['--mock', 'journals', 'get', '1', '--format', 'json'], {
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint },
        });
        const result = await bin.exited;
        expect(result.code).toBe(0);
        expect(JSON.parse(result.stdout)).toMatchObject({ id: 1 });
        expect(result.stderr).toBe('');
      } finally {
        await collector.close();
      }
    },
  );

  it.each(['is silent', 'trickles'] as const)(
    'Ctrl-C while the last export waits on a collector that %s: exit 130',
    async (behaviour) => {
      const collector = await hostileCollector(behaviour);
      try {
        const bin = start(['--mock', 'journals', 'get', '1'], {
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint },
        });
        await collector.requested;
        bin.child.kill('SIGINT');
        const result = await bin.exited;
        expect(result.code).toBe(130);
      } finally {
        await collector.close();
      }
    },
  );
});

/** Faults of the connection and of the body: resets, silence, slow and broken bodies. */
import { expect } from 'vitest';
import type { ResponseValidationError } from '../../../src/index.js';
import {
  dribble,
  falseGzip,
  never,
  resetBeforeResponse,
  resetMidBody,
  subjects,
  truncatedJson,
} from '../fault-server.js';
import { type FaultCase, names, ok, on } from './shared.js';

/** A body that takes minutes at a byte every 50 ms: no test can see it finish. */
const endless = Array.from({ length: 100 }, (_, i) => ({ ...subjects[i % 2]!, id: i + 1 }));

export const connectionFaults: readonly FaultCase[] = [
  {
    fault: 'reset before any response',
    server: 'TCP reset as soon as the request arrives, every time',
    sdk: 'retries after backoff (0.5–1 s, then 1–2 s), then gives up',
    prepare: on(resetBeforeResponse()),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 0,
    minMs: 1_450,
    check: names(/ECONNRESET/),
  },
  {
    fault: 'reset once, then healthy',
    server: 'TCP reset on the first request, a valid answer after',
    sdk: 'retries once after 0.5–1 s and returns the answer',
    prepare: on(resetBeforeResponse(), ok),
    outcome: 'success',
    sent: 2,
    seen: 2,
    minMs: 450,
  },
  {
    fault: 'reset mid-body',
    server: 'headers and half the body, then a TCP reset',
    sdk: 'the body read fails; retried like a reset',
    prepare: on(resetMidBody()),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 3,
    minMs: 1_450,
    // undici names a reset that lands mid-body either way, as the socket's error and close events
    // race: ECONNRESET, or the peer's close (seen on Node 22 with the machine busy).
    check: names(/ECONNRESET|other side closed \(UND_ERR_SOCKET\)/),
  },
  {
    fault: 'never answering',
    server: 'reads the request, sends nothing, keeps the socket open',
    sdk: 'each attempt times out (`timeout: 250`), retried once (`maxRetries: 1`) after 0.5–1 s',
    prepare: on(never()),
    options: { timeout: 250, maxRetries: 1 },
    outcome: 'TimeoutError',
    sent: 2,
    seen: 2,
    answered: 0,
    minMs: 1_000,
    timeoutStrikes: 'before the headers',
  },
  {
    fault: 'body dribbled past the timeout',
    server: 'headers at once, then 1 byte every 50 ms',
    sdk: 'the timeout covers the body read: times out, retried once after 0.5–1 s',
    prepare: on(dribble(endless, 1, 50)),
    options: { timeout: 250, maxRetries: 1 },
    outcome: 'TimeoutError',
    sent: 2,
    seen: 2,
    answered: 2,
    minMs: 1_000,
    timeoutStrikes: 'during the body',
  },
  {
    fault: 'body dribbled within the timeout',
    server: '16 bytes every 25 ms (≈0.3 s for the body)',
    sdk: 'slow is not an error: waits and returns the answer',
    prepare: on(dribble(subjects, 16, 25)),
    outcome: 'success',
    sent: 1,
    seen: 1,
    answered: 1,
    minMs: 200,
  },
  {
    fault: 'truncated JSON, honest Content-Length',
    server: '200, 60 % of the JSON, Content-Length of what was sent',
    sdk: 'a complete HTTP answer with a broken body: not retried',
    prepare: on(truncatedJson('honest-length')),
    outcome: 'ResponseValidationError',
    sent: 1,
    seen: 1,
    check: (result) => {
      const error = result.error as ResponseValidationError;
      expect(error.message).toMatch(/not JSON/);
      expect(error.body).toBe(
        JSON.stringify(subjects).slice(0, Math.floor(JSON.stringify(subjects).length * 0.6)),
      );
    },
  },
  {
    fault: 'truncated JSON, Content-Length promising more',
    server: '200, Content-Length of the whole body, 60 % of it, then closes',
    sdk: 'the connection ended early: retried like a reset',
    prepare: on(truncatedJson('full-length')),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 3,
    minMs: 1_450,
    check: names(/other side closed \(UND_ERR_SOCKET\)/),
  },
  {
    fault: 'truncated JSON, chunked, no last chunk',
    server: '200 chunked, 60 % of the JSON, then closes',
    sdk: 'the connection ended early: retried like a reset',
    prepare: on(truncatedJson('chunked')),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 3,
    minMs: 1_450,
    check: names(/other side closed \(UND_ERR_SOCKET\)/),
  },
  {
    fault: 'Content-Encoding: gzip on a plain body',
    server: '200, valid JSON, but labelled gzip',
    sdk: 'decompression fails in the body read: retried like a reset',
    prepare: on(falseGzip()),
    outcome: 'ConnectionError',
    sent: 3,
    seen: 3,
    answered: 3,
    minMs: 1_450,
    check: names(/incorrect header check \(Z_DATA_ERROR\)/),
  },
];

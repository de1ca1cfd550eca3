import type { OptionNames, Resolved } from '../core/options/checks.js';
import { checkMockFault } from './fault-checks.js';
import { type MockFaultOptions, type ResolvedMockFaultOptions, resolveMockFaults } from './options.js';
import { createRandom, type Random } from './random.js';

export type { MockFaultOptions } from './options.js';

/**
 * The longest delay a fault or `latencyMs` may ask for, in ms (10 minutes): longer than any timeout a
 * test exercises, and far below setTimeout's own limit, past which a timer fires at once.
 *
 * @example
 * ```ts
 * api.faults.next({ delayMs: MOCK_MAX_DELAY_MS + 1 }); // throws ConfigurationError: …from 0 to 600000
 * ```
 */
export const MOCK_MAX_DELAY_MS = 600_000;

/**
 * One injected failure, queued with `api.faults.next(fault)` for the next request(s) to the API
 * (preflights, control calls and paths outside the API are never faulted).
 *
 * @example
 * ```ts
 * api.faults.next({ status: 503, times: 2 }); // two 503s, then normal answers: exercises retries
 * api.faults.next({ reset: true });           // the connection drops without an answer
 * api.faults.next({ malformed: true });       // a 200 whose JSON body is cut short
 * api.faults.next({ delayMs: 5_000 });        // a slow answer: exercises timeouts
 * ```
 */
export interface MockFault {
  /**
   * Answer with this status (200–599) and an error body instead of the real answer (no body for 204,
   * 205 and 304, which carry none). @default undefined
   */
  readonly status?: number | undefined;
  /** JSON body sent with `status`. @default the mock's error body `{ error, message }` */
  readonly body?: unknown | undefined;
  /** Extra headers sent with `status`, e.g. `{ 'retry-after': '1' }`. @default {} */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Drop the connection without an answer (msw: a network error; HTTP server: a destroyed socket). @default false */
  readonly reset?: boolean | undefined;
  /**
   * Send the real status with a broken body: `'truncated'` (or `true`) cuts the JSON short; `'shape'`
   * keeps it JSON but turns every number into a string, so schema validation fails.
   * @default false
   */
  readonly malformed?: boolean | 'truncated' | 'shape' | undefined;
  /**
   * Wait this long before answering, in ms, at most {@link MOCK_MAX_DELAY_MS}; replaces `latencyMs`
   * for this request. @default undefined
   */
  readonly delayMs?: number | undefined;
  /** How many consecutive requests this fault hits. @default 1 */
  readonly times?: number | undefined;
}

/** The names a queued fault may have: any other is refused, not ignored. */
const faultNames: OptionNames<MockFault> = {
  status: true,
  body: true,
  headers: true,
  reset: true,
  malformed: true,
  delayMs: true,
  times: true,
};

/**
 * @internal What to do to one request: a fault's fields with their defaults, except `status` and
 * `body`, which stay unset for a real answer, and `malformed`, where `true` reads as `'truncated'`.
 */
export type ResolvedFault = Resolved<Omit<MockFault, 'times' | 'status' | 'body' | 'malformed'>> & {
  readonly [K in 'status' | 'body']: MockFault[K];
} & { readonly malformed: Exclude<MockFault['malformed'], boolean> };

const none: Omit<ResolvedFault, 'delayMs'> = {
  reset: false,
  status: undefined,
  body: undefined,
  headers: {},
  malformed: undefined,
};

/**
 * The fault controls of a mock: a queue of one-shot faults, and random faults.
 *
 * @example
 * ```ts
 * const api = createMockApi();
 * api.faults.next({ status: 500 });
 * api.faults.pending; // 1
 * api.faults.clear();
 * ```
 */
export class FaultController {
  #queue: { fault: MockFault; left: number }[] = [];
  #options: ResolvedMockFaultOptions;
  #random: Random;

  constructor(options: MockFaultOptions = {}) {
    this.#options = resolveMockFaults(options, MOCK_MAX_DELAY_MS);
    this.#random = createRandom(this.#options.seed);
  }

  /**
   * Queues a fault for the next request (or the next `times` requests), after those already queued.
   *
   * @example
   * ```ts
   * api.faults.next({ status: 503, times: 2 }).next({ status: 404 }); // two 503s, then a 404
   * ```
   */
  next(fault: MockFault): this {
    checkMockFault(fault, MOCK_MAX_DELAY_MS, faultNames);
    this.#queue.push({ fault, left: fault.times ?? 1 });
    return this;
  }

  /**
   * Requests still to be hit by queued faults.
   *
   * @example
   * ```ts
   * api.faults.next({ status: 503, times: 2 });
   * await client.subjects.list(); // the client's two retries absorb both 503s
   * expect(api.faults.pending).toBe(0);
   * ```
   */
  get pending(): number {
    return this.#queue.reduce((sum, entry) => sum + entry.left, 0);
  }

  /**
   * Empties the queue. Random faults stay as configured.
   *
   * @example
   * ```ts
   * afterEach(() => api.faults.clear()); // a test that fails early leaves no fault for the next one
   * ```
   */
  clear(): void {
    this.#queue = [];
  }

  /**
   * Replaces the random fault settings and restarts their sequence from the seed.
   *
   * @example
   * ```ts
   * api.faults.configure({ errorRate: 0.2, latencyMs: [10, 100], seed: 42 }); // same draws on every run
   * ```
   */
  configure(options: MockFaultOptions): void {
    this.#options = resolveMockFaults(options, MOCK_MAX_DELAY_MS);
    this.#random = createRandom(this.#options.seed);
  }

  /** @internal Decides the fault for one request (queued first, then random). */
  take(): ResolvedFault {
    const entry = this.#queue[0];
    if (entry !== undefined) {
      if (--entry.left === 0) this.#queue.shift();
      const { fault } = entry;
      return {
        delayMs: fault.delayMs ?? this.#latency(),
        reset: fault.reset === true,
        status: fault.status,
        body: fault.body,
        headers: fault.headers ?? {},
        malformed: fault.malformed === true ? 'truncated' : fault.malformed || undefined,
      };
    }
    const { resetRate, errorRate, malformedRate, errorStatus } = this.#options;
    const delayMs = this.#latency();
    if (resetRate + errorRate + malformedRate === 0) return { ...none, delayMs };
    const draw = this.#random.next();
    if (draw < resetRate) return { ...none, delayMs, reset: true };
    if (draw < resetRate + errorRate) return { ...none, delayMs, status: errorStatus };
    if (draw < resetRate + errorRate + malformedRate) return { ...none, delayMs, malformed: 'truncated' };
    return { ...none, delayMs };
  }

  #latency(): number {
    const [min, max] = this.#options.latencyMs;
    return min === max ? min : this.#random.int(min, max);
  }
}

/** Breaks a response's body as `kind` says, keeping its status and headers. */
export async function corrupt(response: Response, kind: 'truncated' | 'shape'): Promise<Response> {
  const text = await response.text();
  if (text === '') return new Response(null, response);
  let body: string;
  if (kind === 'truncated') {
    // Any proper prefix of a JSON object or array leaves a bracket open, so it never parses.
    body = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  } else {
    body = JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
      typeof value === 'number' ? String(value) : value,
    );
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(body, { status: response.status, headers });
}

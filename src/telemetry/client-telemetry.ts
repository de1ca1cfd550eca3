import type { CacheStatus } from '../core/api-promise.js';
import type { ResolvedClientOptions } from '../core/options/client.js';
import type {
  AttemptTelemetry,
  CallDescription,
  CallTelemetry,
  SpanLike,
  TelemetryAttributes,
  TelemetryOptions,
  TracerLike,
} from '../core/telemetry-types.js';
import {
  errorType,
  type FirstLoadParts,
  requestAttributes,
  retryReason,
  routeOf,
  serverAttributes,
  statusMessage,
} from './attributes.js';
import { guardedInstrument, guardedTracer, orNone } from './guarded.js';
import {
  type ClientInstruments,
  clientInstruments,
  errorStatus,
  meterOf,
  spanKind,
  tracerOf,
} from './instruments.js';

/**
 * The telemetry of one client, loaded with its first call: a span per call, active while the call
 * runs, and the client's metrics. Every value it records comes from the SDK's own few names (method,
 * URL template, status, error class) or is a count or a duration: never a value the caller passed.
 */
export class ClientTelemetry implements CallTelemetry {
  readonly #tracer: TracerLike | undefined;
  readonly #instruments: ClientInstruments | undefined;
  readonly #server: TelemetryAttributes;
  readonly #client: ResolvedClientOptions;
  readonly #quota: TelemetryAttributes;
  readonly #parts: FirstLoadParts;

  /** `shared`: the client's quota is shared through Redis, rather than its own. */
  constructor(
    options: TelemetryOptions,
    client: ResolvedClientOptions,
    shared: boolean,
    version: string,
    parts: FirstLoadParts,
  ) {
    this.#parts = parts;
    const tracer = orNone(() => tracerOf(options, version));
    this.#tracer = tracer && guardedTracer(tracer);
    const meter = orNone(() => meterOf(options, version));
    const instruments = meter && orNone(() => clientInstruments(meter));
    this.#instruments =
      instruments &&
      (Object.fromEntries(
        Object.entries(instruments).map(([name, instrument]) => [name, guardedInstrument(instrument)]),
      ) as ClientInstruments);
    this.#server = serverAttributes(client.baseUrl);
    this.#client = client;
    this.#quota = { 'scholarly_metrics.quota.source': shared ? 'redis' : 'local', ...this.#server };
  }

  call<R>(
    method: string,
    description: CallDescription<R>,
    run: (attempts: AttemptTelemetry | undefined) => Promise<R>,
  ): Promise<R> {
    const route = routeOf(description.route);
    const request = requestAttributes(description.template, route);
    // Every span and metric names the API host: two hosts, or two keys' hosts, stay apart.
    const attributes = { ...request, ...this.#server };
    const tracer = this.#tracer;
    if (tracer === undefined) return this.#measure(method, description, run, undefined);
    return tracer.startActiveSpan(method, { kind: spanKind.internal, attributes }, (span) =>
      this.#measure(method, description, run, span),
    );
  }

  async #measure<R>(
    method: string,
    description: CallDescription<R>,
    run: (attempts: AttemptTelemetry | undefined) => Promise<R>,
    span: SpanLike | undefined,
  ): Promise<R> {
    const started = performance.now();
    // A call that sends nothing itself (getMany) has no attempts to tell of.
    const attempts = description.route
      ? new Attempts(method, span, this.#instruments, this.#quota, this.#server)
      : undefined;
    const metric: TelemetryAttributes = { 'scholarly_metrics.method': method, ...this.#server };
    try {
      const result = await run(attempts);
      // Read here rather than through core's helper, which would split it out of the client's first load.
      const cacheStatus = (result as { cacheStatus?: CacheStatus }).cacheStatus ?? 'off';
      if (cacheStatus !== 'off') {
        metric['scholarly_metrics.cache.status'] = cacheStatus;
        span?.setAttribute('scholarly_metrics.cache.status', cacheStatus);
        this.#instruments?.cacheLookups.add(1, metric);
      }
      // A call that joined another's request has no attempt of its own: its answer tells the status.
      const status =
        attempts?.status ??
        (cacheStatus === 'miss' ? (result as { response?: Response }).response?.status : undefined);
      if (status !== undefined) span?.setAttribute('http.response.status_code', status);
      if (description.summarize && span) {
        for (const [key, value] of Object.entries(description.summarize(result)))
          span.setAttribute(key, value);
      }
      return result;
    } catch (error) {
      if (this.#parts.stoppedByWalk(error)) {
        // A page requested ahead of a walk its consumer stopped: dropped, not failed.
        span?.setAttribute('scholarly_metrics.walk.stopped', true);
        metric['scholarly_metrics.walk.stopped'] = true;
        throw error;
      }
      const type = errorType(error, this.#client.secret, this.#parts);
      metric['error.type'] = type;
      if (attempts?.status !== undefined) span?.setAttribute('http.response.status_code', attempts.status);
      span?.setAttribute('error.type', type);
      if (type === 'QuotaUnavailableError') this.#instruments?.quotaUnavailable.add(1, this.#quota);
      span?.setStatus({ code: errorStatus, message: statusMessage(error, this.#client.secret, this.#parts) });
      throw error;
    } finally {
      if (attempts) attempts.end();
      span?.end();
      this.#instruments?.duration.record((performance.now() - started) / 1000, metric);
    }
  }
}

/** One call's attempts, as the transport tells of them. */
class Attempts implements AttemptTelemetry {
  status: number | undefined;
  #count = 0;
  #waitedMs = 0;
  readonly #method: string;
  readonly #span: SpanLike | undefined;
  readonly #instruments: ClientInstruments | undefined;
  readonly #quota: TelemetryAttributes;
  readonly #server: TelemetryAttributes;
  /** Attempts handed to the quota and not yet let through: the waiting gauge's share of this call. */
  #waiting = 0;
  /** When each attempt still waiting for the quota was handed to it: end() records their waits. */
  readonly #queued = new Set<{ readonly at: number }>();
  /**
   * The call is over. A request the cache shares among callers runs with the first caller's
   * attempts, and goes on after that caller left (an abort) while others wait for it.
   */
  #ended = false;

  constructor(
    method: string,
    span: SpanLike | undefined,
    instruments: ClientInstruments | undefined,
    quota: TelemetryAttributes,
    server: TelemetryAttributes,
  ) {
    this.#method = method;
    this.#span = span;
    this.#instruments = instruments;
    this.#quota = quota;
    this.#server = server;
  }

  inTurn<R>(send: () => Promise<R>): () => Promise<R> {
    const queued = { at: performance.now() };
    // Once the call is over, end() has settled its share of the waiting gauge (and nothing would
    // take off an attempt the quota then refused): its attempts are left out of it.
    this.#countWaiting(1);
    this.#queued.add(queued);
    return () => {
      this.#count++;
      // The span shows the final attempt's status: none if it gets no answer, whatever came before.
      this.status = undefined;
      // Recorded by end() if the call was over first (a request the cache shares goes on after it).
      if (this.#queued.delete(queued)) this.#waited(performance.now() - queued.at);
      this.#countWaiting(-1);
      this.#gauge('quotaInFlight', 1);
      const answered = () => this.#gauge('quotaInFlight', -1);
      try {
        const sent = send();
        sent.then(answered, answered);
        return sent;
      } catch (error) {
        answered();
        throw error;
      }
    };
  }

  /** An attempt's wait for its place, onto the call's total and the quota-wait histogram. */
  #waited(ms: number): void {
    this.#waitedMs += ms;
    this.#instruments?.quotaWait.record(ms / 1000, this.#quota);
  }

  /** Moves the waiting gauge by `change` of this call's attempts, until the call is over. */
  #countWaiting(change: number): void {
    if (this.#ended || change === 0) return;
    this.#waiting += change;
    this.#gauge('quotaWaiting', change);
  }

  #gauge(name: 'quotaWaiting' | 'quotaInFlight', change: number): void {
    this.#instruments?.[name]?.add(change, this.#quota);
  }

  answered(status: number): void {
    this.status = status;
  }

  retrying(attempt: number, delayMs: number, error: Error): void {
    const reason = retryReason(error);
    this.#span?.addEvent('retry', {
      'scholarly_metrics.retry.attempt': attempt,
      'scholarly_metrics.retry.delay': delayMs / 1000,
      'scholarly_metrics.retry.reason': reason,
    });
    this.#instruments?.retries.add(1, {
      'scholarly_metrics.method': this.#method,
      'scholarly_metrics.retry.reason': reason,
      ...this.#server,
    });
  }

  /** The call's totals onto its span: the attempts resent, and the time spent waiting for the quota. */
  end(): void {
    // Attempts the quota refused (closed, Redis down) or the caller gave up on never ran: they wait no
    // longer, and their waits, the longest, count as the others' do.
    this.#countWaiting(-this.#waiting);
    this.#ended = true;
    const waited = this.#count > 0 || this.#queued.size > 0;
    for (const queued of this.#queued) this.#waited(performance.now() - queued.at);
    this.#queued.clear();
    if (this.#count > 1) this.#span?.setAttribute('http.request.resend_count', this.#count - 1);
    if (waited) this.#span?.setAttribute('scholarly_metrics.quota.wait', this.#waitedMs / 1000);
  }
}

import type { SpanLike, TelemetryAttributes, TracerLike } from '../core/telemetry-types.js';

/*
 * The user's tracer and meter behind guards: what they throw costs a call its span or a measure,
 * never its answer. OpenTelemetry's own never throw; a custom or faulty provider may. The guards are
 * made once per span or instrument: a call pays a try, not an allocation per method.
 */

/** `result` of a provider's method, a promise's rejection handled: it would end a Node process otherwise. */
function ignoreRejection(result: unknown): void {
  if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
    (result as PromiseLike<unknown>).then(undefined, () => {});
  }
}

/** `span` with each method's throw, or rejection, ignored. */
function guardedSpan(span: SpanLike): SpanLike {
  return {
    setAttribute(key, value) {
      try {
        ignoreRejection(span.setAttribute(key, value));
      } catch {}
    },
    addEvent(name, attributes) {
      try {
        ignoreRejection(span.addEvent(name, attributes));
      } catch {}
    },
    setStatus(status) {
      try {
        ignoreRejection(span.setStatus(status));
      } catch {}
    },
    end() {
      try {
        ignoreRejection(span.end());
      } catch {}
    },
  };
}

/** What a call uses of a span when its tracer could not give one. */
const noSpan: SpanLike = { setAttribute() {}, addEvent() {}, setStatus() {}, end() {} };

/**
 * `tracer`, its spans guarded; a call whose span the tracer fails to start runs without one, once.
 * The call's own outcome is returned whatever the tracer returns or throws after it ran the call.
 */
export function guardedTracer(tracer: TracerLike): TracerLike {
  return {
    startActiveSpan(name, options, fn) {
      let started: { value: ReturnType<typeof fn> } | undefined;
      let alone = false;
      const inSpan = (span: SpanLike) => {
        // A tracer that runs it later than it returned: the call has run without a span already.
        if (alone) return undefined;
        // One that runs it twice gets the same call again, not a second request.
        started ??= { value: fn(guardedSpan(span)) as ReturnType<typeof fn> };
        return started.value;
      };
      try {
        tracer.startActiveSpan(name, options, inSpan as typeof fn);
      } catch {}
      if (started) return started.value;
      alone = true;
      return fn(noSpan) as ReturnType<typeof fn>;
    },
  };
}

/** What a histogram records or a counter adds. */
type Measure = (value: number, attributes?: TelemetryAttributes) => void;

/**
 * An instrument (a histogram's `record`, a counter's `add`) with its throw or rejection ignored; one
 * the provider gave without the method, or with one that cannot be read, measures nothing.
 */
export function guardedInstrument<T extends object>(instrument: T | undefined): T {
  const guarded: Record<'record' | 'add', Measure> = { record() {}, add() {} };
  for (const name of ['record', 'add'] as const) {
    const method = orNone(
      () => (instrument as Partial<Record<'record' | 'add', Measure>> | undefined)?.[name],
    );
    if (typeof method !== 'function') continue;
    guarded[name] = (value, attributes) => {
      try {
        ignoreRejection(method.call(instrument, value, attributes));
      } catch {}
    };
  }
  return guarded as unknown as T;
}

/** What `make` gives, or `undefined` where the user's provider throws while it is made. */
export function orNone<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

import type { SpanLike, TracerLike } from '../core/telemetry-types.js';

/*
 * The user's tracer and meter behind guards: what they throw costs a call its span or a measure,
 * never its answer. OpenTelemetry's own never throw; a custom or faulty provider may.
 */

/** `target` (a span, an instrument) whose methods ignore what they throw, and return nothing. */
export function guarded<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const member: unknown = Reflect.get(object, key);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        try {
          member.apply(object, args);
        } catch {}
      };
    },
  });
}

/** What a call uses of a span when its tracer could not give one. */
const noSpan: SpanLike = { setAttribute() {}, addEvent() {}, setStatus() {}, end() {} };

/**
 * `tracer`, its spans guarded; a call whose span the tracer fails to start runs without one (once:
 * if the tracer throws after it started the call, the call's own outcome is kept).
 */
export function guardedTracer(tracer: TracerLike): TracerLike {
  return {
    startActiveSpan(name, options, fn) {
      let started: { value: ReturnType<typeof fn> } | undefined;
      const inSpan = (span: SpanLike) => {
        started = { value: fn(guarded(span)) as ReturnType<typeof fn> };
        return started.value;
      };
      try {
        return tracer.startActiveSpan(name, options, inSpan as typeof fn);
      } catch {
        return started ? started.value : (fn(noSpan) as ReturnType<typeof fn>);
      }
    },
  };
}

/** What `make` gives, or `undefined` where the user's provider throws while it is made. */
export function orNone<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

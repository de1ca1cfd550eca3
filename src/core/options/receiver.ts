import { ConfigurationError } from '../errors.js';
import { checkFunction, checkInteger, maxTimerMs } from './checks.js';

/** The options of a webhook receiver this module checks (the public type is the webhooks entry's). */
export interface ReceiverSettings {
  readonly maxBodyBytes?: number | undefined;
  readonly bodyTimeoutMs?: number | undefined;
  readonly onError?: ((error: unknown) => void) | undefined;
  readonly cache?: { apply(event: never): unknown } | undefined;
}

/** A receiver's callback and options, checked when it is created, with their defaults applied. */
export function resolveReceiverOptions<Callback, Cache>(
  onEvent: Callback,
  options: (ReceiverSettings & { cache?: Cache }) | undefined,
): {
  onEvent: Callback;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  onError: ((error: unknown) => void) | undefined;
  cache: Cache | undefined;
} {
  if (typeof onEvent !== 'function') {
    throw new ConfigurationError('onEvent', `onEvent must be a function, got ${typeof onEvent}`);
  }
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new ConfigurationError('options', 'the receiver options must be an object');
  }
  const cache = options?.cache;
  if (cache !== undefined && typeof (cache as { apply?: unknown } | null)?.apply !== 'function') {
    throw new ConfigurationError('cache', 'cache must have an apply(event) method, such as client.cache');
  }
  return {
    onEvent,
    maxBodyBytes: checkInteger('maxBodyBytes', options?.maxBodyBytes, 1, Number.MAX_SAFE_INTEGER) ?? 65_536,
    // An integer: the body's deadline is one timer, and setTimeout's limit bounds it.
    bodyTimeoutMs: checkInteger('bodyTimeoutMs', options?.bodyTimeoutMs, 1, maxTimerMs) ?? 10_000,
    onError: checkFunction<(error: unknown) => void>('onError', options?.onError),
    cache,
  };
}

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. Given `wakers`, it
 * also resolves early when one of them is called: it adds its own waker there and removes it after.
 */
export function sleep(ms: number, signal: AbortSignal | undefined, wakers?: Set<() => void>): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const end = () => {
      clearTimeout(timer);
      wakers?.delete(wake);
      signal?.removeEventListener('abort', onAbort);
    };
    const wake = () => {
      end();
      resolve();
    };
    const onAbort = () => {
      end();
      reject(signal?.reason);
    };
    const timer = setTimeout(wake, ms);
    wakers?.add(wake);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const ignore = () => {};

/**
 * The reason a walk aborts the pages it requested ahead once its consumer stops it (a `break`, a
 * limit reached): a stop asked for, not a failure, which telemetry must not count as one.
 */
export const walkStopped = /* @__PURE__ */ new DOMException(
  'the walk was stopped by its consumer',
  'AbortError',
);

/** Whether `error` is what a walk's own stop made of a request it had started ahead. */
export function stoppedByWalk(error: unknown): boolean {
  return error === walkStopped || (error instanceof Error && error.cause === walkStopped);
}

/**
 * The time limit and the cancellation of one attempt (or any step with a deadline), for one controller
 * and one timer. `signal` goes to `fetch`; {@link Deadline.race} also settles each step at the deadline
 * by itself, so that a `fetch` that ignores its signal cannot outlive the timeout. One listener on the
 * caller's signal, removed by {@link Deadline.clear}, where `AbortSignal.any` would stay attached to a
 * long-lived signal until garbage collection.
 */
export class Deadline {
  /** Aborts when the time is up or the caller's signal aborts. */
  readonly signal: AbortSignal;
  /** Whether the time ran out (as opposed to the caller aborting). */
  timedOut = false;
  readonly #controller: AbortController;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #user: AbortSignal | undefined;
  readonly #onUserAbort: (() => void) | undefined;
  /** Rejects the step being raced, if any. */
  #reject: ((reason: unknown) => void) | undefined;

  constructor(ms: number, user: AbortSignal | undefined) {
    const controller = new AbortController();
    this.#controller = controller;
    this.signal = controller.signal;
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.#stop(new DOMException(`The attempt ran past its ${ms} ms timeout`, 'TimeoutError'));
    }, ms);
    if (user === undefined) return;
    if (user.aborted) {
      controller.abort(user.reason);
      return;
    }
    this.#user = user;
    this.#onUserAbort = () => this.#stop(user.reason);
    user.addEventListener('abort', this.#onUserAbort, { once: true });
  }

  /** Settles with `promise`, or rejects with the reason of the abort as soon as there is one. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.signal.aborted) {
      promise.catch(ignore);
      return Promise.reject(this.signal.reason);
    }
    return new Promise<T>((resolve, reject) => {
      this.#reject = reject;
      promise.then(resolve, reject);
    });
  }

  /**
   * Ends the attempt: the timer, the listener on the caller's signal and the last step are released.
   * Letting go of the step matters: through its `reject`, its result would stay reachable from the
   * long-lived signal a walk passes, and survive every young-generation collection.
   */
  clear(): void {
    clearTimeout(this.#timer);
    if (this.#onUserAbort) this.#user?.removeEventListener('abort', this.#onUserAbort);
    this.#reject = undefined;
  }

  #stop(reason: unknown): void {
    this.#controller.abort(reason);
    this.#reject?.(reason);
  }
}

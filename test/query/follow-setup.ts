// What the follow tests share: a stand-in for the QueryClient (follow only hands it on) and an
// EventSource the test drives.
import type { EventSourceLike } from '../../src/query/follow.js';

export const queryClient = { name: 'a QueryClient' };

/** An EventSource whose events the test fires. */
export class FakeEventSource implements EventSourceLike {
  readyState = 0;
  closed = false;
  readonly #listeners = new Map<string, ((event: { data?: unknown }) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: { data?: unknown }) => void) {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: { data?: unknown }) {
    if (type === 'open') this.readyState = 1;
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
  fail(readyState: number) {
    this.readyState = readyState;
    this.emit('error', {});
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
}

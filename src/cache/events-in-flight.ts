import type { ScoreEventView } from '../core/endpoint.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import { showsEvent } from './events.js';

/**
 * How many events one request in flight remembers; past that its answer counts as contradicted.
 * It bounds the memory a flood of events can take while a request is slow.
 */
export const maxEventsInFlight = 10_000;

/**
 * The `score_updated` events that arrived while one request was in flight, judged against its answer
 * once it lands: the answer is kept only if none contradicts it, and a caller who joined the request
 * after a contradicting event sends another. An event that the answer shows costs nothing.
 */
export class EventsInFlight {
  readonly #view: ScoreEventView;
  readonly #sentAt: number;
  readonly #events: ScoreUpdatedEvent[] = [];
  #flooded = false;
  /** How many events have been judged against the answer, and the first that contradicts it. */
  #judged = 0;
  #firstContradicting = Number.POSITIVE_INFINITY;

  /** For a request whose answer shows scores as `view` says, sent at `sentAt` (ms since the epoch). */
  constructor(view: ScoreEventView, sentAt: number) {
    this.#view = view;
    this.#sentAt = sentAt;
  }

  /** How many events arrived so far: a joining caller remembers it. */
  get count(): number {
    return this.#events.length + (this.#flooded ? 1 : 0);
  }

  add(event: ScoreUpdatedEvent): void {
    if (this.#events.length < maxEventsInFlight) this.#events.push(event);
    else this.#flooded = true;
  }

  /** Whether `answer` (the request's data) may be kept: no event contradicts it. */
  allowsKeeping(answer: unknown): boolean {
    return !this.contradicts(answer);
  }

  /** Whether `answer` (the request's data) is contradicted by one of the first `upTo` events. */
  contradicts(answer: unknown, upTo = this.count): boolean {
    const known = Math.min(upTo, this.#events.length);
    for (; this.#judged < known && this.#firstContradicting === Number.POSITIVE_INFINITY; this.#judged++) {
      if (!showsEvent(this.#view, this.#sentAt, answer, this.#events[this.#judged]!)) {
        this.#firstContradicting = this.#judged;
      }
    }
    return this.#firstContradicting < known || (this.#flooded && upTo > this.#events.length);
  }
}

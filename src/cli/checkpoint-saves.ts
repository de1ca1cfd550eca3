/**
 * When a harvest's checkpoint reaches its file: as pages come, at most once every `everyMs`; pages
 * that came within that time are saved once it is over, whether or not another page comes by then (a
 * walk the quota holds for a minute keeps its checkpoint current); and whenever the harvest asks
 * (before a rate-limit wait, at the end).
 */
import { type Checkpoint, writeCheckpoint } from './checkpoint.js';
import type { Sink } from './output/sink.js';

export class CheckpointSaves {
  readonly #file: string | undefined;
  readonly #sink: Sink;
  readonly #now: () => number;
  readonly #everyMs: number;
  #unsaved: Checkpoint | undefined;
  #savedAt = Number.NEGATIVE_INFINITY;
  #later: ReturnType<typeof setTimeout> | undefined;

  /** No `file`: a harvest without a checkpoint, whose saves do nothing. */
  constructor(file: string | undefined, sink: Sink, now: () => number, everyMs: number) {
    this.#file = file;
    this.#sink = sink;
    this.#now = now;
    this.#everyMs = everyMs;
  }

  /** The checkpoint noted and not saved yet, if any. */
  get unsaved(): Checkpoint | undefined {
    return this.#unsaved;
  }

  /** Saves `checkpoint` now. */
  async save(checkpoint: Checkpoint): Promise<void> {
    if (this.#file === undefined) return;
    this.#unsaved = undefined;
    this.#savedAt = this.#now();
    // The bytes the checkpoint counts are in the file before it says so.
    this.#sink.flush();
    await writeCheckpoint(this.#file, checkpoint);
  }

  /** Notes `checkpoint`: saved now if the last save is `everyMs` old, else when it is. */
  async note(checkpoint: Checkpoint): Promise<void> {
    this.#unsaved = checkpoint;
    const since = this.#now() - this.#savedAt;
    if (since >= this.#everyMs) return this.save(checkpoint);
    this.#later ??= setTimeout(() => this.#saveLater(), this.#everyMs - since);
    this.#later.unref?.();
  }

  /** Saves no more on its own: the harvest has ended. */
  stop(): void {
    clearTimeout(this.#later);
    this.#later = undefined;
  }

  #saveLater(): void {
    this.#later = undefined;
    const checkpoint = this.#unsaved;
    // A failure leaves it for the next page, or for the harvest's close(), which reports one.
    if (checkpoint !== undefined) this.save(checkpoint).catch(() => (this.#unsaved ??= checkpoint));
  }
}

/**
 * When a harvest's checkpoint reaches its file: as pages come, at most once every `everyMs`; pages
 * that came within that time are saved once it is over, whether or not another page comes by then (a
 * walk the quota holds for a minute keeps its checkpoint current); and whenever the harvest asks
 * (before a rate-limit wait, at the end).
 */
import { type Checkpoint, writeCheckpoint } from './checkpoint.js';
import type { Sink } from './output/sink.js';

/** Puts a checkpoint in its file (`writeCheckpoint`, or a test's). */
type Write = (file: string, checkpoint: Checkpoint) => Promise<void>;

export class CheckpointSaves {
  readonly #file: string | undefined;
  readonly #sink: Sink;
  readonly #now: () => number;
  readonly #everyMs: number;
  readonly #write: Write;
  #unsaved: Checkpoint | undefined;
  #savedAt = Number.NEGATIVE_INFINITY;
  #later: ReturnType<typeof setTimeout> | undefined;
  /** The write under way, if any: the next one waits for it. */
  #writing: Promise<unknown> = Promise.resolve();

  /** No `file`: a harvest without a checkpoint, whose saves do nothing. */
  constructor(
    file: string | undefined,
    sink: Sink,
    now: () => number,
    everyMs: number,
    write: Write = writeCheckpoint,
  ) {
    this.#file = file;
    this.#sink = sink;
    this.#now = now;
    this.#everyMs = everyMs;
    this.#write = write;
  }

  /** The checkpoint noted and not saved yet, if any. */
  get unsaved(): Checkpoint | undefined {
    return this.#unsaved;
  }

  /** Saves `checkpoint` now. */
  async save(checkpoint: Checkpoint): Promise<void> {
    const file = this.#file;
    if (file === undefined) return;
    this.#unsaved = undefined;
    this.#savedAt = this.#now();
    // The bytes the checkpoint counts are in the file before it says so.
    this.#sink.flush();
    // One write at a time, in the order saved: an earlier write that is slower (the interval's, under
    // way as the harvest saves its end) must not land after a later one, taking the checkpoint back.
    const written = this.#writing.then(() => this.#write(file, checkpoint));
    this.#writing = written.catch(() => {});
    await written;
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

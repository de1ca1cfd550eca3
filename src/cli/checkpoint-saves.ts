/**
 * When a harvest's checkpoint reaches its file: as pages come, at most once every `everyMs`; pages
 * that came within that time are saved once it is over, whether or not another page comes by then (a
 * walk the quota holds for a minute keeps its checkpoint current); and whenever the harvest asks
 * (before a rate-limit wait, at the end).
 */
import type { Checkpoint } from './checkpoint.js';
import { writeCheckpoint } from './checkpoint-file.js';
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
  /** The writes under way, in order, their failures ignored: the next one waits for them. */
  #writing: Promise<unknown> = Promise.resolve();
  /** The last checkpoint noted or saved: a failed save is noted again only while it is the last. */
  #latest: Checkpoint | undefined;

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

  /** Saves `checkpoint` now; a failure is the caller's to report. */
  async save(checkpoint: Checkpoint): Promise<void> {
    const file = this.#file;
    if (file === undefined) return;
    this.#latest = checkpoint;
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

  /**
   * Saves the checkpoint noted and not saved, if any, where no caller waits for it (the interval's
   * save, the one before a rate-limit wait). A failure notes it again, for the next page or the
   * harvest's close() to save and report, unless a later one was noted or saved meanwhile: it would
   * take the checkpoint back.
   */
  async saveNoted(): Promise<void> {
    const checkpoint = this.#unsaved;
    if (checkpoint === undefined) return;
    await this.save(checkpoint).catch(() => {
      if (this.#latest === checkpoint) this.#unsaved ??= checkpoint;
    });
  }

  /** Resolves once every write asked for has landed or failed. */
  async settled(): Promise<void> {
    await this.#writing;
  }

  /** Notes `checkpoint`: saved now if the last save is `everyMs` old, else when it is. */
  async note(checkpoint: Checkpoint): Promise<void> {
    this.#latest = checkpoint;
    this.#unsaved = checkpoint;
    const since = this.#now() - this.#savedAt;
    // A clock set back (since < 0) would put the next save as far off: it is due at once.
    if (since >= this.#everyMs || since < 0) return this.save(checkpoint);
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
    void this.saveNoted();
  }
}

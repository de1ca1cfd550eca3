/**
 * The secrets of one run (the credentials of a Redis URL given to it), cut from every line the run
 * writes to stderr by the SDK's redactor: the run's stderr is wrapped once, so no line can forget them.
 */
import { Writable } from 'node:stream';
import { redacted, redactSecrets } from '../core/redact.js';
import type { OutputStream } from './io.js';

export class Secrets {
  readonly #values = new Set<string>();

  /** Masks `value` (and its percent-decoded form) from now on. */
  add(value: string): void {
    if (value === '') return;
    this.#values.add(value);
    try {
      this.#values.add(decodeURIComponent(value));
    } catch {
      // A malformed escape: the raw form is masked already.
    }
  }

  /**
   * `text` with every secret, however encoded, replaced by `[redacted]`. What is `[redacted]` already
   * (the SDK's own lines are cut before they reach stderr) stays whole: a short secret must not cut
   * into the word.
   */
  redact(text: string): string {
    const values = [...this.#values];
    return text
      .split(redacted)
      .map((part) => redactSecrets(part, values))
      .join(redacted);
  }
}

/** `stream`, every write through `secrets.redact`; its terminal facts are the stream's. */
export function redactingStream(stream: OutputStream, secrets: Secrets): OutputStream {
  const wrapper = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      if (stream.write(secrets.redact(text))) callback();
      else stream.once('drain', () => callback());
    },
  });
  Object.defineProperties(wrapper, {
    isTTY: { get: () => stream.isTTY },
    columns: { get: () => stream.columns },
  });
  return wrapper as OutputStream;
}

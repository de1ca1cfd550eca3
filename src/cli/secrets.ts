/**
 * The secrets of one run (the credentials of a Redis URL given to it), cut from every line the run
 * writes to stderr by the SDK's redactor: the run's stderr is wrapped once, so no line can forget them.
 * Also how a message quotes a URL ({@link maskedUrl}): a Redis URL and an OTLP endpoint alike.
 */
import { Writable } from 'node:stream';
import { cut } from '../core/escape.js';
import { redacted, redactSecrets } from '../core/redact.js';
import type { OutputStream } from './io.js';
import { escapeUnit, terminalSafe } from './output/escape.js';
import { type Sink, wrapSink } from './output/sink.js';

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

/**
 * `value` (records as the API gave them) with every string that holds a secret redacted; `value`
 * itself when none does, as nearly always. A server that echoes the key into an answer must not put
 * it in a file, as the SDK's cache refuses to keep such an answer.
 */
export function withoutSecrets<T>(value: T, secrets: Secrets): T {
  const text = textOf(value);
  return secrets.redact(text) === text ? value : (redactedCopy(value, secrets) as T);
}

/**
 * What a look for secrets reads of `value`: a list of records as their string fields, a line each, and
 * each nested value as JSON text (its keys too, which a file may hold); anything else as JSON text.
 * A record's own field names are never written as data. Built for a fraction of what JSON.stringify
 * costs a page of records.
 */
function textOf(value: unknown): string {
  if (!Array.isArray(value)) return JSON.stringify(value) ?? '';
  let text = '';
  for (const record of value) {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      text += `${JSON.stringify(record)}\n`;
      continue;
    }
    for (const key in record) {
      const item = (record as Record<string, unknown>)[key];
      text +=
        typeof item === 'string'
          ? item
          : typeof item === 'object' && item !== null
            ? JSON.stringify(item)
            : '';
      text += '\n';
    }
  }
  return text;
}

/** A copy of parsed JSON `value`, each string (keys too) through `secrets.redact`. */
function redactedCopy(value: unknown, secrets: Secrets): unknown {
  if (typeof value === 'string') return secrets.redact(value);
  if (Array.isArray(value)) return value.map((item) => redactedCopy(item, secrets));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [secrets.redact(key), redactedCopy(item, secrets)]),
  );
}

/**
 * `sink`, each text written through `secrets.redact`: no format, view or terminal table writes a
 * secret an answer echoed. Bytes (a Parquet row group) are its writer's to clean, record by record.
 */
export function redactingSink(sink: Sink, secrets: Secrets): Sink {
  return wrapSink(sink, {
    write: (chunk) => sink.write(typeof chunk === 'string' ? secrets.redact(chunk) : chunk),
  });
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

/** How much of a URL a message quotes, escapes included. */
const maxQuotedLength = 120;

/**
 * A URL as a message may quote it: its credentials, every query value and the fragment masked as
 * `[redacted]`, the characters a terminal acts on escaped as `terminalSafe` does, cut at 120
 * characters. A query may carry a password (`?password=`, `?api_key=`) as well as the user part may.
 *
 * A parsed `URL` keeps its user name beside a password (`redis://user:[redacted]@host`), which tells
 * which account without being the secret; a user name alone is how a password is written without a
 * user (`redis://PASSWORD@host`), so it is masked. Text that may not parse has no boundary to trust:
 * whatever comes before its last `@` (after the scheme) is masked whole. So is a URL with no `//`
 * after its scheme (`user:password@host` parses with the scheme `user:`), whose credentials are in
 * its path.
 */
export function maskedUrl(value: URL | string): string {
  const text = typeof value === 'string' ? value : value.href;
  const [place, tail] =
    typeof value !== 'string' && text.startsWith(`${value.protocol}//`)
      ? placeOfUrl(value)
      : placeOfText(text);
  const query = tail.replace(/#.*$/s, `#${redacted}`).replace(/([?&;][^=&;#?]*=)[^&;#]*/g, `$1${redacted}`);
  return cutQuoted(terminalSafe(place + query));
}

/** Scheme, credentials masked, host and path of a parsed URL; then its query and fragment. */
function placeOfUrl(url: URL): [string, string] {
  const credentials =
    url.password === '' && url.username === ''
      ? ''
      : `${url.password === '' ? redacted : `${url.username}:${redacted}`}@`;
  // Written out rather than set on the URL, which would percent-encode the brackets.
  return [`${url.protocol}//${credentials}${url.host}${url.pathname}`, `${url.search}${url.hash}`];
}

/** What comes before the query of `value`, all before its last `@` masked; then the rest. */
function placeOfText(value: string): [string, string] {
  const queryAt = value.search(/[?#]/);
  const head = queryAt === -1 ? value : value.slice(0, queryAt);
  const tail = queryAt === -1 ? '' : value.slice(queryAt);
  const at = head.lastIndexOf('@');
  // A scheme has its slashes (`http:/`, `https://`): `user:password@host` has none, and is masked whole.
  const scheme = /^[A-Za-z][\w+.-]*:\/+/.exec(head)?.[0] ?? '';
  return [at === -1 ? head : `${scheme}${redacted}${head.slice(at)}`, tail];
}

/** `text` cut to {@link maxQuotedLength} and `…`, an escape never split (nor, by `cut`, a surrogate pair). */
function cutQuoted(text: string): string {
  if (text.length <= maxQuotedLength) return text;
  let end = maxQuotedLength;
  const backslash = text.lastIndexOf('\\', end - 1);
  if (backslash !== -1) {
    escapeUnit.lastIndex = backslash;
    const escaped = escapeUnit.exec(text);
    if (escaped && backslash + escaped[0].length > end) end = backslash;
  }
  return cut(text, end);
}

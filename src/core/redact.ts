import { maxBodyDepth } from './depth.js';
import { type Mentions, mentionsOf } from './redact-match.js';

/**
 * Removes a secret from whatever an error, a log line or the command line's stderr is about to
 * carry; {@link redacted} is the one word for what was cut. Servers and proxies do echo credentials
 * in error bodies, and runtimes echo header values in their own error messages.
 *
 * The secret is found however it was written, upper- or lower-cased too: as is, percent-encoded
 * (or twice), as a JSON `\uXXXX` or `\/` escape, as an HTML character reference, or any mix of these
 * character by character, so that one encoded character cannot hide the rest; and base64-encoded, alone or
 * within a longer encoded text (`Bearer <key>` in an echoed header, `user:<key>` of Basic auth). A
 * quoted value cut short keeps a long enough start of the secret, which goes too.
 */
export const redacted = '[redacted]';

/** The start of a secret that is still the secret's, when a message cuts it short. */
const minimumPrefix = 12;

/** Named references an HTML page may use for the visible ASCII characters a key can hold. */
const entities: Record<string, string> = {
  '&': 'amp',
  '<': 'lt',
  '>': 'gt',
  '"': 'quot',
  "'": 'apos',
  '/': 'sol',
  '=': 'equals',
  '+': 'plus',
  '#': 'num',
  '%': 'percnt',
  ':': 'colon',
};

/** A backslash as written in a body, or percent-encoded in a URL (either case, or twice). */
const backslash = '(?:\\\\|%(?:25)?5c)';

/** `text` as a regular expression that matches it literally. */
const literally = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** Every way one character may be written in a body, a URL or a message, as a regular expression. */
function characterPattern(character: string): string {
  const code = character.charCodeAt(0);
  // The expressions ignore case: a hex escape is written either way, as a server may echo the key.
  const hex = code.toString(16).padStart(2, '0');
  // Escapes first, the character as is last: a regular expression takes the first way that fits,
  // and `%` read as itself would leave `%25` (the percent-encoded `%`) half matched.
  // A backslash escape may be escaped again (a JSON string inside a JSON string);
  // the run is bounded, so that a body of backslashes costs a bounded look at each position.
  const ways = [`%(?:25)?${hex}`, `${backslash}{1,3}u00${hex}`, `&#0*${code};?`, `&#x0*${hex};?`];
  const entity = entities[character];
  if (entity) ways.push(`&${entity};`);
  if (character === '/' || character === '"' || character === '\\') {
    // A JSON escape that a URL then percent-encoded, in part (`\%22`) or whole (`%5C%22`).
    ways.push(`${backslash}{1,3}(?:\\${character}|%(?:25)?${hex})`);
  }
  if (character === ' ') ways.push('\\+');
  ways.push(literally(character));
  return `(?:${ways.join('|')})`;
}

/** The shortest run of base64 characters taken as the secret's: 48 bits of it, which no text holds by chance. */
const minimumBase64 = 8;

/**
 * The base64 characters that encode the secret alone, wherever it sits in the encoded text: base64
 * works in groups of three bytes, so the secret (`<key>`, `Bearer <key>`, `user:<key>`) starts at one
 * of three offsets within a group, and the characters between the first and the last the text around
 * it touches are the same whatever that text is. Each in the standard and the URL alphabet.
 */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms = new Set<string>();
  for (const offset of [0, 1, 2]) {
    const binary = String.fromCharCode(...new Array<number>(offset).fill(0), ...bytes);
    const encoded = btoa(binary);
    const core = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor((binary.length * 8) / 6));
    if (core.length < minimumBase64) continue;
    forms.add(core);
    forms.add(core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...forms];
}

/** The finder of the last secrets asked for, kept for the next call with the same ones. */
let cached: { name: string; mentions: Mentions; starts: RegExp } | undefined;

/** Characters that begin an escape (percent, JSON, HTML): without them, every character is as is. */
const escapeStarts = /[%\\&]/;

/**
 * Whether `text` may hold one of the secrets: a cheap look before the matcher. A mention holds at
 * least the first {@link minimumPrefix} characters of a form (all of a shorter one); in a text with
 * no escape, they are written as they are (a space perhaps as `+`), so a substring search rules most
 * texts out.
 */
function mayMention(text: string, starts: RegExp): boolean {
  return escapeStarts.test(text) || starts.test(text);
}

/**
 * The secrets, and their base64 forms, written any of those ways, whole; else, for a long one, a
 * start of it of at least {@link minimumPrefix} characters. The whole forms come first, the longest
 * secret's first: one is found however its characters mix the ways; and a secret inside another
 * leaves no part behind.
 */
function patternFor(secrets: readonly string[]): { mentions: Mentions; starts: RegExp } {
  const name = secrets.join('\0');
  if (cached?.name === name) return cached;
  const longestFirst = [...secrets].sort((a, b) => b.length - a.length);
  const literal = longestFirst.flatMap((secret) => [secret, ...base64Forms(secret)]);
  const mentions = mentionsOf(literal, characterPattern, minimumPrefix);
  const prefixes = literal.map((form) => form.slice(0, minimumPrefix));
  const literalStarts = [...prefixes, ...prefixes.map((prefix) => prefix.replaceAll(' ', '+'))];
  // One expression for all the starts: the engine scans the text once, where a search per start scans it for each.
  cached = { name, mentions, starts: new RegExp([...new Set(literalStarts)].map(literally).join('|'), 'i') };
  return cached;
}

/** What is cut: a key, several (a call's own beside its client's), or nothing. */
export type Secret = string | readonly string[] | null;

/** Whether `text` holds the secret in any of the ways {@link redactText} removes. */
export function mentionsSecret(text: string, secret: Secret): boolean {
  if (!secret) return false;
  const { mentions, starts } = patternFor([secret].flat());
  return mayMention(text, starts) && mentions(text, 0) !== undefined;
}

/** `text` with the secret, however written, replaced by {@link redacted}. */
export function redactText(text: string, secret: Secret): string {
  if (!secret) return text;
  return redactSecrets(text, [secret].flat());
}

/** `text` with each of the secrets (none empty), however written, replaced by {@link redacted}, in one pass. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const { mentions, starts } = patternFor(secrets);
  if (!mayMention(text, starts)) return text;
  let out = '';
  let done = 0;
  for (let found = mentions(text, 0); found !== undefined; found = mentions(text, found.end)) {
    out += text.slice(done, found.start) + redacted;
    done = found.end;
  }
  return out + text.slice(done);
}

/** What stands in a redacted copy for a container nested deeper than a body may be. */
const tooDeep = '[nested too deep]';

/**
 * A deep copy of a parsed JSON value with the secret replaced in every string, keys included. A
 * container nested past {@link maxBodyDepth} levels (the value being level 1) is cut, so the copy
 * recurses no deeper than that, however deep the value.
 */
export function redactValue(value: unknown, secret: Secret): unknown {
  if (!secret) return value;
  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return redactText(item, secret);
    if (item === null || typeof item !== 'object') return item;
    if (depth >= maxBodyDepth) return tooDeep;
    if (Array.isArray(item)) {
      const list: unknown[] = new Array(item.length);
      for (let index = 0; index < item.length; index++) list[index] = copy(item[index], depth + 1);
      return list;
    }
    const record: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(item)) {
      const clean = redactText(name, secret);
      // Two keys the secret made one keep the first one's value.
      if (Object.hasOwn(record, clean)) continue;
      // Defined, not assigned: a `__proto__` key stays a plain property of the copy.
      Object.defineProperty(record, clean, {
        value: copy(entry, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return record;
  };
  return copy(value, 0);
}

export function redactHeaders(headers: Headers, secret: Secret): Headers {
  if (!secret) return headers;
  let leaks = false;
  headers.forEach((value, name) => {
    leaks ||= mentionsSecret(value, secret) || mentionsSecret(name, secret);
  });
  if (!leaks) return headers;
  const clean = new Headers();
  for (const [name, value] of headers) {
    // A header name cannot hold "[redacted]"; one that carries the secret is dropped.
    if (!mentionsSecret(name, secret)) clean.append(name, redactText(value, secret));
  }
  return clean;
}

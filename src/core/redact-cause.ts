import { describeChain, maxCauseDepth } from './cause-reason.js';
import type { redactHeaders, redactText, Secret } from './redact.js';

/**
 * The redactor's two functions, handed over by the loader (clean-cause.ts) rather than imported: this
 * module is loaded on demand, and importing the first load's redactor would make a splitting bundler
 * cut it out of the first load into a chunk of its own.
 */
export interface Redactor {
  readonly redactText: typeof redactText;
  readonly redactHeaders: typeof redactHeaders;
}

/**
 * An error's `cause` chain cleaned of a secret. A runtime's or a hook's error may carry the secret
 * beyond its message: in its own properties, in a `Request` or `Headers` it holds (the Authorization
 * header), in a URL; `util.inspect` and error trackers show all of those. What mentions the secret is
 * replaced by a cleaned copy: errors by plain `Error`s with the same name, message, stack and
 * properties; `Headers`, `Request`, `Response`, form fields and URLs by copies without it; a function
 * with properties of its own by a stand-in holding them cleaned; bytes by their text, cleaned. What
 * the walk cannot read (a Promise's value) is left out.
 */
export function redactCause(error: unknown, secret: Secret, redactor: Redactor): unknown {
  if (!secret) return error;
  const scrubber = new Scrubber(secret, redactor);
  const clean = scrubber.copy(error, 0);
  return scrubber.changed ? clean : error;
}

/**
 * A request's failure: its cause cleaned of the secret, and the reason the chain gives, described
 * here so that the description loads with the first failure too.
 */
export function explainCause(error: unknown, secret: Secret, redactor: Redactor) {
  const cause = redactCause(error, secret, redactor);
  return { cause, reason: describeChain(cause) };
}

/** How many values the walk visits at most: what a hostile error holds is not the SDK's to traverse. */
const maxValues = 2_000;
const cut = '[left out]';
/** The key of Node's `util.inspect` hook: a class's own way of showing itself. */
const showsItself = Symbol.for('nodejs.util.inspect.custom');
/**
 * What holds values no script can read without changing it (a Promise's, a weak collection's, an
 * iterator's), while `util.inspect` shows them.
 */
const unreadable = /^\[object (Promise|Weak(Map|Set)|(Map|Set) Iterator)\]$/;
/** The own properties every function has (a sloppy-mode one, two more), which a bare function keeps. */
const functionKeys: PropertyKey[] = ['length', 'name', 'prototype', 'arguments', 'caller'];
/** The methods whatever shows a value calls: their own code may hold anything, the secret included. */
const shownBy: PropertyKey[] = ['toJSON', showsItself];

class Scrubber {
  changed = false;
  #visited = 0;
  readonly #secret: NonNullable<Secret>;
  readonly #copies = new Map<object, unknown>();
  readonly #redactor: Redactor;

  constructor(secret: NonNullable<Secret>, redactor: Redactor) {
    this.#secret = secret;
    this.#redactor = redactor;
  }

  text(value: string): string {
    const clean = this.#redactor.redactText(value, this.#secret);
    if (clean !== value) this.changed = true;
    return clean;
  }

  copy(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'symbol') {
      // inspect shows a symbol's description, as a key or a value.
      const { description } = value;
      const clean = description && this.text(description);
      return clean !== description ? Symbol(clean) : value;
    }
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
    const known = this.#copies.get(value);
    if (known !== undefined) return known;
    if (depth > maxCauseDepth || ++this.#visited > maxValues) {
      this.changed = true;
      return cut;
    }
    try {
      return this.#object(value, depth);
    } catch {
      // A getter, a proxy or a revoked object that throws: nothing of it is kept.
      this.changed = true;
      return cut;
    }
  }

  #object(value: object, depth: number): unknown {
    if (typeof value === 'function') return this.#function(value, depth);
    if (value instanceof Promise || unreadable.test(Object.prototype.toString.call(value))) {
      // Whether it holds the secret cannot be known: it is left out, and, as for a getter, the chain
      // is copied for it even when nothing else in it mentions the secret.
      this.changed = true;
      return cut;
    }
    if (typeof FormData !== 'undefined' && value instanceof FormData) return this.#form(value, depth);
    if (typeof Headers !== 'undefined' && value instanceof Headers) return this.#headers(value);
    if (typeof Request !== 'undefined' && value instanceof Request) return this.#request(value);
    if (typeof Response !== 'undefined' && value instanceof Response) return this.#response(value);
    if (value instanceof URL) {
      const href = this.text(value.href);
      return href === value.href ? value : href;
    }
    if (value instanceof Error) return this.#error(value, depth);
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return this.#bytes(value);
    const copy = this.#blank(value);
    this.#copies.set(value, copy);
    if (copy instanceof Map)
      for (const [key, item] of (value as Map<unknown, unknown>).entries())
        copy.set(this.copy(key, depth + 1), this.copy(item, depth + 1));
    else if (copy instanceof Set)
      for (const [, item] of (value as Set<unknown>).entries()) copy.add(this.copy(item, depth + 1));
    this.#properties(value, copy as never, depth);
    return copy;
  }

  /**
   * The empty copy that `value`'s own properties go into. A prototype alone gives no internal slots,
   * and a copy whose methods look for them throws where it is shown; so a boxed string, a Map, a Set
   * (their entries copied by the caller), a Date, form fields and a pattern are copied as their kind.
   */
  #blank(value: object): object {
    if (value instanceof String) return Object(this.text(String(value)));
    if (value instanceof Map) return new Map();
    if (value instanceof Set) return new Set();
    if (Array.isArray(value)) return [];
    if (value instanceof Date) return new Date(value);
    if (value instanceof URLSearchParams) return new URLSearchParams(this.text(String(value)));
    if (value instanceof RegExp) return new RegExp(this.text(value.source), value.flags);
    // A class that shows itself by its own code may read state kept out of reach (internal slots,
    // private fields: Blob, AbortSignal, Event) and throw on a copy: its properties go in a plain object.
    if (showsItself in value || 'toJSON' in value) return {};
    return Object.create(Object.getPrototypeOf(value));
  }

  /**
   * Bytes (a Buffer, a typed array, an ArrayBuffer) kept as they are, or, when their text holds the
   * secret, that text cleaned. Their own properties are their bytes, one each, and are not walked.
   */
  #bytes(value: ArrayBufferView | ArrayBuffer): unknown {
    const text = new TextDecoder().decode(value);
    const clean = this.text(text);
    return clean === text ? value : clean;
  }

  /** Form fields, names and values cleaned as text, a file's name too; its bytes are not shown. */
  #form(form: FormData, depth: number): FormData {
    const copy = new FormData();
    this.#copies.set(form, copy);
    for (const [name, item] of form) {
      if (typeof item === 'string') copy.append(this.text(name), this.text(item));
      else copy.append(this.text(name), item, this.text(item.name));
    }
    this.#properties(form, copy as never, depth);
    return copy;
  }

  /**
   * A function kept as it is, callable, when it has nothing of its own beyond what every function has
   * and a clean name; otherwise a stand-in of its name and properties, cleaned, that shows as it does.
   */
  #function(fn: object, depth: number): unknown {
    const name: unknown = Object.getOwnPropertyDescriptor(fn, 'name')?.value;
    const bare = Reflect.ownKeys(fn).every((key) => functionKeys.includes(key));
    if (bare && typeof name === 'string' && this.text(name) === name) return fn;
    const standIn = () => {};
    // Its own length and name give way to the function's, copied with its other properties.
    Reflect.deleteProperty(standIn, 'length');
    Reflect.deleteProperty(standIn, 'name');
    this.#copies.set(fn, standIn);
    this.#properties(fn, standIn as never, depth);
    return standIn;
  }

  #error(error: Error, depth: number): Error {
    const clean = new Error(this.text(String(error.message)));
    this.#copies.set(error, clean);
    // Defined, not assigned: a page that froze Error.prototype refuses an assignment of `name`.
    if (clean.name !== error.name)
      Object.defineProperty(clean, 'name', {
        value: this.text(String(error.name)),
        writable: true,
        configurable: true,
      });
    clean.stack = this.text(String(error.stack ?? ''));
    this.#properties(error, clean as never, depth);
    return clean;
  }

  /**
   * Own data properties, enumerable or not, symbol-keyed too (inspect shows them all); getters are
   * not called.
   */
  #properties(from: object, to: Record<PropertyKey, unknown>, depth: number): void {
    for (const name of Reflect.ownKeys(from)) {
      // What the copy has already (an Error's message and stack, a boxed string's text and length,
      // an array's length) was made clean with it.
      if (Object.hasOwn(to, name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(from, name);
      // A getter is not called; a toJSON or inspect method of its own, which a logger calls, is left
      // out as a getter is: what its code returns cannot be seen here.
      if (
        !descriptor ||
        !('value' in descriptor) ||
        (shownBy.includes(name) && typeof descriptor.value === 'function')
      ) {
        this.changed = true;
        continue;
      }
      Object.defineProperty(to, this.copy(name, depth) as PropertyKey, {
        value: this.copy(descriptor.value, depth + 1),
        enumerable: descriptor.enumerable ?? false,
        writable: true,
        configurable: true,
      });
    }
  }

  #headers(headers: Headers): Headers {
    const clean = this.#redactor.redactHeaders(headers, this.#secret);
    if (clean !== headers) this.changed = true;
    return clean;
  }

  #request(request: Request): unknown {
    const url = this.text(request.url);
    const headers = this.#headers(request.headers);
    if (url === request.url && headers === request.headers) return request;
    try {
      return new Request(url, { method: request.method, headers });
    } catch {
      return { method: request.method, url, headers };
    }
  }

  #response(response: Response): unknown {
    const url = this.text(response.url);
    const headers = this.#headers(response.headers);
    if (url === response.url && headers === response.headers) return response;
    const { status, statusText } = response;
    return { status, statusText: this.text(statusText), url, headers };
  }
}

import { badRequest } from './responses.js';

// Every rule here is one of the mock's documented choices for the API document's gaps
// (README, "The mock API"): strict, so that a client bug shows up as a 400 rather than passing.

/**
 * Default page size of `/journals/{id}/papers` and `/papers`; the fixed page size of `/authors`.
 *
 * @example
 * ```ts
 * expect((await client.papers.search({ q: 'graph' })).data).toHaveLength(MOCK_DEFAULT_PER_PAGE);
 * ```
 */
export const MOCK_DEFAULT_PER_PAGE = 20;
/**
 * Largest accepted `per_page`; larger values give 400.
 *
 * @example
 * ```ts
 * await client.papers.search({ q: 'graph', per_page: MOCK_MAX_PER_PAGE });
 * ```
 */
export const MOCK_MAX_PER_PAGE = 100;

/**
 * The query of one request, checked against the parameters its endpoint accepts.
 * Unknown and repeated parameters give 400.
 */
export class Query {
  readonly #params: URLSearchParams;

  constructor(params: URLSearchParams, allowed: readonly string[]) {
    this.#params = params;
    const seen = new Set<string>();
    for (const name of params.keys()) {
      if (!allowed.includes(name)) {
        const accepted = allowed.length > 0 ? `accepted: ${allowed.join(', ')}` : 'this endpoint takes none';
        throw badRequest(`Unknown query parameter '${name}' (${accepted})`);
      }
      if (seen.has(name)) throw badRequest(`Query parameter '${name}' is given more than once`);
      seen.add(name);
    }
  }

  /** The raw value, or `undefined` when absent. */
  string(name: string): string | undefined {
    return this.#params.get(name) ?? undefined;
  }

  /** A decimal integer within [min, max] (any safe one by default), or `undefined` when absent. */
  integer(name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const raw = this.#params.get(name);
    if (raw === null) return undefined;
    const value = integerOf(raw);
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      const range =
        max !== Number.MAX_SAFE_INTEGER
          ? ` from ${min} to ${max}`
          : min > Number.MIN_SAFE_INTEGER
            ? ` >= ${min}`
            : '';
      throw badRequest(`'${name}' must be an integer${range}, got '${raw}'`);
    }
    return value;
  }

  /** `true` or `false` exactly, or `undefined` when absent. */
  boolean(name: string): boolean | undefined {
    const raw = this.#params.get(name);
    if (raw === null) return undefined;
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    throw badRequest(`'${name}' must be 'true' or 'false', got '${raw}'`);
  }

  /** One of the allowed values, or the default when absent. */
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.#params.get(name);
    if (raw === null) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    throw badRequest(`'${name}' must be one of ${allowed.join(', ')}; got '${raw}'`);
  }

  /** `page` (default 1) and `per_page` (default 20, at most 100; fixed at 20 when not accepted). */
  pagination(): { page: number; perPage: number } {
    return {
      page: this.integer('page', 1) ?? 1,
      perPage: this.#params.has('per_page')
        ? this.integer('per_page', 1, MOCK_MAX_PER_PAGE)!
        : MOCK_DEFAULT_PER_PAGE,
    };
  }
}

/** One page of `items` as the API's `{ data, total }`; a page past the end is empty, `total` stays true. */
export function paginate<T, U>(
  items: readonly T[],
  page: number,
  perPage: number,
  toWire: (item: T) => U,
): { data: U[]; total: number } {
  const start = (page - 1) * perPage;
  return { data: items.slice(start, start + perPage).map(toWire), total: items.length };
}

/** The integer a decimal text writes (digits, a minus sign allowed), or NaN for any other text. */
const integerOf = (raw: string) => (/^-?\d+$/.test(raw) ? Number(raw) : Number.NaN);

/**
 * A path id: an integer's digits, a minus sign allowed, percent-encoded or not (else 400), as a number.
 * Digits past the safe integers are an integer all the same, of no record: a lookup finds none (404).
 */
export function parseId(raw: string, what: string): number {
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {}
  const value = integerOf(text);
  if (Number.isNaN(value)) throw badRequest(`${what} id must be an integer, got '${raw}'`);
  return value;
}

/*
 * An entry as the store keeps it: one line of JSON about the answer, a newline, then the body as
 * JSON text. The body is read back with the transport's own parser and schema, so an entry is checked
 * exactly as an answer from the API is; keeping it as text avoids escaping it into the line above.
 */

/** What an entry says about the answer it holds. */
export interface EntryMeta {
  /** The SDK version that wrote it: another version's entry is dropped. */
  readonly v: string;
  /** When it was kept (ms since the epoch). */
  readonly t: number;
  /** When it stops being served fresh. */
  readonly e: number;
  /** The answer's status and headers, to rebuild a Response. */
  readonly s: number;
  readonly h: ReadonlyArray<readonly [string, string]>;
  /** The partition of the request that brought it: an answer is served within its partition only. */
  readonly p: string;
}

/** Headers that describe the transfer, not the answer: a rebuilt Response has no body to match them. */
const dropped = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'set-cookie',
]);

export function encodeEntry(
  response: Response,
  body: string,
  partition: string,
  storedAt: number,
  expires: number,
  version: string,
): string {
  const headers: Array<[string, string]> = [];
  response.headers.forEach((value, name) => {
    if (!dropped.has(name)) headers.push([name, value]);
  });
  const meta: EntryMeta = {
    v: version,
    t: storedAt,
    e: expires,
    s: response.status,
    h: headers,
    p: partition,
  };
  return `${JSON.stringify(meta)}\n${body}`;
}

/** The entry's parts, or `undefined` for anything `version` (this SDK's) did not write. */
export function decodeEntry(value: unknown, version: string): { meta: EntryMeta; body: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const end = value.indexOf('\n');
  if (end < 0) return undefined;
  let meta: EntryMeta;
  try {
    meta = JSON.parse(value.slice(0, end));
  } catch {
    return undefined;
  }
  if (
    meta === null ||
    typeof meta !== 'object' ||
    meta.v !== version ||
    typeof meta.p !== 'string' ||
    !Number.isFinite(meta.t) ||
    !Number.isFinite(meta.e) ||
    !Number.isInteger(meta.s) ||
    meta.s < 200 ||
    meta.s > 299 ||
    !Array.isArray(meta.h) ||
    !meta.h.every(
      (pair) => Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string'),
    )
  ) {
    return undefined;
  }
  return { meta, body: value.slice(end + 1) };
}

/** The kept answer as a `Response`: status and headers as they came, `Age` in whole seconds. */
export function rebuildResponse(meta: EntryMeta, now: number): Response {
  let headers: Headers;
  try {
    headers = new Headers(meta.h as Array<[string, string]>);
  } catch {
    headers = new Headers();
  }
  headers.set('age', String(Math.max(0, Math.floor((now - meta.t) / 1000))));
  return new Response(null, { status: meta.s, headers });
}

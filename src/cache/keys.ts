/*
 * The names of what the cache keeps. Every key starts with a partition: a hash of the base URL and
 * the API key, so that two APIs, or two keys whose answers may differ, never share an answer, and
 * the store never sees the key. Within it, an answer is named by its request path and query, which
 * is what lets `apply(event)` delete exactly the answers an event makes wrong: no store has to list
 * keys by prefix (Keyv cannot).
 */

const prefix = 'scholarly-metrics';

/** `scholarly-metrics:<32 hex digits>`: SHA-256 (WebCrypto, present in every runtime) of URL and key. */
export async function partitionOf(baseUrl: string, apiKey: string | null): Promise<string> {
  const bytes = new TextEncoder().encode(`${baseUrl}\n${apiKey ?? ''}`);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  return `${prefix}:${hex}`;
}

/** The key of one answer: the partition, then the request's path and query. */
export function answerKey(partition: string, path: string): string {
  return `${partition}:${path}`;
}

/**
 * The marker a request of `path` checks for a `score_updated` event that arrived while it was in
 * flight (see ResponseCache): the journal's own for its profile and score history, one for the list.
 */
export function markerKey(partition: string, path: string): string | undefined {
  if (path === '/journals') return `${partition}#event:journals`;
  const journal = /^\/journals\/(\d+)(?:\/score)?$/.exec(path)?.[1];
  return journal === undefined ? undefined : `${partition}#event:journal:${journal}`;
}

/** The paths a `score_updated` event for `journalId` makes wrong: profile, score history, list. */
export function pathsOfJournal(journalId: number): string[] {
  return [`/journals/${journalId}`, `/journals/${journalId}/score`, '/journals'];
}

import type { ScoreEvent } from '../core/cache-types.js';
import { backoff, maxRetryAfterSeconds } from '../core/retry.js';
import { decodeEntry, type EntryMeta } from './entry.js';
import { answerKey, markerKey } from './keys.js';
import { storeTimeout } from './keyv-store.js';
import type { Store } from './store.js';

/*
 * What a `score_updated` event may cost. The webhook carries no signature, so anyone who finds its URL
 * can post events: an event only drops a kept answer that it contradicts, and the markers it leaves
 * in a shared store are few (one per slot of journals) and short-lived.
 */

/**
 * How long a marker must live: as long as one request can take from its first attempt to the keeping
 * of its answer, that is every attempt's timeout, the waits between them (a backoff or a
 * `Retry-After`, whichever is longer) and the store's writes.
 */
export function markerLifetimeOf(timeout: number, maxRetries: number): number {
  const wait = Math.max(backoff.maxTimeout, maxRetryAfterSeconds * 1000);
  return timeout * (maxRetries + 1) + wait * maxRetries + 2 * storeTimeout;
}

/** The fields of a journal or score history the event speaks of. */
interface Shown {
  readonly id?: unknown;
  readonly metric_score?: unknown;
  readonly current?: unknown;
  readonly quartile?: unknown;
}

/**
 * Whether the answer kept for `path` already shows what `event` says, so that the event makes nothing
 * in it wrong: the list holds no such journal, or shows its new score; the profile or score history
 * shows the new score and was kept at or after the event's time. An event without a usable
 * `new_score` (or, for a profile or history, `timestamp`) shows nothing: the answer is dropped.
 */
export function showsEvent(path: string, meta: EntryMeta, body: string, event: ScoreEvent): boolean {
  const score = event.new_score;
  if (!Number.isSafeInteger(score)) return false;
  const sameQuartile = (shown: Shown) =>
    typeof event.quartile !== 'string' || shown.quartile === undefined || shown.quartile === event.quartile;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return false;
  }
  if (path === '/journals') {
    if (!Array.isArray(value)) return false;
    const listed = (value as Shown[]).find((journal) => journal?.id === event.journal_id);
    return listed === undefined || (listed.metric_score === score && sameQuartile(listed));
  }
  const at = typeof event.timestamp === 'string' ? Date.parse(event.timestamp) : Number.NaN;
  if (!(meta.t >= at) || value === null || typeof value !== 'object') return false;
  const shown = value as Shown;
  const held = path.endsWith('/score') ? shown.current : shown.metric_score;
  return held === score && sameQuartile(shown);
}

/** Writes the markers of `paths` (a journal's slot and the list's) in a shared store, each short-lived. */
export async function markJournal(store: Store, scope: string, paths: string[], lifetime: number) {
  const token = `${Date.now()}.${Math.random()}`;
  for (const marker of new Set(paths.map((path) => markerKey(scope, path)!))) {
    await store.set(marker, token, lifetime);
  }
}

/** Deletes the answer kept for each of `paths` unless it already shows what `event` says. */
export async function dropContradicted(store: Store, scope: string, paths: string[], event: ScoreEvent) {
  await Promise.all(
    paths.map(async (path) => {
      // One slot per path, whichever partition filled it (see keys.ts).
      const key = answerKey(scope, '', path);
      const value = await store.get(key);
      if (value === undefined || value === null) return;
      const entry = decodeEntry(value);
      if (entry === undefined || !showsEvent(path, entry.meta, entry.body, event)) await store.delete(key);
    }),
  );
}

import type { Route, ScoreEventView } from '../core/endpoint.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import { decodeEntry } from './entry.js';
import type { FirstLoadParts } from './first-load-parts.js';
import { answerKey, eventSubjectOf, flightKey, listedKey, markerKey } from './keys.js';
import { storeTimeout } from './keyv-store.js';
import type { Store } from './store.js';

/*
 * What a `score_updated` event may cost. The webhook carries no signature, so anyone who finds its URL
 * can post events: an event only drops an answer, kept or in flight, that it contradicts, and writes a
 * marker in a shared store only for a path some process has in flight (the list's only when the event's
 * journal may be on it), so an event for a journal nothing keeps or asks for costs nothing.
 */

/**
 * How long a request of a client may take and still be kept: every attempt's timeout, the waits
 * between them (a backoff or a `Retry-After`, whichever is longer: `longestRetryWait`) and the store's
 * operations before it is sent (its flight read and written, its marker read). A marker must live at
 * least as long as the longest such lifetime among the requests in flight, whichever process sent them.
 */
export function markerLifetimeOf(
  timeout: number,
  maxRetries: number,
  { longestRetryWait }: Pick<FirstLoadParts, 'longestRetryWait'>,
): number {
  return timeout * (maxRetries + 1) + longestRetryWait * maxRetries + 3 * storeTimeout;
}

/**
 * A year: longer than any client's lifetime (the longest timer, 2^31 - 1 ms, on each of 11 attempts,
 * with 10 waits of at most a minute, is about 274 days). A longer one read from the store is not the SDK's.
 */
const longestLifetime = 365 * 24 * 3_600_000;

/**
 * The lifetime a flight key or marker records (`<ms>` or `<ms>:<token>`), so that processes with
 * shorter ones never replace it by one that ends sooner; 0 when it records none.
 */
export function lifetimeIn(value: unknown): number {
  const recorded = typeof value === 'string' ? /^(\d{1,12})(?::|$)/.exec(value) : null;
  return recorded === null ? 0 : Math.min(Number(recorded[1]), longestLifetime);
}

/** The fields of a journal or score history the event speaks of. */
interface Shown {
  readonly id?: unknown;
  readonly quartile?: unknown;
  readonly [score: string]: unknown;
}

/**
 * Whether `value`, an answer showing scores as `view` says, as of `at` (when it was kept, or when its request was sent),
 * already shows what `event` says, so that the event makes nothing in it wrong: the list holds no such
 * journal, or shows its new score; the profile or score history shows the new score and dates from
 * the event's time or after. An event without a usable `new_score` (or, for a profile or history,
 * `timestamp`) shows nothing: the answer is dropped.
 */
export function showsEvent(
  view: ScoreEventView,
  at: number,
  value: unknown,
  event: ScoreUpdatedEvent,
): boolean {
  const score = event.new_score;
  if (!Number.isSafeInteger(score)) return false;
  const sameQuartile = (shown: Shown) =>
    typeof event.quartile !== 'string' || shown.quartile === undefined || shown.quartile === event.quartile;
  if (view.of === 'list') {
    if (!Array.isArray(value)) return false;
    const listed = (value as Shown[]).find((journal) => journal?.id === event.journal_id);
    return listed === undefined || (listed[view.score] === score && sameQuartile(listed));
  }
  const eventAt = typeof event.timestamp === 'string' ? Date.parse(event.timestamp) : Number.NaN;
  if (!(at >= eventAt) || value === null || typeof value !== 'object') return false;
  const shown = value as Shown;
  return shown[view.score] === score && sameQuartile(shown);
}

/** The ids of the journals a list answer holds. */
export function journalIds(list: unknown): number[] {
  const ids = Array.isArray(list) ? (list as Shown[]).map((journal) => journal?.id) : [];
  return ids.filter((id): id is number => Number.isSafeInteger(id));
}

/** The ids recorded under {@link listedKey}, or `undefined` when none (or no readable record) is kept. */
function idsOf(listed: unknown): unknown[] | undefined {
  if (typeof listed !== 'string') return undefined;
  const ids = parsed(listed);
  return Array.isArray(ids) ? ids : undefined;
}

/** Whether the list may hold `journalId`: it is among the ids last listed, or none are known. */
function mayBeListed(listed: unknown, journalId: number): boolean {
  return idsOf(listed)?.includes(journalId) ?? true;
}

/** A request's marker as read before it was sent. */
export interface Watched {
  readonly marker: string;
  readonly before: unknown;
}

/**
 * Says, in a shared store, that a request of `path` is in flight (so that an event writes its
 * marker), then reads the marker: in this order, an event either sees the request or moves the marker
 * after it was read. The flight key records the longest lifetime of the requests of `path` in flight
 * in any process, and lives that long: an event marks for as long as the slowest of them may run.
 */
export async function watchForEvents(
  store: Store,
  scope: string,
  path: string,
  marker: string,
  lifetime: number,
): Promise<Watched> {
  const key = flightKey(scope, path);
  const longest = Math.max(lifetime, lifetimeIn(await store.get(key)));
  await store.set(key, String(longest), longest);
  return { marker, before: await store.get(marker) };
}

/**
 * Records, in a shared store, which journals `list` (a list answer) holds, so that events for others
 * write no list marker; and says whether the answer may be kept: not when it lists a journal the
 * record lacked, since an event for that journal may have skipped the marker while it was in flight.
 */
export async function recordListed(store: Store, scope: string, list: unknown, lifetime: number) {
  const key = listedKey(scope);
  const ids = JSON.stringify(journalIds(list));
  const known = await store.get(key);
  if (known === ids) return true;
  await store.set(key, ids, lifetime);
  const before = idsOf(known);
  return before === undefined || (JSON.parse(ids) as unknown[]).every((id) => before.includes(id));
}

/**
 * Writes, in a shared store, the markers a request in flight somewhere needs to learn of the event
 * for `journalId`: the journal's slot if its profile or history is in flight, the list's if the list
 * is in flight and may hold the journal. Each is short-lived, yet outlives every request that may read
 * it: it lives the longest of `lifetime` (this client's), the lifetimes the flights record and the one
 * the marker it replaces records (another journal of the slot may be in flight). `routes`: the
 * journal's event routes (eventRoutesOf in keys.ts).
 */
export async function markJournal(
  store: Store,
  scope: string,
  journalId: number,
  routes: Route[],
  lifetime: number,
) {
  const slots = [...new Set(routes.map((route) => markerKey(scope, eventSubjectOf(route)!)))];
  const [listed, flying, marked] = await Promise.all([
    store.get(listedKey(scope)),
    Promise.all(routes.map((route) => store.get(flightKey(scope, route.path)))),
    Promise.all(slots.map((marker) => store.get(marker))),
  ]);
  const markers = new Set<string>();
  for (const [index, route] of routes.entries()) {
    const subject = eventSubjectOf(route)!;
    if (!isSet(flying[index]) || (subject === 'list' && !mayBeListed(listed, journalId))) continue;
    markers.add(markerKey(scope, subject));
  }
  const longest = Math.max(lifetime, ...[...flying, ...marked].map(lifetimeIn));
  const token = `${longest}:${Date.now()}.${Math.random()}`;
  for (const marker of markers) await store.set(marker, token, longest);
}

const isSet = (value: unknown) => value !== undefined && value !== null;

/**
 * Deletes the answer kept for each of `routes` unless it already shows what `event` says; an entry
 * another `version` of the SDK wrote shows nothing.
 */
export async function dropContradicted(
  store: Store,
  scope: string,
  routes: Route[],
  event: ScoreUpdatedEvent,
  version: string,
) {
  await Promise.all(
    routes.map(async (route) => {
      // One slot per path, whichever partition filled it (see keys.ts).
      const key = answerKey(scope, '', route.path, eventSubjectOf(route));
      const value = await store.get(key);
      if (value === undefined || value === null) return;
      const entry = decodeEntry(value, version);
      const view = route.endpoint!.scoreEvent!;
      if (entry === undefined || !showsEvent(view, entry.meta.t, parsed(entry.body), event)) {
        await store.delete(key);
      }
    }),
  );
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

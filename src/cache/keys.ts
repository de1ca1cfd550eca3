/*
 * The names of what the cache keeps. Every key starts with the scope of one API (a hash of its base
 * URL). Most answers are then named by a partition (a hash of every credential the request carries:
 * the API key and all the client's and the call's headers), then by their path and query, so that
 * two callers whose answers may differ never share one, and the store never sees a credential.
 *
 * The answers a `score_updated` event makes wrong (a journal's profile and score history, the journal
 * list) are named by scope and path alone, one slot per path whoever asked, the entry saying whose
 * it is: that is what lets `apply(event)` delete each in one step for every partition, although no
 * store can list keys by prefix (Keyv cannot).
 */

import type { Route } from '../core/endpoint.js';
import type { FirstLoadParts } from './first-load-parts.js';

const prefix = 'scholarly-metrics';

/** How many event markers a shared store may hold per API: journals share them by id modulo this. */
export const markerSlots = 1024;

/** The credentials of a request before hooks, as one string (the input of its partition). */
export function credentialsOf(
  apiKey: string | null,
  clientHeaders: Headers | undefined,
  callHeaders: Headers | undefined,
): string {
  // The headers the request carries, merged as the transport merges them: the key's Authorization,
  // then the client's headers over it, then the call's over those. Headers lower-cases every name.
  const merged = new Headers();
  if (apiKey !== null) merged.set('authorization', `Bearer ${apiKey}`);
  for (const [name, value] of clientHeaders ?? []) merged.set(name, value);
  for (const [name, value] of callHeaders ?? []) merged.set(name, value);
  // Headers iterates in sorted name order; JSON keeps a value's newline or colon from faking a pair.
  return JSON.stringify([...merged]);
}

/** How many partitions (sets of credentials) are remembered, so that each is hashed once. */
const rememberedPartitions = 256;

interface Credentials {
  readonly baseUrl: string;
  readonly apiKey: string | null;
  readonly headers: Headers | undefined;
}

/**
 * The partitions of calls: a hash of the base URL and every credential a request carries. A
 * client's own (its calls without headers: most calls) is kept by client, found without hashing.
 */
export function partitions(): (client: Credentials, callHeaders: Headers | undefined) => Promise<string> {
  const known = new Map<string, Promise<string>>();
  const ofClient = new WeakMap<Credentials, Promise<string>>();
  const find = (client: Credentials, callHeaders: Headers | undefined) => {
    const credentials = `${client.baseUrl}\n${credentialsOf(client.apiKey, client.headers, callHeaders)}`;
    let partition = known.get(credentials);
    if (partition === undefined) {
      // Forgotten all at once past the bound: a rare rehash is cheaper than an ordered eviction.
      if (known.size >= rememberedPartitions) known.clear();
      partition = digestOf(credentials);
      // A runtime without WebCrypto makes every call go to the API; each says so in its warning.
      partition.catch(() => {});
      known.set(credentials, partition);
    }
    return partition;
  };
  return (client, callHeaders) => {
    if (callHeaders !== undefined) return find(client, callHeaders);
    let partition = ofClient.get(client);
    if (partition === undefined) {
      partition = find(client, undefined);
      ofClient.set(client, partition);
    }
    return partition;
  };
}

/** The first 128 bits of a SHA-256 (WebCrypto, present in every runtime) of `text`, in hex. */
export async function digestOf(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** `scholarly-metrics:<32 hex digits>`: the scope of one base URL. */
export async function scopeOf(baseUrl: string): Promise<string> {
  return `${prefix}:${await digestOf(baseUrl)}`;
}

/**
 * The journal (or `'list'`, the journal list) whose score a route's answer shows, when a
 * `score_updated` event can make that answer wrong; `undefined` for every other answer.
 */
export function eventSubjectOf(route: Route): EventSubject | undefined {
  const view = route.endpoint?.scoreEvent;
  if (view === undefined) return undefined;
  return view.of === 'list' ? 'list' : (route.values?.id as number);
}

/** A journal's id, or the journal list. */
export type EventSubject = number | 'list';

/** The key of one answer: an event subject's slot in the scope, any other path within the partition. */
export function answerKey(
  scope: string,
  partition: string,
  path: string,
  subject: EventSubject | undefined,
): string {
  return subject === undefined ? `${scope}:${partition}:${path}` : `${scope}:${path}`;
}

/**
 * The marker a request about `subject` checks, in a shared store, for a `score_updated` event that
 * arrived while it was in flight (see ResponseCache): one for the list, one per slot of journals. It
 * records how long it lives, so that a later event never shortens it (see markJournal).
 */
export function markerKey(scope: string, subject: EventSubject): string {
  return subject === 'list' ? `${scope}#event:journals` : `${scope}#event:${subject % markerSlots}`;
}

/**
 * The key a request of an event path writes, in a shared store, before it is sent: an event finds
 * there whether any process has that path in flight, and writes a marker only then, living at least
 * the lifetime the key records (see watchForEvents).
 */
export function flightKey(scope: string, path: string): string {
  return `${scope}#flight:${path}`;
}

/** The key of the ids the journal list last held (an event never changes which journals it lists). */
export function listedKey(scope: string): string {
  return `${scope}#listed`;
}

/** The requests whose answers a `score_updated` event for `journalId` can make wrong (API table). */
export function eventRoutesOf(
  journalId: number,
  { endpointList, routeTo }: Pick<FirstLoadParts, 'endpointList' | 'routeTo'>,
): Route[] {
  return endpointList
    .filter((endpoint) => endpoint.scoreEvent)
    .map((endpoint) => routeTo(endpoint, { id: journalId }));
}

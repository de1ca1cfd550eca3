import type { Route } from '../core/endpoint.js';
import type { EntryMeta } from './entry.js';

/*
 * What an entry read back from the store must satisfy besides its schema. Whoever can write to the
 * store (a shared Redis) could otherwise make the client hold more than it would ever read from the
 * API, serve one record under another's name, or keep an answer for ever.
 */

/** How far apart the clocks of processes sharing a store may be, for an entry's times to be believed. */
export const clockSkew = 60_000;

/** Why an entry's body may not be read, or `undefined`: a body past `maxResponseBytes`. */
export function oversized(body: string, maxResponseBytes: number): string | undefined {
  // UTF-8 takes at least one byte per UTF-16 unit and at most three: count exactly only in between.
  const large =
    body.length > maxResponseBytes ||
    (body.length * 3 > maxResponseBytes && new TextEncoder().encode(body).length > maxResponseBytes);
  return large ? 'larger than maxResponseBytes' : undefined;
}

/**
 * The most UTF-16 units an entry's metadata (its status, times and headers) may take beside its body:
 * an API's headers fit in far less (Node reads at most 16 KiB of them).
 */
const maxMetaLength = 64 * 1024;

/**
 * Why a value read from the store is too large to be an entry of an answer within `maxResponseBytes`,
 * told before any of it is parsed: its headers are as forged as its body may be.
 */
export function overgrown(value: unknown, maxResponseBytes: number): string | undefined {
  const large = typeof value === 'string' && value.length > maxResponseBytes + maxMetaLength;
  return large ? 'larger than maxResponseBytes and the headers of an answer' : undefined;
}

/**
 * Why an entry's times may not be believed, or `undefined`: it lives longer than its method's
 * lifetime allows, or was written further in the future than clocks drift.
 */
export function overlong(meta: EntryMeta, ttl: number, now: number): string | undefined {
  if (meta.e - meta.t > ttl || meta.t > now + clockSkew) {
    return 'expiry past its lifetime';
  }
  return undefined;
}

/**
 * Why an answer is not the one its route asks for, or `undefined`: the journal, author or paper it
 * describes is not the one named by the path it is kept under (the endpoint's `identity`).
 */
export function misplaced(route: Route, data: unknown): string | undefined {
  const identity = route.endpoint?.identity;
  if (identity === undefined) return undefined;
  const named = route.values?.[identity];
  const shown = (data as Record<string, unknown> | null)?.[identity];
  // DOIs are case-insensitive, and a server may write one in another Unicode form than the path
  // (composed or not); ids are compared as the path wrote them.
  const doi = (value: string) => value.normalize('NFC').toLowerCase();
  const same =
    typeof named === 'string' ? typeof shown === 'string' && doi(shown) === doi(named) : shown === named;
  return same ? undefined : 'another record than its path names';
}

import type { CacheMethod, ResolvedCacheOptions } from '../core/options/cache.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/**
 * How long each method's answer is served without asking the API, unless `cache.ttl` says otherwise.
 * docs/cache.md gives the reasons: reference lists and records that barely change live a day; what
 * the `score_updated` webhook refreshes (a journal's profile and score history) lives a day too,
 * because the event drops it when the score moves; lists that grow with new papers live an hour or
 * less; searches, many and each soon out of date, live the shortest.
 */
export const defaultLifetimes: Readonly<Record<CacheMethod, number>> = {
  'journals.list': 6 * hour,
  'journals.get': day,
  'journals.papers': hour,
  'journals.score': day,
  'papers.search': 15 * minute,
  'papers.get': day,
  'authors.list': hour,
  'authors.get': 6 * hour,
  'subjects.list': day,
  'countries.list': day,
};

/** The lifetimes in force: the defaults with the ones asked for laid over them. */
export function lifetimesOf(options: ResolvedCacheOptions): Readonly<Record<CacheMethod, number>> {
  const given = Object.fromEntries(Object.entries(options.ttl).filter(([, value]) => value !== undefined));
  return { ...defaultLifetimes, ...given };
}

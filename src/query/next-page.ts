import type { PlainPage } from '../core/page.js';

/** Enough of a page to recognise it if it comes again: its length, first and last items. */
function fingerprint({ data }: PlainPage<unknown>): string {
  return `${data.length}:${JSON.stringify(data[0])}:${JSON.stringify(data[data.length - 1])}`;
}

/**
 * The next page of an infinite query, or `undefined` after the last, by the walk's rules: each page
 * is fetched alone by number, so its own `nextPage` knows the page size only from `per_page`, which a
 * server may cap; the pages fetched so far know the size it serves. The last page is the one that came
 * back empty, shorter than the first page, the same as the page before (a server ignoring `page`), or
 * that brings the items seen to the smallest `total` any page reported.
 */
export function nextPageParam<T>(last: PlainPage<T>, all: readonly PlainPage<T>[]): number | undefined {
  if (all.length < 2) return last.nextPage;
  const first = all[0]!;
  const size = first.data.length;
  if (last.data.length < size || fingerprint(all[all.length - 2]!) === fingerprint(last)) return undefined;
  let seen = (first.page - 1) * size;
  let bound = Number.POSITIVE_INFINITY;
  for (const page of all) {
    seen += page.data.length;
    bound = Math.min(bound, page.total);
  }
  return seen < bound ? last.page + 1 : undefined;
}

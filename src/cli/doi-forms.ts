/**
 * A DOI as people write it: `https://doi.org/10.…`, `http://dx.doi.org/10.…`, `www.doi.org/10.…` (a
 * resolver's address with or without its scheme), `doi:10.…` or bare. A
 * module of its own: `papers get` reads one at start-up, where the DOI lists' parsers are not loaded.
 */
const resolverPrefix = /^(?:(?:https?:\/\/)?(?:dx\.|www\.)?doi\.org\/|doi:\s*)/i;

/**
 * `raw` without a resolver's URL or a `doi:` prefix; of a URL, its path with the percent-encoding
 * undone: a DOI's own `?` and `#` are encoded in a URL, so a bare one starts the URL's query or
 * fragment (`?utm_source=…`, `#citation`), which is no part of the DOI.
 */
export function normaliseDoi(raw: string): string {
  const trimmed = raw.trim();
  const prefix = resolverPrefix.exec(trimmed);
  if (prefix === null) return trimmed;
  const rest = trimmed.slice(prefix[0].length);
  // A `doi:` prefix is no URL: what follows it is the DOI, whole.
  if (/^doi:/i.test(trimmed)) return rest;
  const path = rest.replace(/[?#].*$/s, '');
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

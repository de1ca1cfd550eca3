/** A query string from defined values only; `''` when there are none. */
export function queryString(query: Readonly<Record<string, string | number | boolean | undefined>>): string {
  let out = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined) continue;
    out += `${out ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  }
  return out;
}

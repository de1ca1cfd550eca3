/** A query string from defined values only; `''` when there are none. */
export function queryString(query: Readonly<Record<string, string | number | boolean | undefined>>): string {
  let out = '';
  // Own keys only: a member a host app added to Object.prototype is no parameter of the call.
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    out += `${out ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  }
  return out;
}

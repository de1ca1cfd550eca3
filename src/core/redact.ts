/**
 * Removes a secret from whatever an error is about to carry. Servers and proxies do echo credentials
 * in error bodies, and runtimes echo header values in their own error messages.
 */
export const redacted = '[redacted]';

export function redactText(text: string, secret: string | null): string {
  if (!secret) return text;
  let out = text.includes(secret) ? text.split(secret).join(redacted) : text;
  // A message that quotes a value cuts it short (`"sk_live_51Hx…"`): a long enough start of the
  // secret is still the secret's, and goes too.
  if (secret.length > minimumPrefix) out = redactPrefixes(out, secret);
  return out;
}

const minimumPrefix = 12;

function redactPrefixes(text: string, secret: string): string {
  const head = secret.slice(0, minimumPrefix);
  let at = text.indexOf(head);
  while (at !== -1) {
    let end = at + minimumPrefix;
    while (end < text.length && end - at < secret.length && text[end] === secret[end - at]) end++;
    text = text.slice(0, at) + redacted + text.slice(end);
    at = text.indexOf(head, at + redacted.length);
  }
  return text;
}

/** A deep copy of a parsed JSON value with the secret replaced in every string, keys included. */
export function redactValue(value: unknown, secret: string | null): unknown {
  if (!secret) return value;
  if (typeof value === 'string') return redactText(value, secret);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      copy[redactText(key, secret)] = redactValue(item, secret);
    return copy;
  }
  return value;
}

export function redactHeaders(headers: Headers, secret: string | null): Headers {
  if (!secret) return headers;
  let leaks = false;
  headers.forEach((value, name) => {
    leaks ||= value.includes(secret) || name.includes(secret);
  });
  if (!leaks) return headers;
  const clean = new Headers();
  for (const [name, value] of headers) {
    // A header name cannot hold "[redacted]"; one that carries the secret is dropped.
    if (!name.includes(secret)) clean.append(name, redactText(value, secret));
  }
  return clean;
}

/**
 * The error itself when neither it nor any error in its `cause` chain mentions the secret, else a
 * stand-in chain that does not.
 */
export function redactCause(error: unknown, secret: string | null): unknown {
  if (!secret || !mentions(error, secret, 0)) return error;
  return scrub(error, secret, 0);
}

const maxCauseDepth = 8;

function mentions(value: unknown, secret: string, depth: number): boolean {
  if (depth > maxCauseDepth) return false;
  if (!(value instanceof Error)) return value !== undefined && String(value).includes(secret);
  const text = `${value.message}\n${value.stack ?? ''}`;
  return text.includes(secret) || mentions(value.cause, secret, depth + 1);
}

function scrub(value: unknown, secret: string, depth: number): unknown {
  if (depth > maxCauseDepth || value === undefined) return undefined;
  if (!(value instanceof Error)) return redactText(String(value), secret);
  const cause = scrub(value.cause, secret, depth + 1);
  const clean = new Error(redactText(value.message, secret), cause === undefined ? undefined : { cause });
  clean.name = value.name;
  clean.stack = redactText(value.stack ?? '', secret);
  return clean;
}

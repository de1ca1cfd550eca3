/**
 * Removes a secret from whatever an error is about to carry. Servers and proxies do echo credentials
 * in error bodies, and runtimes echo header values in their own error messages.
 */
export const redacted = '[redacted]';

export function redactText(text: string, secret: string | null): string {
  return secret && text.includes(secret) ? text.split(secret).join(redacted) : text;
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
  headers.forEach((value) => {
    leaks ||= value.includes(secret);
  });
  if (!leaks) return headers;
  const clean = new Headers();
  for (const [name, value] of headers) clean.append(name, redactText(value, secret));
  return clean;
}

/** The error itself when it does not mention the secret, else a stand-in that does not. */
export function redactCause(error: unknown, secret: string | null): unknown {
  if (!secret || !(error instanceof Error)) return error;
  const text = `${error.message}\n${error.stack ?? ''}`;
  if (!text.includes(secret)) return error;
  const clean = new Error(redactText(error.message, secret));
  clean.name = error.name;
  clean.stack = redactText(error.stack ?? '', secret);
  return clean;
}

/**
 * The mock's daily limit of `requests` per key: its 429's Retry-After is far beyond what the SDK
 * waits, so the command exits 75. Within two minutes of the UTC day's end (when that Retry-After
 * would be short) an hour's window instead.
 */
export function dailyLimit(requests: number) {
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return midnight - now.getTime() > 120_000
    ? { perDay: requests }
    : { perWindow: { requests, windowMs: 3_600_000 } };
}

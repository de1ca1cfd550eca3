import { ConfigurationError } from '../core/errors.js';

/* The URLs the mock is given: where its webhooks go, and the origins of its server and of pages. */

/**
 * A webhook URL, given at creation or subscribed later: absolute http(s), without a user or password
 * (`fetch` refuses to send to one, so every delivery would fail).
 */
export function checkMockWebhookUrl(url: unknown): string {
  const parsed = typeof url === 'string' && URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined || !/^https?:$/.test(parsed.protocol) || parsed.username || parsed.password) {
    throw new ConfigurationError(
      'webhooks.urls',
      // The URL is not quoted: a receiver's URL often carries its secret token.
      'Webhook URL must be an absolute http(s) URL, without a user or password',
    );
  }
  return url as string;
}

/**
 * The origin of `url` when it is an absolute http(s) URL (its path, query and fragment dropped), else
 * `undefined`: any other scheme's origin is the string 'null'.
 */
export function httpOrigin(url: unknown): string | undefined {
  const parsed = typeof url === 'string' && URL.canParse(url) ? new URL(url) : undefined;
  return parsed !== undefined && /^https?:$/.test(parsed.protocol) ? parsed.origin : undefined;
}

import type { QueryClient } from '@tanstack/query-core';
import { MetricError } from '../core/errors.js';
import type { WebhookEvent } from '../webhooks/event.js';

/**
 * Placeholder for `queries.follow`: the event relay's browser end lands in this file separately.
 * Until then a call fails loudly rather than following nothing.
 */
export function follow(
  _queryClient: Pick<QueryClient, 'invalidateQueries'>,
  _url: string | URL,
  _invalidate: (event: WebhookEvent) => Promise<void>,
): () => void {
  throw new MetricError('not implemented');
}

import { endpointList } from '../api/endpoints.js';
import type { WebhookEvent } from '../webhooks/event.js';
import type { InvalidatingClient } from './types.js';

/**
 * The keys a `score_updated` event makes stale, read from the endpoints' `scoreEvent`: each answer
 * about the journal itself (its profile, its score history), and every list of journals.
 */
export function staleKeys(prefix: readonly unknown[], event: WebhookEvent): unknown[][] {
  if (event?.event !== 'score_updated') return [];
  return endpointList
    .filter((endpoint) => endpoint.scoreEvent !== undefined)
    .map((endpoint) =>
      // A list's key without its parameters is the prefix of every list asked for.
      endpoint.scoreEvent?.of === 'journal'
        ? [...prefix, endpoint.name, event.journal_id]
        : [...prefix, endpoint.name],
    );
}

/** Invalidates (and so refetches, when observed) every query `event` makes stale. */
export async function invalidateEvent(
  queryClient: InvalidatingClient,
  prefix: readonly unknown[],
  event: WebhookEvent,
): Promise<void> {
  await Promise.all(staleKeys(prefix, event).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

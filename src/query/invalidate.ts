import { endpointList } from '../api/endpoints.js';
import { ConfigurationError, WebhookPayloadError } from '../core/errors.js';
import type { WebhookEvent } from '../webhooks/event.js';
import { checkEvent } from '../webhooks/event-checks.js';
import type { InvalidatingClient } from './types.js';

/**
 * Invalidates (and so refetches, when observed) every query a `score_updated` event makes stale, read
 * from the endpoints' `scoreEvent`: each answer about the journal itself (its profile, its score
 * history), and every list of journals. A `score_updated` event that does not fit (a journal id
 * that is no integer, a field missing) rejects with a `WebhookPayloadError`, as `client.cache.apply`
 * does, rather than invalidating the lists alone; what is no `score_updated` event is ignored.
 */
export async function invalidateEvent(
  queryClient: InvalidatingClient,
  prefix: readonly unknown[],
  event: WebhookEvent,
): Promise<void> {
  if (event?.event !== 'score_updated') return;
  // Checked as the follower and the cache check it; the parser says which field is wrong.
  const { journal_id } = checkEvent(event, () => {
    throw new WebhookPayloadError('not a valid score_updated event: parseWebhookEvent() says why');
  });
  await Promise.all(
    endpointList.map(
      ({ name, scoreEvent }) =>
        scoreEvent &&
        queryClient.invalidateQueries({
          // A list's key without its parameters is the prefix of every list asked for.
          queryKey: scoreEvent.of === 'journal' ? [...prefix, name, journal_id] : [...prefix, name],
        }),
    ),
  );
}

/** `queryClient` when it can invalidate, or a `ConfigurationError` naming it (not a TypeError later). */
export function checkQueryClient(queryClient: InvalidatingClient): InvalidatingClient {
  if (typeof (queryClient as Partial<InvalidatingClient> | null)?.invalidateQueries !== 'function') {
    throw new ConfigurationError('queryClient', '`queryClient` must be a QueryClient');
  }
  return queryClient;
}

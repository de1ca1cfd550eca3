import { endpointList } from '../api/endpoints.js';
import { ConfigurationError, WebhookPayloadError } from '../core/errors.js';
import type { WebhookEvent } from '../webhooks/event.js';
import type { InvalidatingClient } from './types.js';

/**
 * Invalidates (and so refetches, when observed) every query a `score_updated` event makes stale, read
 * from the endpoints' `scoreEvent`: each answer about the journal itself (its profile, its score
 * history), and every list of journals. A `score_updated` event whose `journal_id` is no integer
 * rejects with a `WebhookPayloadError`, as `client.cache.apply` does, rather than invalidating the
 * lists alone; what is no `score_updated` event is ignored.
 */
export async function invalidateEvent(
  queryClient: InvalidatingClient,
  prefix: readonly unknown[],
  event: WebhookEvent,
): Promise<void> {
  if (event?.event !== 'score_updated') return;
  // Checked as client.cache.apply checks it: a journal id that is no integer would leave the
  // journal's own queries stale while the lists were invalidated.
  const journalId = (event as { journal_id?: unknown }).journal_id;
  if (!Number.isSafeInteger(journalId)) {
    throw new WebhookPayloadError(
      'queries.invalidate takes a score_updated event with an integer journal_id',
    );
  }
  await Promise.all(
    endpointList.map(
      ({ name, scoreEvent }) =>
        scoreEvent &&
        queryClient.invalidateQueries({
          // A list's key without its parameters is the prefix of every list asked for.
          queryKey: scoreEvent.of === 'journal' ? [...prefix, name, journalId] : [...prefix, name],
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

import { endpointList } from '../api/endpoints.js';
import { ConfigurationError } from '../core/errors.js';
import type { WebhookEvent } from '../webhooks/event.js';
import type { InvalidatingClient } from './types.js';

/**
 * Invalidates (and so refetches, when observed) every query a `score_updated` event makes stale, read
 * from the endpoints' `scoreEvent`: each answer about the journal itself (its profile, its score
 * history), and every list of journals.
 */
export async function invalidateEvent(
  queryClient: InvalidatingClient,
  prefix: readonly unknown[],
  event: WebhookEvent,
): Promise<void> {
  if (event?.event !== 'score_updated') return;
  await Promise.all(
    endpointList.map(
      ({ name, scoreEvent }) =>
        scoreEvent &&
        queryClient.invalidateQueries({
          // A list's key without its parameters is the prefix of every list asked for.
          queryKey: scoreEvent.of === 'journal' ? [...prefix, name, event.journal_id] : [...prefix, name],
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

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
    endpointList.map(({ name, scoreEvent }) => {
      if (!scoreEvent) return undefined;
      // A list's key without its parameters is the prefix of every list asked for.
      const queryKey = scoreEvent.of === 'journal' ? [...prefix, name, journalId] : [...prefix, name];
      return inTurn(queryClient, JSON.stringify(queryKey), () => queryClient.invalidateQueries({ queryKey }));
    }),
  );
}

/** A key's invalidation under way, and the one to follow it when an event came while it ran. */
interface Turns {
  running: Promise<void>;
  next?: Promise<void> | undefined;
}

const turnsOf = new WeakMap<InvalidatingClient, Map<string, Turns>>();

/**
 * `invalidate` at once, or, while the key's last invalidation is still refetching, once more after
 * it, for every event that came meanwhile. A burst of events (scores recomputed together) then
 * refetches a list twice, not once per event, each aborting the one before and spending the key's
 * requests on answers nobody reads; the last refetch still starts after the last event.
 */
function inTurn(
  queryClient: InvalidatingClient,
  key: string,
  invalidate: () => Promise<void>,
): Promise<void> {
  const turns = turnsOf.get(queryClient) ?? new Map<string, Turns>();
  turnsOf.set(queryClient, turns);
  const start = (): Promise<void> => {
    // Started from a promise: an invalidation that throws at once (a cache listener's error) rejects
    // this event alone, and the next one starts afresh.
    const turn: Turns = {
      running: Promise.resolve()
        .then(invalidate)
        .finally(() => {
          if (!turn.next) turns.delete(key);
        }),
    };
    turns.set(key, turn);
    return turn.running;
  };
  const current = turns.get(key);
  if (!current) return start();
  current.next ??= current.running.catch(() => {}).then(start);
  return current.next;
}

/** `queryClient` when it can invalidate, or a `ConfigurationError` naming it (not a TypeError later). */
export function checkQueryClient(queryClient: InvalidatingClient): InvalidatingClient {
  if (typeof (queryClient as Partial<InvalidatingClient> | null)?.invalidateQueries !== 'function') {
    throw new ConfigurationError('queryClient', '`queryClient` must be a QueryClient');
  }
  return queryClient;
}

import type { MutableDataset } from './dataset.js';
import { quartileOf } from './identifiers.js';
import { formatTimestamp } from './webhooks.js';

/**
 * Changes journal `journalId`'s score in `dataset` (its quartile and today's history point with it)
 * and returns the `score_updated` event that says so. A score equal to the current one is refused:
 * the service fires an event only on a change.
 */
export function updateScoreIn(dataset: MutableDataset, journalId: number, newScore: number, now: number) {
  const journal = dataset.journal(journalId);
  if (journal === undefined) throw new RangeError(`No journal with id ${journalId}`);
  if (!Number.isSafeInteger(newScore) || newScore < 0) {
    throw new RangeError(`newScore must be a non-negative integer, got ${newScore}`);
  }
  if (newScore === journal.metric_score) {
    throw new RangeError(
      `Journal ${journalId} already has score ${newScore}: an event fires only on a change`,
    );
  }
  const timestamp = formatTimestamp(now);
  const date = timestamp.slice(0, 10);
  const quartile = quartileOf(newScore);
  const older = journal.history[0]?.date === date ? journal.history.slice(1) : journal.history;
  dataset.replaceJournal({
    ...journal,
    metric_score: newScore,
    quartile,
    history: [{ date, score: newScore }, ...older],
  });
  return {
    event: 'score_updated',
    journal_id: journal.id,
    old_score: journal.metric_score,
    new_score: newScore,
    quartile,
    timestamp,
  } as const;
}

import type { MutableDataset } from './dataset.js';
import { quartileOf } from './identifiers.js';
import { formatTimestamp } from './webhooks.js';

/**
 * Changes journal `journalId`'s score in `dataset` (its quartile and today's history point with it)
 * and returns the `score_updated` event that says so. A score equal to the current one is refused:
 * the service fires an event only on a change. So is a clock whose day comes before the latest
 * history entry, which would leave the history out of order.
 */
export function updateScoreIn(dataset: MutableDataset, journalId: number, newScore: number, now: number) {
  // An id that is no integer is a mistake of the call, not a journal the dataset lacks.
  if (!Number.isSafeInteger(journalId)) {
    throw new TypeError(
      `journalId must be an integer, got ${JSON.stringify(journalId) ?? String(journalId)}`,
    );
  }
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
  const latest = journal.history[0]?.date;
  if (latest !== undefined && date < latest) {
    // The history lists the most recent entry first (API §2): an entry dated before it cannot lead.
    throw new RangeError(
      `The clock's day ${date} is before journal ${journalId}'s latest score entry (${latest}): give the mock a later \`now\``,
    );
  }
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

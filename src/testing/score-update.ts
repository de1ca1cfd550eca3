import { describeValue } from '../core/describe-value.js';
import type { MutableDataset } from './dataset.js';
import type { MockDataset, MockJournal } from './dataset-types.js';
import { quartileOf } from './identifiers.js';
import { formatTimestamp } from './webhooks.js';

/** A score update naming a journal the dataset lacks: the control route answers it 404, as the API does. */
export class UnknownJournalError extends RangeError {}

/** The two fields of a score update as the caller wrote them: `journalId` in-process, `journal_id` sent. */
export type ScoreFieldNames = readonly [journalId: string, newScore: string];

/**
 * The journal a score update names, once its fields are checked: an id that is no integer is a
 * mistake of the call (TypeError), not a journal the dataset lacks (UnknownJournalError); a score must
 * be a non-negative integer (RangeError). Each refusal names the field as `names` says.
 */
export function checkScoreUpdate(
  dataset: MockDataset,
  journalId: unknown,
  newScore: unknown,
  names: ScoreFieldNames = ['journalId', 'newScore'],
): MockJournal {
  if (!Number.isSafeInteger(journalId)) {
    throw new TypeError(`${names[0]} must be an integer, got ${describeValue(journalId)}`);
  }
  const journal = dataset.journal(journalId as number);
  if (journal === undefined) throw new UnknownJournalError(`No journal with id ${journalId}`);
  if (!Number.isSafeInteger(newScore) || (newScore as number) < 0) {
    throw new RangeError(`${names[1]} must be a non-negative integer, got ${describeValue(newScore)}`);
  }
  return journal;
}

/**
 * Changes journal `journalId`'s score in `dataset` (its quartile and today's history point with it)
 * and returns the `score_updated` event that says so. A score equal to the current one is refused:
 * the service fires an event only on a change. So is a clock whose day comes before the latest
 * history entry, which would leave the history out of order.
 */
export function updateScoreIn(dataset: MutableDataset, journalId: number, newScore: number, now: number) {
  const journal = checkScoreUpdate(dataset, journalId, newScore);
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

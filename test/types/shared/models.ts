// Models name their documented fields only: a typo is a compile error; an extra field is opted into.
import type { Journal, JournalProfile, PaperSummary, ScoreUpdatedEvent } from 'scholarly-metrics';
import type { MockScoreUpdatedEvent } from 'scholarly-metrics/testing';

export function fields(journal: Journal, profile: JournalProfile, summary: PaperSummary): unknown[] {
  // @ts-expect-error: `metricScore` is not a field (the wire name is metric_score)
  const typo = journal.metricScore;
  // @ts-expect-error: not a field of a profile either
  const other = profile.issn_l;
  // A field the server added is there at run time; the docs show how to read it.
  const extra = (journal as Journal & { extra?: unknown }).extra;
  const oa: boolean | undefined = summary.oa;
  const journalId: number | undefined = summary.journal_id;
  return [typo, other, extra, oa, journalId];
}

export function mockEvent(event: MockScoreUpdatedEvent): ScoreUpdatedEvent {
  return event;
}

export function eventTypo(event: ScoreUpdatedEvent): unknown {
  // @ts-expect-error: the wire name is journal_id
  return event.journalId;
}

export function quartile(journal: Journal): string {
  // Quartile keeps its labels and takes any string; the model's type leaves it as it is.
  const label: 'Q1' | 'Q2' | 'Q3' | 'Q4' | (string & {}) = journal.quartile;
  const back: Journal['quartile'] = 'Q5 (provisional)';
  return label + back.toUpperCase();
}

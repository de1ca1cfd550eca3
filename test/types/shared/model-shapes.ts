// Every public model's exact shape, written out from the API document's field tables (§2, and §6 for
// the score_updated event), and from today's types where the document says "not shown" (the paper
// search element, an author profile's `papers`, the quartile labels). The models are built from their
// zod schemas (`Fields<z.infer<…>>`), so the API report prints no field of theirs: this file is what
// fails when a field is dropped, renamed, added, made optional, nullable or readonly, or changes type.
// Changing a model on purpose means changing its shape here too, in the same change.
import type {
  Author,
  AuthorProfile,
  Country,
  Journal,
  JournalPaper,
  JournalProfile,
  MetricError,
  Paper,
  PaperResult,
  PaperSummary,
  PlainPage,
  Quartile,
  ScoreEvent,
  ScoreHistory,
  ScorePoint,
  ScoreUpdatedEvent,
  Subject,
  WebhookEvent,
} from 'scholarly-metrics';
import type { PlainPage as QueryPlainPage } from 'scholarly-metrics/query';
import type { MockScoreUpdatedEvent } from 'scholarly-metrics/testing';
import type {
  Quartile as WebhooksQuartile,
  ScoreUpdatedEvent as WebhooksScoreUpdatedEvent,
  WebhookEvent as WebhooksWebhookEvent,
} from 'scholarly-metrics/webhooks';

/**
 * True when A and B are the same type: identical, not only assignable both ways, which would let a
 * readonly field equal a mutable one and an `any` equal anything.
 */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** A compile error ("Type 'false' does not satisfy the constraint 'true'") on the line that is not. */
type Exact<T extends true> = T;

// The check tells apart what the models' fields may differ in: each line here must fail, or the checks
// below prove nothing. (`a?: number` and `a?: number | undefined`, two types under the settings'
// exactOptionalPropertyTypes, are told apart by TypeScript 6 and 7, not by 5.5: not listed here.)
export type EqualIsStrict = [
  // @ts-expect-error: a required field is not an optional one
  Exact<Equal<{ a: number }, { a?: number }>>,
  // @ts-expect-error: nor a nullable one
  Exact<Equal<{ a: number }, { a: number | null }>>,
  // @ts-expect-error: nor a readonly one
  Exact<Equal<{ a: number }, { readonly a: number }>>,
  // @ts-expect-error: nor of another type
  Exact<Equal<{ a: number }, { a: string }>>,
  // @ts-expect-error: an added field is a difference too
  Exact<Equal<{ a: number }, { a: number; b: number }>>,
  // @ts-expect-error: and so is a renamed one
  Exact<Equal<{ a: number }, { b: number }>>,
];

/** `quartile`: the document shows Q1 only; the usual four are named for completion, any string goes. */
export type QuartileShape = 'Q1' | 'Q2' | 'Q3' | 'Q4' | (string & {});

/** A journal list element (`GET /journals`). */
export type JournalShape = {
  id: number;
  name: string;
  issn: string;
  metric_score: number;
  quartile: QuartileShape;
  country_id: number;
  field_id: number;
  total_papers: number;
  total_cites: number;
};

/** A journal's full profile (`GET /journals/{id}`). */
export type JournalProfileShape = {
  id: number;
  name: string;
  metric_score: number;
  quartile: QuartileShape;
  description: string;
  oa: boolean;
};

/** An element of a journal's papers (`GET /journals/{id}/papers`). */
export type JournalPaperShape = {
  id: number;
  title: string;
  authors: string;
  year: number;
  citations: number;
};

/** One entry of a score history: `date` is `YYYY-MM-DD`. */
export type ScorePointShape = { date: string; score: number };

/** A journal's score history (`GET /journals/{id}/score`). */
export type ScoreHistoryShape = {
  current: number;
  quartile: QuartileShape;
  history: ScorePointShape[];
};

/** A paper (`GET /papers/{doi}`). */
export type PaperShape = {
  id: number;
  title: string;
  authors: string;
  doi: string;
  year: number;
  citations: number;
  abstract: string;
};

/**
 * A paper search element (`GET /papers`) and an author profile's paper: "not shown" in the document,
 * so every field is optional, and `oa` and `journal_id` are the SDK's expectation, not the document's.
 */
export type PaperSummaryShape = {
  id?: number;
  title?: string;
  authors?: string;
  doi?: string;
  year?: number;
  citations?: number;
  oa?: boolean;
  journal_id?: number;
};

/** An author list element (`GET /authors`). */
export type AuthorShape = {
  id: number;
  name: string;
  affil: string;
  total_papers: number;
  total_cites: number;
};

/** An author's profile (`GET /authors/{id}`). */
export type AuthorProfileShape = {
  id: number;
  name: string;
  orcid: string;
  affil: string;
  h_index: number;
  papers: PaperSummaryShape[];
};

/** A subject (`GET /subjects`). */
export type SubjectShape = {
  id: number;
  name: string;
  slug: string;
  journals: number;
  papers: number;
  citations: number;
};

/** A country (`GET /countries`). */
export type CountryShape = {
  id: number;
  name: string;
  flag: string;
  journals: number;
  papers: number;
  citations: number;
};

/** The `score_updated` webhook event (§6); `timestamp` is `YYYY-MM-DDThh:mm:ssZ`. */
export type ScoreUpdatedEventShape = {
  event: 'score_updated';
  journal_id: number;
  old_score: number;
  new_score: number;
  quartile: QuartileShape;
  timestamp: string;
};

/** A page as `page.toJSON()` and scholarly-metrics/query give it: readonly, `nextPage` always present. */
export type PlainPageShape<T> = {
  readonly data: T[];
  readonly total: number;
  readonly page: number;
  readonly nextPage: number | undefined;
};

/** One result of `papers.getMany`: a paper or an error, never both. */
export type PaperResultShape =
  | { readonly doi: string; readonly paper: PaperShape; readonly error?: undefined }
  | { readonly doi: string; readonly paper?: undefined; readonly error: MetricError };

export type ModelShapes = [
  Exact<Equal<Quartile, QuartileShape>>,
  Exact<Equal<WebhooksQuartile, QuartileShape>>,
  Exact<Equal<Journal, JournalShape>>,
  Exact<Equal<JournalProfile, JournalProfileShape>>,
  Exact<Equal<JournalPaper, JournalPaperShape>>,
  Exact<Equal<ScorePoint, ScorePointShape>>,
  Exact<Equal<ScoreHistory, ScoreHistoryShape>>,
  Exact<Equal<Paper, PaperShape>>,
  Exact<Equal<PaperSummary, PaperSummaryShape>>,
  Exact<Equal<Author, AuthorShape>>,
  Exact<Equal<AuthorProfile, AuthorProfileShape>>,
  Exact<Equal<Subject, SubjectShape>>,
  Exact<Equal<Country, CountryShape>>,
  Exact<Equal<ScoreUpdatedEvent, ScoreUpdatedEventShape>>,
  Exact<Equal<WebhooksScoreUpdatedEvent, ScoreUpdatedEventShape>>,
  Exact<Equal<WebhookEvent, ScoreUpdatedEventShape>>,
  Exact<Equal<WebhooksWebhookEvent, ScoreUpdatedEventShape>>,
  // The deprecated aliases stay the same type.
  // The deprecated name keeps its 0.4 meaning: what `cache.apply` reads, its kind and journal required.
  Exact<
    Equal<ScoreEvent, Pick<ScoreUpdatedEventShape, 'event' | 'journal_id'> & Partial<ScoreUpdatedEventShape>>
  >,
  Exact<Equal<MockScoreUpdatedEvent, ScoreUpdatedEventShape>>,
  Exact<Equal<PlainPage<JournalPaper>, PlainPageShape<JournalPaperShape>>>,
  Exact<Equal<PlainPage<PaperSummary>, PlainPageShape<PaperSummaryShape>>>,
  Exact<Equal<QueryPlainPage<PaperSummary>, PlainPageShape<PaperSummaryShape>>>,
  Exact<Equal<PaperResult, PaperResultShape>>,
];

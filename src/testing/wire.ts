import type {
  MockAuthor,
  MockCountry,
  MockDataset,
  MockJournal,
  MockPaper,
  MockSubject,
} from './dataset-types.js';

// The exact wire shapes of API §2: only the documented fields, in the documented order.

export const journalListItem = (j: MockJournal) => ({
  id: j.id,
  name: j.name,
  issn: j.issn,
  metric_score: j.metric_score,
  quartile: j.quartile,
  country_id: j.country_id,
  field_id: j.field_id,
  total_papers: j.total_papers,
  total_cites: j.total_cites,
});

export const journalProfile = (j: MockJournal) => ({
  id: j.id,
  name: j.name,
  metric_score: j.metric_score,
  quartile: j.quartile,
  description: j.description,
  oa: j.oa,
});

export const journalScore = (j: MockJournal) => ({
  current: j.metric_score,
  quartile: j.quartile,
  history: j.history.map(({ date, score }) => ({ date, score })),
});

export const journalPaper = (p: MockPaper) => ({
  id: p.id,
  title: p.title,
  authors: p.authors,
  year: p.year,
  citations: p.citations,
});

/** The fields every paper shape of the API shares. */
const paperFields = (p: MockPaper) => ({
  id: p.id,
  title: p.title,
  authors: p.authors,
  doi: p.doi,
  year: p.year,
  citations: p.citations,
});

/** Element of the paper search's `data` (a gap in the API document: the mock's choice). */
export const paperSearchItem = (p: MockPaper) => ({ ...paperFields(p), oa: p.oa, journal_id: p.journal_id });

export const paper = (dataset: MockDataset, p: MockPaper) => ({
  ...paperFields(p),
  abstract: dataset.abstractOf(p),
});

export const authorListItem = (a: MockAuthor) => ({
  id: a.id,
  name: a.name,
  affil: a.affil,
  total_papers: a.total_papers,
  total_cites: a.total_cites,
});

/** Author profile; its `papers` elements are a gap in the API document: the mock's choice. */
export const authorProfile = (dataset: MockDataset, a: MockAuthor) => ({
  id: a.id,
  name: a.name,
  orcid: a.orcid,
  affil: a.affil,
  h_index: a.h_index,
  papers: a.paper_ids.map((id) => {
    const p = dataset.paper(id)!;
    return { id: p.id, title: p.title, doi: p.doi, year: p.year, citations: p.citations };
  }),
});

export const subject = (s: MockSubject) => ({
  id: s.id,
  name: s.name,
  slug: s.slug,
  journals: s.journals,
  papers: s.papers,
  citations: s.citations,
});

export const country = (c: MockCountry) => ({
  id: c.id,
  name: c.name,
  flag: c.flag,
  journals: c.journals,
  papers: c.papers,
  citations: c.citations,
});

import { describe, expect, it } from 'vitest';
import { createMockApi, MOCK_DOIS } from '../../src/testing/index.js';
import { smallSizes } from './helpers.js';

const regionalIndicator = /^[\u{1F1E6}-\u{1F1FF}]{2}$/u;

function issnValid(issn: string): boolean {
  const digits = issn.replace('-', '');
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(digits[i]) * (8 - i);
  const check = (11 - (sum % 11)) % 11;
  return /^\d{4}-\d{3}[\dX]$/.test(issn) && digits[7] === (check === 10 ? 'X' : String(check));
}

function orcidValid(orcid: string): boolean {
  const digits = orcid.replaceAll('-', '');
  let total = 0;
  for (const d of digits.slice(0, 15)) total = (total + Number(d)) * 2;
  const check = (12 - (total % 11)) % 11;
  return /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(orcid) && digits[15] === (check === 10 ? 'X' : String(check));
}

describe('the default dataset', () => {
  const { dataset } = createMockApi();

  it('has realistic sizes', () => {
    expect(dataset.journals).toHaveLength(400);
    expect(dataset.papers).toHaveLength(30_000);
    expect(dataset.authors).toHaveLength(3_000);
    expect(dataset.subjects).toHaveLength(25);
    expect(dataset.countries).toHaveLength(60);
  });

  it('numbers every kind from 1 without gaps', () => {
    for (const list of [
      dataset.journals,
      dataset.papers,
      dataset.authors,
      dataset.subjects,
      dataset.countries,
    ]) {
      expect(list.map((item) => item.id)).toEqual(list.map((_, i) => i + 1));
    }
  });

  it('contains the four awkward DOIs, each once', () => {
    for (const doi of MOCK_DOIS) {
      expect(dataset.papers.filter((paper) => paper.doi === doi)).toHaveLength(1);
      expect(dataset.paperByDoi(doi)?.doi).toBe(doi);
    }
    expect(new Set(dataset.papers.map((paper) => paper.doi)).size).toBe(dataset.papers.length);
  });

  it('gives countries flag emoji and leaves some without journals', () => {
    for (const country of dataset.countries) expect(country.flag).toMatch(regionalIndicator);
    const inactive = dataset.countries.filter((country) => country.journals === 0);
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.length).toBeLessThan(dataset.countries.length);
    for (const country of dataset.countries) {
      const letters = [...country.flag].map((c) => String.fromCharCode(c.codePointAt(0)! - 0x1f1e6 + 65));
      expect(letters.join('')).toBe(country.code);
    }
  });

  it('gives subjects kebab-case slugs', () => {
    for (const subject of dataset.subjects) expect(subject.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(dataset.subjects.find((s) => s.name === 'Arts & Humanities')?.slug).toBe('arts-humanities');
  });

  it('keeps score histories newest first, starting at the current score', () => {
    for (const journal of dataset.journals) {
      const dates = journal.history.map((entry) => entry.date);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(journal.history[0]?.score).toBe(journal.metric_score);
      for (const date of dates) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('has valid ISSN and ORCID check digits', () => {
    expect(dataset.journals.every((journal) => issnValid(journal.issn))).toBe(true);
    expect(dataset.authors.every((author) => orcidValid(author.orcid))).toBe(true);
  });

  it('keeps aggregate counts consistent with the records', () => {
    const papersOf = new Map<number, number>();
    const citesOf = new Map<number, number>();
    for (const paper of dataset.papers) {
      papersOf.set(paper.journal_id, (papersOf.get(paper.journal_id) ?? 0) + 1);
      citesOf.set(paper.journal_id, (citesOf.get(paper.journal_id) ?? 0) + paper.citations);
    }
    for (const journal of dataset.journals) {
      expect(journal.total_papers).toBe(papersOf.get(journal.id) ?? 0);
      expect(journal.total_cites).toBe(citesOf.get(journal.id) ?? 0);
      expect(dataset.journalPaperIds(journal.id)).toHaveLength(journal.total_papers);
    }
    const sum = (xs: readonly { papers: number }[]) => xs.reduce((a, x) => a + x.papers, 0);
    expect(sum(dataset.subjects)).toBe(dataset.papers.length);
    expect(sum(dataset.countries)).toBe(dataset.papers.length);
    const author = dataset.author(1)!;
    const cites = author.paper_ids.map((id) => dataset.paper(id)!.citations).sort((a, b) => b - a);
    expect(author.total_cites).toBe(cites.reduce((a, b) => a + b, 0));
    expect(cites.filter((c, i) => c >= i + 1).length).toBe(author.h_index);
  });

  it('links every paper to existing authors whose names make its author string', () => {
    for (const paper of dataset.papers.slice(0, 500)) {
      expect(paper.authors).toBe(paper.author_ids.map((id) => dataset.author(id)!.name).join(', '));
    }
  });

  it('freezes the shared records', () => {
    expect(Object.isFrozen(dataset.papers[0])).toBe(true);
    expect(() => (dataset.papers as unknown[]).push({})).toThrow(TypeError);
  });
});

describe('generation', () => {
  it('is deterministic: same seed and sizes, same data', () => {
    const a = createMockApi({ seed: 1234, sizes: smallSizes }).dataset;
    const b = createMockApi({ seed: 1234, sizes: { ...smallSizes } }).dataset;
    expect(b.journals).toEqual(a.journals);
    expect(b.papers).toEqual(a.papers);
    expect(b.abstractOf(b.papers[9]!)).toBe(a.abstractOf(a.papers[9]!));
  });

  it('differs for another seed', () => {
    const a = createMockApi({ seed: 1, sizes: smallSizes }).dataset;
    const b = createMockApi({ seed: 2, sizes: smallSizes }).dataset;
    expect(b.journals.map((j) => j.name)).not.toEqual(a.journals.map((j) => j.name));
  });

  it('honours configured sizes', () => {
    const { dataset } = createMockApi({
      sizes: { journals: 5, papers: 40, authors: 10, subjects: 3, countries: 4 },
    });
    expect([dataset.journals.length, dataset.papers.length, dataset.authors.length]).toEqual([5, 40, 10]);
    expect([dataset.subjects.length, dataset.countries.length]).toEqual([3, 4]);
    expect(dataset.papers.slice(0, 4).map((p) => p.doi)).toEqual(MOCK_DOIS);
  });

  it('refuses sizes it cannot honour', () => {
    expect(() => createMockApi({ sizes: { papers: -1 } })).toThrow(/sizes.papers/);
    expect(() => createMockApi({ sizes: { journals: 1.5 } })).toThrow(/sizes.journals/);
    expect(() => createMockApi({ sizes: { subjects: 31 } })).toThrow(/from 0 to 30/);
    expect(() => createMockApi({ sizes: { journals: 0, papers: 10 } })).toThrow(/papers need/);
    expect(() => createMockApi({ seed: 0.5 })).toThrow(/seed/);
  });

  it('reuses a generated dataset, so creating many mocks is cheap', () => {
    // The same seed and sizes share the records generated once; another seed gets records of its own.
    const [first, second] = [createMockApi().dataset, createMockApi().dataset];
    expect(second.authors).toBe(first.authors);
    expect(second.papers).toBe(first.papers);
    expect(createMockApi({ seed: 987_654 }).dataset.authors).not.toBe(first.authors);
    // Each mock's journals stay its own to change.
    expect(second.journals).not.toBe(first.journals);
  });

  it('gives each mock its own journals, so score changes never leak', async () => {
    const a = createMockApi({ sizes: smallSizes });
    const b = createMockApi({ sizes: smallSizes });
    const before = b.dataset.journal(1)!.metric_score;
    await a.updateScore(1, before + 1);
    expect(a.dataset.journal(1)!.metric_score).toBe(before + 1);
    expect(b.dataset.journal(1)!.metric_score).toBe(before);
    expect(createMockApi({ sizes: smallSizes }).dataset.journal(1)!.metric_score).toBe(before);
  });
});

import { describe, expect, it } from 'vitest';
import { MOCK_DOIS } from '../../src/testing/index.js';
import { useMockServer } from '../support.js';

// The SDK against the mock over real sockets, default dataset: every endpoint of API §4.
const mock = useMockServer();

describe('every endpoint, through the SDK', () => {
  it('journals.list: all 400 journals, typed', async () => {
    const journals = await mock.client().journals.list();
    expect(journals).toHaveLength(400);
    expect(journals[0]).toEqual({
      id: 1,
      name: mock.api.dataset.journal(1)!.name,
      issn: mock.api.dataset.journal(1)!.issn,
      metric_score: mock.api.dataset.journal(1)!.metric_score,
      quartile: mock.api.dataset.journal(1)!.quartile,
      country_id: mock.api.dataset.journal(1)!.country_id,
      field_id: mock.api.dataset.journal(1)!.field_id,
      total_papers: mock.api.dataset.journal(1)!.total_papers,
      total_cites: mock.api.dataset.journal(1)!.total_cites,
    });
  });

  it('journals.get, journals.score and journals.papers', async () => {
    const client = mock.client();
    const journal = mock.api.dataset.journal(17)!;
    expect(await client.journals.get(17)).toMatchObject({ id: 17, name: journal.name, oa: journal.oa });
    const score = await client.journals.score(17);
    expect(score.current).toBe(journal.metric_score);
    expect(score.history).toEqual(journal.history);
    const page = await client.journals.papers(17, { per_page: 5 });
    expect(page.total).toBe(journal.total_papers);
    expect(page.data.map((p) => p.id)).toEqual(mock.api.dataset.journalPaperIds(17).slice(0, 5));
  });

  it('papers.search with every filter, and papers.get', async () => {
    const client = mock.client();
    const page = await client.papers.search({
      q: 'climate',
      year: 2010,
      oa: true,
      sort: '-citations',
      per_page: 10,
    });
    const expected = mock.api.dataset.papers.filter(
      (p) => p.title.includes('climate') && p.year === 2010 && p.oa,
    );
    expect(page.total).toBe(expected.length);
    expect(page.data.every((p) => p.year === 2010 && p.oa)).toBe(true);
    expect(page.data[0]!.citations).toBe(Math.max(...expected.map((p) => p.citations)));
    const paper = await client.papers.get(page.data[0]!.doi!);
    expect(paper).toMatchObject({ id: page.data[0]!.id, doi: page.data[0]!.doi });
    expect(paper.abstract.length).toBeGreaterThan(20);
  });

  it('authors.list with filters and sort, and authors.get', async () => {
    const client = mock.client();
    const { country_id, field_id } = mock.api.dataset.author(1)!;
    const page = await client.authors.list({ country_id, field_id, sort: '-total_cites' });
    expect(page.data.map((a) => a.id)).toContain(1);
    expect(page.data.map((a) => a.total_cites)).toEqual(
      page.data.map((a) => a.total_cites).sort((a, b) => b - a),
    );
    const profile = await client.authors.get(1);
    expect(profile.papers).toHaveLength(mock.api.dataset.author(1)!.total_papers);
    expect(profile.h_index).toBe(mock.api.dataset.author(1)!.h_index);
  });

  it('subjects.list and countries.list with show', async () => {
    const client = mock.client();
    const subjects = await client.subjects.list();
    expect(subjects).toHaveLength(25);
    expect(subjects.every((s) => /^[a-z0-9-]+$/.test(s.slug))).toBe(true);
    const active = await client.countries.list();
    const all = await client.countries.list({ show: 'all' });
    expect(all).toHaveLength(60);
    expect(active.length).toBeLessThan(all.length);
    expect(active.every((c) => c.journals > 0)).toBe(true);
    expect(all.find((c) => c.journals === 0)?.flag).toMatch(/^\p{Regional_Indicator}{2}$/u);
  });
});

describe('DOIs round-trip end to end', () => {
  it.each(MOCK_DOIS)('%s', async (doi) => {
    const paper = await mock.client().papers.get(doi);
    expect(paper.doi).toBe(doi);
    expect(paper.id).toBe(MOCK_DOIS.indexOf(doi) + 1);
  });

  it('each went to the server as one encoded path segment', async () => {
    const client = mock.client();
    for (const doi of MOCK_DOIS) await client.papers.get(doi);
    const paths = mock.api.requests.map((r) => r.path);
    for (const path of paths) expect(path).toMatch(/^\/api\/v1\/papers\/[^/]+$/);
    expect(paths[0]).toBe('/api/v1/papers/10.1000%2Fabc%2Fdef');
  });
});

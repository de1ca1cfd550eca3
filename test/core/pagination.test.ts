import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, MetricError, Page, PagePromise } from '../../src/index.js';
import { testClient, useMsw } from '../support.js';
import { honest, journalPapersOn } from './pagination-setup.js';

const server = useMsw();
const journalPapers = journalPapersOn(server);

describe('awaiting', () => {
  it('gives the first page with data, total, page and navigation', async () => {
    journalPapers(honest(25));
    const page = await testClient().journals.papers(1, { per_page: 10 });
    expect(page).toBeInstanceOf(Page);
    expect(page.data.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(page.total).toBe(25);
    expect(page.page).toBe(1);
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second.page).toBe(2);
    const third = await second.getNextPage();
    expect(third.data).toHaveLength(5);
    expect(third.hasNextPage()).toBe(false);
    await expect(third.getNextPage()).rejects.toBeInstanceOf(MetricError);
  });

  it('refuses a name getNextPage() does not take, as the call refuses it, before sending', async () => {
    const asked = journalPapers(honest(25));
    const page = await testClient().journals.papers(1, { per_page: 10 });
    const refusal = await page.getNextPage({ timout: 5_000 } as never).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigurationError);
    expect((refusal as ConfigurationError).option).toBe('timout');
    expect(asked).toHaveLength(1);
    expect((await page.getNextPage({ timeout: 5_000 })).page).toBe(2);
  });

  it('starts at the page asked for', async () => {
    const asked = journalPapers(honest(25));
    const page = await testClient().journals.papers(1, { page: 3, per_page: 10 });
    expect(page.data[0]!.id).toBe(21);
    expect(page.hasNextPage()).toBe(false);
    expect(asked).toEqual([3]);
  });

  it('sends nothing until awaited or walked', async () => {
    const asked = journalPapers(honest(25));
    const pending = testClient().journals.papers(1);
    expect(pending).toBeInstanceOf(PagePromise);
    await delay(20);
    expect(asked).toEqual([]);
    await pending;
    expect(asked).toEqual([1]);
  });
});

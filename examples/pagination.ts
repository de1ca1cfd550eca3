/**
 * Pagination, four ways. Every list that can be long (`papers.search`, `journals.papers`,
 * `authors.list`) returns a PagePromise: await it for one page, or iterate it for everything.
 *
 *   npx node examples/pagination.ts      (after `npm run build`; starts its own mock)
 */
import { MetricClient } from 'scholarly-metrics';
import { MOCK_API_KEY, startMockServer } from 'scholarly-metrics/testing';

// With METRIC_BASE_URL set, the client reads it and METRIC_API_KEY. Without it, a mock of its own, with
// the mock's key (a real key you have exported is not sent to it).
const ownMock = process.env.METRIC_BASE_URL ? undefined : await startMockServer();
const client = new MetricClient(ownMock ? { apiKey: MOCK_API_KEY, baseUrl: ownMock.url } : {});

try {
  // 1. One page: `total` counts every match, not just this page.
  const first = await client.papers.search({ q: 'coral reefs', per_page: 5 });
  console.log(`1. page ${first.page}: ${first.data.length} of ${first.total} papers about coral reefs`);

  // 2. Page by page, by hand: hasNextPage() is false once `total` items were seen or a page is empty.
  let page = first;
  let pages = 1;
  while (page.hasNextPage() && pages < 3) {
    page = await page.getNextPage();
    pages++;
  }
  console.log(`2. walked by hand to page ${page.page}`);

  // 3. Every item of every page. Breaking out stops all further requests.
  const years = new Map<number, number>();
  for await (const paper of client.papers.search({ q: 'coral reefs', per_page: 100 })) {
    // Search results' fields are optional in the type: the API document leaves their shape open.
    if (paper.year !== undefined) years.set(paper.year, (years.get(paper.year) ?? 0) + 1);
  }
  const busiest = [...years].sort((a, b) => b[1] - a[1])[0]!;
  console.log(
    `3. ${[...years.values()].reduce((a, b) => a + b, 0)} papers; busiest year ${busiest[0]} (${busiest[1]})`,
  );

  // 4. Whole pages, e.g. to save each page in one database transaction.
  let count = 0;
  for await (const journalPage of client.journals.papers(1, { per_page: 10 }).pages()) {
    count += journalPage.data.length;
    if (journalPage.page === 1) console.log(`4. journal 1 has ${journalPage.total} papers; pages of 10:`);
  }
  console.log(`   read ${count} in all`);

  // Authors come in fixed pages of 20 (the API takes no per_page there); start anywhere with `page`.
  const authors = await client.authors.list({ sort: '-total_cites', page: 2 });
  console.log(
    `5. authors 21–40 by citations start with ${authors.data[0]!.name} (${authors.data[0]!.total_cites})`,
  );
} finally {
  await ownMock?.close();
}

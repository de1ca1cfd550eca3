/**
 * Many papers by DOI: `papers.getMany` looks them up a few at a time and answers for every DOI, in
 * the order given, so one DOI that is mistyped or unknown does not cost you the others.
 *
 *   npx node examples/bulk-dois.ts [doi …]     (after `npm run build`; starts its own mock)
 */
import { InvalidParameterError, MetricClient, MetricError, NotFoundError } from 'scholarly-metrics';
import { MOCK_API_KEY, MOCK_DOIS, startMockServer } from 'scholarly-metrics/testing';

// With METRIC_BASE_URL set, the client reads it and METRIC_API_KEY. Without it, a mock of its own, with
// the mock's key (a real key you have exported is not sent to it).
const ownMock = process.env.METRIC_BASE_URL ? undefined : await startMockServer();
const client = new MetricClient(ownMock ? { apiKey: MOCK_API_KEY, baseUrl: ownMock.url } : {});

// A reference list as it comes: a DOI repeated in capitals (looked up once), one that does not exist, one pasted as a
// link (only the bare DOI is accepted: strip `https://doi.org/` yourself).
const dois =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [...MOCK_DOIS, MOCK_DOIS[0]!.toUpperCase(), '10.9999/no-such-paper', 'https://doi.org/10.1000/xyz'];

try {
  const results = await client.papers.getMany(dois, { concurrency: 8 });
  const count = { found: 0, notFound: 0, refused: 0, failed: 0 };
  for (const result of results) {
    if (result.error === undefined) {
      count.found++;
      console.log(`found      ${result.doi}\n           ${result.paper.title} (${result.paper.year})`);
    } else if (result.error instanceof NotFoundError) {
      count.notFound++;
      console.log(`not found  ${result.doi}`);
    } else if (result.error instanceof InvalidParameterError) {
      count.refused++;
      console.log(`not a DOI  ${result.doi}`);
    } else {
      // A 5xx, a dropped connection or a malformed answer that outlasted the retries.
      count.failed++;
      console.log(`failed     ${result.doi}: ${result.error.message}`);
    }
  }
  console.log(
    `\n${dois.length} DOIs: ${count.found} found, ${count.notFound} not found, ` +
      `${count.refused} not a DOI, ${count.failed} failed`,
  );
} catch (error) {
  // The whole call failed: a bad key (401), no API access (403), a rate limit that will not clear soon
  // (429), or an abort. Nothing is left running.
  if (!(error instanceof MetricError)) throw error;
  console.error(`lookup stopped: ${error.name}: ${error.message}`);
  process.exitCode = 1;
} finally {
  await ownMock?.close();
}

/**
 * A five-minute tour of the SDK, run by `npm start` against the built-in mock API: no key, no network.
 *
 *   npm start                        # builds if needed, starts the mock, runs this file
 *   npx node examples/quickstart.ts  # the same, with a mock started in-process (after `npm run build`)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MetricClient, NotFoundError, type ScoreUpdatedEvent } from 'scholarly-metrics';
import { MOCK_API_KEY, mockControl, startMockServer } from 'scholarly-metrics/testing';
import { createNodeWebhookHandler } from 'scholarly-metrics/webhooks';

const tty = process.stdout.isTTY === true;
const bold = (text: string) => (tty ? `\x1b[1m${text}\x1b[22m` : text);
const dim = (text: string) => (tty ? `\x1b[2m${text}\x1b[22m` : text);
const say = (line = '') => process.stdout.write(`${line}\n`);

// `npm start` passes the mock's address and key in the environment, exactly as you would pass the real
// service's: the client reads METRIC_BASE_URL and METRIC_API_KEY. Run alone, the tour starts a mock of
// its own and uses the mock's key (a real key you have exported is not sent to it).
const ownMock = process.env.METRIC_BASE_URL ? undefined : await startMockServer({ control: true });
const client = new MetricClient(ownMock ? { apiKey: MOCK_API_KEY, baseUrl: ownMock.url } : {});
const { baseUrl } = client;

try {
  say(bold('Scholarly Metrics SDK: a short tour'));
  say(dim(`against the mock API at ${baseUrl}`));

  // 1. Plain calls: every journal, typed; then each leader's score history, fetched concurrently.
  say();
  say(bold('1. The five best-scored journals, with their score trend'));
  const journals = await client.journals.list();
  const top = [...journals].sort((a, b) => b.metric_score - a.metric_score).slice(0, 5);
  const histories = await Promise.all(top.map((journal) => client.journals.score(journal.id)));
  top.forEach((journal, i) => {
    // A trend reads oldest first; the API promises no order, so the points are sorted by date.
    const history = [...histories[i]!.history].sort((a, b) => a.date.localeCompare(b.date));
    const trend = sparkline(history.map((h) => h.score)).padStart(12);
    say(`   ${String(journal.metric_score).padStart(3)}  ${journal.quartile}  ${trend}  ${journal.name}`);
  });
  say(dim(`   (${journals.length} journals in all)`));

  // 2. One score history in full.
  const star = top[0]!;
  const { history } = histories[0]!;
  say();
  say(bold(`2. Score history of ${star.name}`));
  say(`   ${history.map((h) => `${h.date.slice(0, 4)}: ${h.score}`).join(dim(' · '))}`);

  // 3. Pagination: `.pages()` walks every page; the SDK stops when it has seen `total` items.
  say();
  say(bold('3. Every paper about "climate", page by page'));
  let seen = 0;
  // Search results are passed through as sent (the API document leaves their shape open), so
  // every field is optional in the type.
  let mostCited = { title: '', citations: -1 };
  for await (const page of client.papers.search({ q: 'climate', per_page: 100 }).pages()) {
    seen += page.data.length;
    for (const { title = '?', citations = 0 } of page.data) {
      if (citations > mostCited.citations) mostCited = { title, citations };
    }
    if (tty)
      process.stdout.write(
        `\r   ${progressBar(seen / page.total)} ${seen}/${page.total} papers, page ${page.page}`,
      );
  }
  if (tty) process.stdout.write('\n');
  else say(`   ${progressBar(1)} ${seen} papers`);
  say(`   most cited: "${mostCited.title}" (${mostCited.citations} citations)`);

  // 4. A DOI lookup: the SDK encodes the DOI as one path segment, slashes and all.
  const doi = '10.1002/(SICI)1097-4636(199709)36:4<517::AID-JBM10>3.0.CO;2-K';
  const paper = await client.papers.get(doi);
  say();
  say(bold('4. A paper by DOI'));
  say(`   ${doi}`);
  say(`   "${paper.title}", ${paper.authors} (${paper.year})`);

  // 5. Errors are typed: catch the one you expect, let the others through.
  say();
  say(bold('5. An error, handled'));
  try {
    await client.journals.get(999_999);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    say(`   ${error.name}: ${error.message}`);
  }

  // 6. Webhooks: a receiver of your own, and the mock standing in for the service's dashboard.
  say();
  say(bold('6. A webhook, received and parsed'));
  const event = await receiveOneScoreUpdate(star.id, star.metric_score - 3);
  say(
    `   received ${event.event}: journal ${event.journal_id}, ${event.old_score} → ${event.new_score} (${event.quartile}) at ${event.timestamp}`,
  );
  say(`   the API agrees: current score ${(await client.journals.score(star.id)).current}`);

  say();
  say(
    `Done. More in examples/: ${dim('pagination.ts, error-handling.ts, webhook-receiver-node.ts, webhook-receiver-fetch.ts, browser/')}`,
  );
} finally {
  await ownMock?.close();
}

/** Starts a receiver, has the mock change a score, and resolves with the event the receiver parsed. */
async function receiveOneScoreUpdate(journalId: number, newScore: number): Promise<ScoreUpdatedEvent> {
  let resolveEvent!: (event: ScoreUpdatedEvent) => void;
  const received = new Promise<ScoreUpdatedEvent>((resolve) => {
    resolveEvent = resolve;
  });
  const receiver = createServer(createNodeWebhookHandler((event) => resolveEvent(event)));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  say(dim(`   receiver listening at ${hookUrl}`));
  const control = mockControl(baseUrl);
  try {
    await control.subscribe(hookUrl);
    const { deliveries } = await control.updateScore(journalId, newScore);
    if (!deliveries[0]?.ok) throw new Error(`The webhook was not delivered: ${JSON.stringify(deliveries)}`);
    return await received;
  } finally {
    await control.unsubscribe(hookUrl);
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

function sparkline(values: readonly number[]): string {
  const bars = '▁▂▃▄▅▆▇█';
  const min = Math.min(...values);
  const span = Math.max(...values) - min || 1;
  return values.map((v) => bars[Math.round(((v - min) / span) * (bars.length - 1))]).join('');
}

function progressBar(fraction: number, width = 24): string {
  const filled = Math.round(Math.min(1, fraction) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

// The checks Deno and workerd run on the packed package (scripts/test-deno.mjs, scripts/test-workerd.mjs),
// against a mock server the Node parent started with its control endpoints on. Only web-standard APIs
// here (no `node:` module, no runtime global): the same file runs in both runtimes.
import { MetricClient, MetricError, NotFoundError, TimeoutError } from 'scholarly-metrics';
import { parseWebhookEvent, WebhookPayloadError } from 'scholarly-metrics/webhooks';
import { checkEncodedWebhooks, scoreUpdatedBody } from './encoded-webhooks.js';

/** One request the client sent, as the runtime's own `fetch` saw it. */
interface SentRequest {
  path: string;
  status: number | 'pending' | 'failed';
}

function pageOf(request: SentRequest): string | null {
  return new URLSearchParams(request.path.split('?')[1]).get('page');
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('check failed: expected a rejection, the call resolved');
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Queues one fault on the mock through its control endpoint (`POST /__mock/faults`). */
async function queueFault(origin: string, fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${origin}/__mock/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  check(response.status === 202, `the mock refused the fault ${JSON.stringify(fault)}: ${response.status}`);
  await response.body?.cancel();
}

/** What each check works with: the client, the attempts it sent, the mock, and the lines passed. */
interface Smoke {
  readonly client: MetricClient;
  readonly sent: SentRequest[];
  readonly origin: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly passed: string[];
}

/**
 * The runtime's own `fetch`, recording every attempt in `sent` as it starts, so that retries and the
 * requests a walk makes can be counted; a path is recorded from `basePath` on.
 */
function recordingFetch(sent: SentRequest[], basePath: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const request: SentRequest = {
      path: url.pathname.slice(basePath.length) + url.search,
      status: 'pending',
    };
    sent.push(request);
    try {
      const response = await fetch(input, init);
      request.status = response.status;
      return response;
    } catch (error) {
      request.status = 'failed';
      throw error;
    }
  };
}

/** journals.list() and journals.get(); resolves to a journal with more than 6 papers, for the walk. */
async function checkJournals({ client, passed }: Smoke): Promise<number> {
  const journals = await client.journals.list();
  check(journals.length > 0, 'journals.list() returned no journal');
  const journal = journals.find((j) => j.total_papers > 6);
  check(journal !== undefined, 'no journal with more than 6 papers');
  const profile = await client.journals.get(journal.id);
  check(
    profile.id === journal.id && profile.name === journal.name,
    'journals.get() returned another journal',
  );
  passed.push(`journals: list (${journals.length}) and get (${profile.name})`);
  return journal.id;
}

/** A walk broken after 5 papers asks for the pages it needs and one ahead; resolves to those requests. */
async function checkWalk({ client, sent, passed }: Smoke, journalId: number): Promise<SentRequest[]> {
  sent.length = 0;
  let walked = 0;
  for await (const paper of client.journals.papers(journalId, { per_page: 2 })) {
    check(typeof paper.title === 'string', 'a walked paper has no title');
    if (++walked === 5) break;
  }
  check(walked === 5, `the walk yielded ${walked} papers before the break, not 5`);
  // 5 papers at 2 a page take pages 1–3; a walk also requests one page ahead by default (`prefetch`).
  const pages = [...sent];
  check(
    pages.slice(0, 3).every((request, i) => request.status === 200 && pageOf(request) === String(i + 1)) &&
      pages.length <= 4,
    `the walk should request pages 1 to 3, and at most page 4 ahead: ${JSON.stringify(pages)}`,
  );
  passed.push(
    `walk: for await with a break after 5 papers: ${pages.length} pages requested, none after the break`,
  );
  return pages;
}

/** A missing journal is a NotFoundError; by then the walk's requests have all settled, and no more came. */
async function checkNotFound({ client, sent, passed }: Smoke, pages: SentRequest[]): Promise<void> {
  const missing = await rejection(client.journals.get(999_999_999));
  check(
    missing instanceof NotFoundError && missing.status === 404 && missing instanceof MetricError,
    `a missing journal should be a NotFoundError, got ${describe(missing)}`,
  );
  passed.push('404: NotFoundError');
  // By now the page requested ahead has been answered or aborted, and the walk has asked for no other.
  const settled = pages.every((request) => request.status !== 'pending');
  check(settled, `a page request outlived the walk's break: ${JSON.stringify(pages)}`);
  check(
    !sent.slice(pages.length).some((request) => request.path.includes('/papers')),
    'the walk went on after the break',
  );
}

/** A 500 is retried once; resolves to the count of subjects the retry brought. */
async function checkRetry({ client, sent, origin, passed }: Smoke): Promise<number> {
  sent.length = 0;
  await queueFault(origin, { status: 500 });
  const subjects = await client.subjects.list();
  check(subjects.length > 0, 'subjects.list() returned no subject');
  const statuses = sent.map((request) => request.status);
  check(
    statuses.length === 2 && statuses[0] === 500 && statuses[1] === 200,
    `a 500 then a 200 were expected (one retry), got ${JSON.stringify(sent)}`,
  );
  passed.push('500: retried once, then succeeded');
  return subjects.length;
}

/** A 307 back to the same URL is followed once, to the same subjects. */
async function checkRedirect({ apiKey, baseUrl, passed }: Smoke, subjectCount: number): Promise<void> {
  // A redirect within the API's origin is followed by a module loaded with the first redirect.
  let moved = 0;
  const movingFetch: typeof fetch = async (input, init) => {
    if (moved++ > 0) return fetch(input, init);
    const location = input instanceof Request ? input.url : String(input);
    return new Response(null, { status: 307, headers: { location } });
  };
  const movedSubjects = await new MetricClient({ apiKey, baseUrl, fetch: movingFetch }).subjects.list();
  check(
    movedSubjects.length === subjectCount && moved === 2,
    `a 307 within the origin should be followed once, got ${moved} requests`,
  );
  passed.push('307 within the origin: followed (its module loaded on demand)');
}

/** An answer delayed past the call's timeout is a TimeoutError, sent once with maxRetries 0. */
async function checkTimeout({ client, sent, origin, passed }: Smoke): Promise<void> {
  sent.length = 0;
  await queueFault(origin, { delayMs: 10_000 });
  const started = Date.now();
  const slow = await rejection(client.journals.list({ timeout: 300, maxRetries: 0 }));
  const waited = Date.now() - started;
  // Had the timeout not struck, the answer would have come, 10 s late but valid: the error is the proof.
  check(slow instanceof TimeoutError, `a slow answer should be a TimeoutError, got ${describe(slow)}`);
  check(sent.length === 1, `maxRetries: 0 should send 1 request, sent ${JSON.stringify(sent)}`);
  passed.push(`timeout: TimeoutError after ${waited} ms (timeout 300 ms, answer delayed 10 s)`);
}

/** parseWebhookEvent reads a score_updated body and refuses another event; then the encoded bodies. */
async function checkWebhooks({ passed }: Smoke): Promise<void> {
  const event = parseWebhookEvent(new TextEncoder().encode(scoreUpdatedBody));
  check(
    event.event === 'score_updated' && event.journal_id === 7 && event.new_score === 64,
    `parseWebhookEvent read ${JSON.stringify(event)}`,
  );
  const refused = (() => {
    try {
      parseWebhookEvent('{"event":"journal_deleted","journal_id":7}');
    } catch (error) {
      return error;
    }
    return undefined;
  })();
  check(
    refused instanceof WebhookPayloadError && refused.message.includes('journal_deleted'),
    `an unknown event should be a WebhookPayloadError naming it, got ${describe(refused)}`,
  );
  passed.push('webhooks: parseWebhookEvent parses a score_updated body and refuses another event');
  passed.push(await checkEncodedWebhooks());
}

/**
 * Runs every check against the mock at `baseUrl`, with a client given its options explicitly (no
 * environment), and resolves to one line per check passed; the first failure rejects.
 */
export async function runSmoke({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }): Promise<string[]> {
  const { origin, pathname: basePath } = new URL(baseUrl);
  const sent: SentRequest[] = [];
  const client = new MetricClient({ apiKey, baseUrl, fetch: recordingFetch(sent, basePath) });
  const smoke: Smoke = { client, sent, origin, baseUrl, apiKey, passed: [] };
  const journalId = await checkJournals(smoke);
  const pages = await checkWalk(smoke, journalId);
  await checkNotFound(smoke, pages);
  const subjectCount = await checkRetry(smoke);
  await checkRedirect(smoke, subjectCount);
  await checkTimeout(smoke);
  await checkWebhooks(smoke);
  return smoke.passed;
}

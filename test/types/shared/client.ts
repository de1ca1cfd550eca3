// Typical use of the client, every method, under strict settings; no top-level await (CommonJS too).
import {
  type ClientOptions,
  type HeadersInput,
  type Journal,
  MetricClient,
  type PaperResult,
  type PaperSearchParams,
  type RequestOptions,
} from 'scholarly-metrics';

declare const yearParam: number | undefined;
declare const maybeQuery: string | undefined;

export async function everyMethod(client: MetricClient): Promise<void> {
  const journals: Journal[] = await client.journals.list();
  const first = journals[0];
  if (first) console.log(first.name, first.metric_score, first.quartile);
  const profile = await client.journals.get(42, { timeout: 5_000, maxRetries: 0 });
  console.log(profile.description, profile.oa);
  for await (const paper of client.journals.papers(42, { page: 1, per_page: 50 })) console.log(paper.title);
  const score = await client.journals.score(42);
  console.log(score.current, score.history[0]?.date);

  // exactOptionalPropertyTypes: a parameter that may be undefined is passed as it is.
  const params: PaperSearchParams = { q: 'graphene', year: yearParam, oa: undefined };
  const page = await client.papers.search(params);
  console.log(page.total, page.data[0]?.oa, page.data[0]?.journal_id);
  const paper = await client.papers.get('10.1000/xyz');
  console.log(paper.abstract.length);
  const results: PaperResult[] = await client.papers.getMany(['10.1000/a'], { concurrency: undefined });
  await client.papers.getMany(new Set(['10.1000/a']));
  // @ts-expect-error one DOI alone is refused: a string is an iterable of strings, but no list of DOIs
  await client.papers.getMany('10.1000/a');
  for (const result of results) console.log(result.error ? result.error.message : result.paper.title);

  for await (const author of client.authors.list({ q: maybeQuery, country_id: undefined })) {
    const full = await client.authors.get(author.id);
    console.log(full.orcid, full.papers[0]?.title);
  }
  const subjects = await client.subjects.list();
  const countries = await client.countries.list({ show: undefined });
  console.log(subjects.length, countries[0]?.flag);

  const { data, requestId, response } = await client.journals.get(42).withResponse();
  console.log(data.name, requestId, response.status);
  const raw: Response = await client.subjects.list().asResponse();
  console.log(raw.ok);
  const firstHundred = await client.papers.search({ q: 'graphene' }).toArray({ limit: 100 });
  console.log(firstHundred.length);
  for await (const p of client.papers.search({ q: 'graphene' }, { prefetch: undefined }).pages()) {
    console.log(p.page);
  }
}

export function construct(): MetricClient {
  const options: ClientOptions = {
    apiKey: process.env.METRIC_API_KEY,
    baseUrl: process.env.METRIC_BASE_URL,
    timeout: undefined,
    logLevel: 'info',
  };
  return new MetricClient(options).withOptions({ maxRetries: 0 });
}

export function headers(client: MetricClient): Promise<unknown>[] {
  const fromObject: HeadersInput = { 'x-team': 'bibliometrics' };
  const fromPairs: HeadersInput = [['x-team', 'bibliometrics']];
  const fromHeaders: HeadersInput = new Headers({ 'x-team': 'bibliometrics' });
  const options: RequestOptions = { headers: fromPairs, signal: AbortSignal.timeout(1_000) };
  new MetricClient({ apiKey: 'k', baseUrl: 'https://x.example/api/v1', headers: fromHeaders });
  // @ts-expect-error: headers are not a string
  new MetricClient({ apiKey: 'k', baseUrl: 'https://x.example/api/v1', headers: 'not headers' });
  // @ts-expect-error: header values are strings
  const numbers: HeadersInput = { 'x-count': 3 };
  return [
    client.subjects.list({ headers: fromObject }),
    client.subjects.list(options),
    Promise.resolve(numbers),
  ];
}

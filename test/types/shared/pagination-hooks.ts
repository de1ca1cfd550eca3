// Pages are async-iterable once awaited; hooks are typed without ky, and withOptions takes them.
import type {
  AfterResponseHook,
  BeforeRequestHook,
  ClientHooks,
  MetricClient,
  Page,
  PaperSummary,
} from 'scholarly-metrics';

export async function walk(client: MetricClient): Promise<number> {
  const page: Page<PaperSummary> = await client.papers.search({ q: 'graphene' });
  let count = 0;
  for await (const paper of page) count += paper.citations ?? 0;
  if (page.hasNextPage()) count += (await page.getNextPage()).data.length;
  return count;
}

export function hooks(client: MetricClient): MetricClient {
  const sign: BeforeRequestHook = ({ request }) => request.headers.set('x-signature', 'abc');
  const log: AfterResponseHook = ({ request, response }) => console.log(response.status, request.url);
  const replace: AfterResponseHook = async ({ response }) => new Response(await response.text(), response);
  const all: ClientHooks = { beforeRequest: [sign], afterResponse: [log, replace] };
  // @ts-expect-error: a hook is a function
  const wrong: ClientHooks = { beforeRequest: ['sign'] };
  console.log(wrong);
  return client.withOptions({ hooks: all });
}

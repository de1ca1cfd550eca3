// §5, browser bundles: size-limit's own figures and verdicts (scripts/size-limit.config.mjs) on the
// build under test, each dependency's share (bench/size-parts.config.mjs), scripts/first-load.mjs.
import { atMost, count, kb, type Row, table, verdict } from './format.js';
import { node } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '5', key: 'size', file: 'size.ts', title: 'Browser bundles' };
const targets = { clientKB: 36, firstLoadKB: 24.5, webhooksKB: 6, queryBeyondKB: 1.5 };

type Measure = { bytes: number; chunks: number };
type FirstLoad = { firstLoad: Measure; whole: Measure; budgets: { firstLoad: number } };
type Entry = { name: string; size: number; sizeLimit?: number; passed?: boolean };
/** examples/dashboard/size/measure.ts: the example app's JS, gzip -9, with the SDK and with plain fetch. */
type Dashboard = Record<'sdk' | 'plain', { firstLoad: number; all: number }>;

/** What a node script printed as JSON, or why there is none. */
async function json<T>(...args: string[]): Promise<T | string> {
  const { code, out, err } = await node(args, {}, true);
  try {
    const value = JSON.parse(out.slice(out.search(/[[{]/))) as T | { error?: string };
    if (Array.isArray(value) || !('error' in (value as object))) return value as T;
    // A failed module check ends the run with an error; rolldown's message may be on stderr.
    const detail = err.match(/must not contain[^\n]*|is missing[^\n]*/)?.[0];
    return [(value as { error?: string }).error ?? 'unknown error', detail].filter(Boolean).join(': ');
  } catch {
    return `${args[0]} printed no JSON (exit ${code}): ${err.trim()}`;
  }
}

export async function measure() {
  const sizeLimit = (config: string) =>
    json<Entry[]>('node_modules/size-limit/bin.js', '--config', config, '--json');
  const checked = await sizeLimit('scripts/size-limit.config.mjs');
  const split = await sizeLimit('bench/size-parts.config.mjs');
  const first = await json<FirstLoad>('scripts/first-load.mjs', '--json');
  const dashboard = await json<Dashboard>('examples/dashboard/size/measure.ts', '--json');
  const entries = (typeof checked === 'string' ? [] : checked).map(({ name, size, sizeLimit, passed }) => {
    const limited = sizeLimit !== undefined && { limitBytes: sizeLimit, passed: passed === true };
    return { name, bytes: size, ...limited };
  });
  const parts: Array<{ name: string; bytes: number }> = [];
  if (typeof split !== 'string') {
    const size = (name: string) => split.find((e) => e.name === name)?.size ?? Number.NaN;
    for (const { name, size: without } of split.filter((e) => /^without (?!any)/.test(e.name)))
      parts.push({ name: name.slice('without '.length), bytes: size('whole') - without });
    const own = 'the SDK’s own code (every dependency left out)';
    parts.push({ name: own, bytes: size('without any dependency') });
  }
  const error = [checked, split, first, dashboard].filter((r) => typeof r === 'string').join('; ');
  const measured = {
    ...(typeof first === 'object' && { firstLoad: first }),
    ...(typeof dashboard === 'object' && { dashboard }),
  };
  return { entries, parts, ...measured, ...(error && { error }) };
}

const firstLoadText = ({ firstLoad: f, whole, budgets }: FirstLoad) => {
  const first = [count(f.chunks), kb(f.bytes), kb(budgets.firstLoad), verdict(f.bytes <= budgets.firstLoad)];
  const rows = [
    ['first load: the entry chunk and its static imports', ...first],
    ['everything it can load: its import() chunks too', count(whole.chunks), kb(whole.bytes), 'none', ''],
  ];
  return `The first load as issue 22 measures it (\`node scripts/first-load.mjs\`, in \`npm run size\`): an app importing
\`MetricClient\` and making one call, bundled by esbuild (split, ESM, minified, browser); what the page fetches before
the call can start is the entry chunk and its static imports, each gzip -9; \`import()\` chunks load when a call needs them.

${table(['esbuild, split, each chunk gzip -9', 'chunks', 'size', 'budget', ''], rows)}

`;
};

const dashboardText = ({ sdk, plain }: Dashboard) => {
  const rows = [
    ['with the SDK', kb(sdk.firstLoad), kb(sdk.all)],
    ['with plain `fetch`', kb(plain.firstLoad), kb(plain.all)],
    ['the SDK’s share', kb(sdk.firstLoad - plain.firstLoad), kb(sdk.all - plain.all)],
  ];
  return `The example app (\`examples/dashboard\`: Vite, React 19, TanStack Query, \`scholarly-metrics/query\`) as its size/measure.ts
builds it, with the SDK and with a hand-written \`fetch\` layer instead (the same calls and error classes; no validation,
retries, \`Retry-After\` or timeouts); the entry chunk and its static imports, each gzip -9:

${table(['examples/dashboard', 'first load', 'all its JS'], rows)}

`;
};

/** The bundles judged here, each with its figure or why it was not measured; the tables beside. */
export function report(size: Results['size']): Report {
  const entry = (prefix: string) => size.entries.find((e) => e.name.startsWith(prefix));
  const [client, query] = [entry('the whole client'), entry('the client with scholarly-metrics/query')];
  const hooks = entry('webhooks');
  const shown = (bytes?: number) =>
    bytes === undefined ? `not measured: ${size.error ?? 'no entry'}` : kb(bytes);
  const judged = (what: string, limitKB: number, bytes?: number, figure = shown(bytes)) =>
    atMost(what, figure, bytes ?? Number.NaN, limitKB * 1000, `${limitKB} kB`);
  const [beyond, first] = [client && query && query.bytes - client.bytes, size.firstLoad?.firstLoad.bytes];
  const firstLoadWhat =
    'browser first load: an app calling MetricClient once, esbuild with code splitting, the entry chunk and its static imports, each gzip -9';
  const queryWhat =
    'browser bundle, scholarly-metrics/query beside the client: what it adds to the whole client';
  const whole = 'browser bundle, the whole client (ky, p-retry, zod, on-demand chunks)';
  const webhooks = 'browser bundle, scholarly-metrics/webhooks (must hold no ky, no client)';
  const rows: Row[] = [
    judged(whole, targets.clientKB, client?.bytes),
    judged(firstLoadWhat, targets.firstLoadKB, first),
    judged(webhooks, targets.webhooksKB, hooks?.bytes, hooks && `${kb(hooks.bytes)}, no ky, no client`),
    judged(queryWhat, targets.queryBeyondKB, beyond),
  ];
  if (size.dashboard) {
    const { sdk, plain } = size.dashboard;
    const what =
      'examples/dashboard (Vite, React, TanStack Query), JS of its first load, gzip -9: with the SDK / with plain `fetch`; the SDK’s share';
    const figure = `${kb(sdk.firstLoad)} / ${kb(plain.firstLoad)}; ${kb(sdk.firstLoad - plain.firstLoad)} (all its JS: ${kb(sdk.all - plain.all)})`;
    rows.push({ what, figure });
  }
  const limit = (e: (typeof size.entries)[number]) =>
    e.limitBytes === undefined ? ['none', ''] : [kb(e.limitBytes), verdict(e.passed === true)];
  const entries = size.entries.map((e) => [e.name, kb(e.bytes), ...limit(e)]);
  const parts = size.parts.map((p) => [p.name, kb(p.bytes)]);
  const text = `\`npm run size\` (scripts/size-limit.config.mjs) on the build under test, from \`size-limit --json\`: rolldown bundles the
built ESM entry for the browser with every dependency, minified and gzipped. A plugin fails the run if the webhooks
bundle takes in the client's module, ky or p-retry, which the client's bundle must hold (the check still sees them).${size.error ? `\n\n**size-limit failed: ${size.error}**` : ''}

${table(['bundle (min + gzip)', 'size', 'limit', ''], entries)}

${size.firstLoad ? firstLoadText(size.firstLoad) : ''}${size.dashboard ? dashboardText(size.dashboard) : ''}Each dependency's share of the client (the bundle less the same bundle with it left out,
bench/size-parts.config.mjs; gzip makes the shares add up only roughly):

${table(['part of the whole client', 'min + gzip'], parts)}

ky and p-retry are in the first load, with the generated parsers; zod's runtime with the schemas and its issue
wording, the cleaning of an error's cause and the getMany pool come on demand and count in the whole.`;
  return { rows, text };
}

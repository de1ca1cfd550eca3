// §5, browser bundles: size-limit's own figures and verdicts (scripts/size-limit.config.mjs) on the
// build under test, each dependency's share (bench/size-parts.config.mjs), scripts/first-load.mjs.
import { atMost, count, kb, type Row, table, verdict } from './format.js';
import { node } from './lib.js';

export const about = { id: '5', key: 'size', file: 'size.ts' } as const;
const targets = { clientKB: 36, firstLoadKB: 24.5, webhooksKB: 6, queryBeyondKB: 1.5 };

type Measure = { bytes: number; chunks: number };
type FirstLoad = { firstLoad: Measure; whole: Measure; budgets: { firstLoad: number } };
type Entry = { name: string; size: number; sizeLimit?: number; passed?: boolean };
/** examples/dashboard/size/measure.ts: the example app's JS, gzip -9, with the SDK and with plain fetch. */
type Dashboard = Record<'sdk' | 'plain', { firstLoad: number; all: number }>;

/** What a node script printed as JSON, or why there is none. */
async function json<T>(script: string, ...args: string[]): Promise<T | string> {
  const { code, out, err } = await node([script, ...args], {}, true);
  try {
    const value = JSON.parse(out.slice(out.search(/[[{]/))) as T | { error?: string };
    if (Array.isArray(value) || !('error' in (value as object))) return value as T;
    // A failed module check ends the run with an error; rolldown's message may be on stderr.
    const detail = err.match(/must not contain[^\n]*|is missing[^\n]*/)?.[0];
    return [(value as { error?: string }).error ?? 'unknown error', detail].filter(Boolean).join(': ');
  } catch {
    return `${script} printed no JSON (exit ${code}): ${err.trim()}`;
  }
}

export async function measure() {
  const sizeLimit = (config: string) =>
    json<Entry[]>('node_modules/size-limit/bin.js', '--config', config, '--json');
  const [checked, split] = [
    await sizeLimit('scripts/size-limit.config.mjs'),
    await sizeLimit('bench/size-parts.config.mjs'),
  ];
  const first = await json<FirstLoad>('scripts/first-load.mjs', '--json');
  const dashboard = await json<Dashboard>('examples/dashboard/size/measure.ts', '--json');
  const entries = (typeof checked === 'string' ? [] : checked).map((e) => ({
    name: e.name,
    bytes: e.size,
    ...(e.sizeLimit !== undefined && { limitBytes: e.sizeLimit, passed: e.passed === true }),
  }));
  const parts: Array<{ name: string; bytes: number }> = [];
  if (typeof split !== 'string') {
    const size = (name: string) => split.find((e) => e.name === name)?.size ?? Number.NaN;
    for (const { name, size: without } of split.filter((e) => /^without (?!any)/.test(e.name)))
      parts.push({ name: name.slice('without '.length), bytes: size('whole') - without });
    parts.push({
      name: 'the SDK’s own code (every dependency left out)',
      bytes: size('without any dependency'),
    });
  }
  const error = [checked, split, first, dashboard]
    .filter((r): r is string => typeof r === 'string')
    .join('; ');
  return {
    entries,
    parts,
    ...(typeof first === 'object' && { firstLoad: first }),
    ...(typeof dashboard === 'object' && { dashboard }),
    ...(error && { error }),
  };
}

type SizeResult = Awaited<ReturnType<typeof measure>>;

function bundles(size: SizeResult) {
  const entry = (prefix: string) => size.entries.find((e) => e.name.startsWith(prefix));
  const figure = (e?: { bytes: number }) => (e ? kb(e.bytes) : `not measured: ${size.error ?? 'no entry'}`);
  const within = (e: { bytes: number } | undefined, limitKB: number) => !!e && e.bytes <= limitKB * 1000;
  return {
    client: entry('the whole client'),
    firstLoad: entry('the client’s first load'),
    hooks: entry('webhooks'),
    query: entry('the client with scholarly-metrics/query'),
    figure,
    within,
  };
}

export function rows(size: SizeResult): Row[] {
  const { client, hooks, query, figure } = bundles(size);
  const first = size.firstLoad?.firstLoad;
  const judged = (what: string, shown: string, e: { bytes: number } | undefined, limitKB: number) =>
    atMost(what, shown, e ? e.bytes : Number.NaN, limitKB * 1000, `${limitKB} kB`);
  const [bundle, hooksFigure] = [
    'browser bundle, ',
    hooks ? `${kb(hooks.bytes)}, no ky, no client` : figure(hooks),
  ];
  const firstLoad =
    'browser first load: an app calling MetricClient once, esbuild with code splitting, the entry chunk and its static imports, each gzip -9';
  return [
    judged(
      `${bundle}the whole client (ky, p-retry, zod, on-demand chunks)`,
      figure(client),
      client,
      targets.clientKB,
    ),
    judged(firstLoad, first ? kb(first.bytes) : 'not measured', first, targets.firstLoadKB),
    judged(
      `${bundle}scholarly-metrics/webhooks (must hold no ky, no client)`,
      hooksFigure,
      hooks,
      targets.webhooksKB,
    ),
    queryRow(client, query),
    ...dashboardRows(size.dashboard),
  ];
}

/** scholarly-metrics/query: what an app that already has the client pays for the entry. */
function queryRow(client?: { bytes: number }, query?: { bytes: number }): Row {
  const beyond = client && query ? query.bytes - client.bytes : Number.NaN;
  const what = 'browser bundle, scholarly-metrics/query beside the client: what it adds to the whole client';
  const shown = Number.isNaN(beyond) ? 'not measured' : kb(beyond);
  return atMost(what, shown, beyond, targets.queryBeyondKB * 1000, `${targets.queryBeyondKB} kB`);
}

function dashboardRows(dashboard?: Dashboard): Row[] {
  if (dashboard === undefined) return [];
  const { sdk, plain } = dashboard;
  return [
    {
      what: 'examples/dashboard (Vite, React, TanStack Query), JS of its first load, gzip -9: with the SDK / with plain `fetch`; the SDK’s share',
      figure: `${kb(sdk.firstLoad)} / ${kb(plain.firstLoad)}; ${kb(sdk.firstLoad - plain.firstLoad)} (all its JS: ${kb(sdk.all - plain.all)})`,
    },
  ];
}

const firstLoadText = ({
  firstLoad: f,
  whole,
  budgets,
}: FirstLoad) => `The first load as issue 22 measures it (\`node scripts/first-load.mjs\`, in \`npm run size\`): an app importing
\`MetricClient\` and making one call, bundled by esbuild (split, ESM, minified, browser); what the page fetches before
the call can start is the entry chunk and its static imports, each gzip -9; \`import()\` chunks load when a call needs them.

${table(
  ['esbuild, split, each chunk gzip -9', 'chunks', 'size', 'budget', ''],
  [
    [
      'first load: the entry chunk and its static imports',
      count(f.chunks),
      kb(f.bytes),
      kb(budgets.firstLoad),
      verdict(f.bytes <= budgets.firstLoad),
    ],
    ['everything it can load: its import() chunks too', count(whole.chunks), kb(whole.bytes), 'none', ''],
  ],
)}

`;

const dashboardText = ({ sdk, plain }: Dashboard) => `The example app (\`examples/dashboard\`: Vite, React 19,
TanStack Query and \`scholarly-metrics/query\`), built by Vite as \`node examples/dashboard/size/measure.ts\` builds it, with the
SDK and with a hand-written \`fetch\` layer in its place (the same calls and error classes, without validation, retries,
\`Retry-After\` or timeouts); the entry chunk and its static imports, each gzip -9:

${table(
  ['examples/dashboard', 'first load', 'all its JS'],
  [
    ['with the SDK', kb(sdk.firstLoad), kb(sdk.all)],
    ['with plain `fetch`', kb(plain.firstLoad), kb(plain.all)],
    ['the SDK’s share', kb(sdk.firstLoad - plain.firstLoad), kb(sdk.all - plain.all)],
  ],
)}

`;

export function text(size: SizeResult) {
  const { client, firstLoad, hooks, figure, within } = bundles(size);
  const entries = size.entries.map((e) => {
    const limited = e.limitBytes !== undefined;
    return [
      e.name,
      kb(e.bytes),
      limited ? kb(e.limitBytes!) : 'none',
      limited ? verdict(e.passed === true) : '',
    ];
  });
  const first = firstLoad
    ? ` (its first load, without the chunks it loads on demand: ${kb(firstLoad.bytes)})`
    : '';
  return `## 5. Browser bundles

\`npm run size\` (scripts/size-limit.config.mjs) on the build under test, read from \`size-limit --json\`: rolldown bundles the
built ESM entry for the browser with every dependency, minifies, gzips. A rolldown plugin fails the run if the webhooks
bundle takes in the client's module, ky or p-retry; the client's bundle must hold them all, proving the check still
recognises them.${size.error ? `\n\n**size-limit failed: ${size.error}**` : ''}

${table(['bundle (min + gzip)', 'size', 'limit', ''], entries)}

Targets: the whole client ≤ ${targets.clientKB} kB, ${verdict(within(client, targets.clientKB))} at ${figure(client)}${first};
scholarly-metrics/webhooks ≤ ${targets.webhooksKB} kB with no ky and no client, ${verdict(within(hooks, targets.webhooksKB))} at ${figure(hooks)}.

${size.firstLoad ? firstLoadText(size.firstLoad) : ''}${size.dashboard ? dashboardText(size.dashboard) : ''}Each dependency's share of the client (the bundle less the same bundle with it left out,
bench/size-parts.config.mjs; gzip makes the shares add up only roughly):

${table(
  ['part of the whole client', 'min + gzip'],
  size.parts.map((p) => [p.name, kb(p.bytes)]),
)}

ky and p-retry are in the first load, with the generated parsers; zod's runtime with the schemas and its issue
wording, the cleaning of an error's cause and the getMany pool come on demand and count in the whole.`;
}

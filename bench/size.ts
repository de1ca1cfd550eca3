// §5, browser bundles: size-limit's own figures and verdicts (scripts/size-limit.config.mjs) on the
// build under test, each dependency's share (bench/size-parts.config.mjs), scripts/first-load.mjs.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { atMost, count, kb, table, verdict } from './format.js';
import { root } from './lib.js';

export const about = { id: '5', key: 'size', file: 'size.ts' } as const;
const targets = { clientKB: 36, firstLoadKB: 26, webhooksKB: 6 };

interface Measure {
  bytes: number;
  chunks: number;
}
type FirstLoad = { firstLoad: Measure; whole: Measure; budgets: { firstLoad: number } };
type Entry = { name: string; size: number; sizeLimit?: number; passed?: boolean };

/** What a node script printed as JSON, or why there is none. */
function json<T>(name: string, script: string, args: string[]): { value: T | string; stderr: string } {
  const run = spawnSync(process.execPath, [join(root, script), ...args], { cwd: root, encoding: 'utf8' });
  const out = run.stdout.trim();
  try {
    return { value: JSON.parse(out.slice(out.search(/[[{]/))) as T, stderr: run.stderr };
  } catch {
    return {
      value: `${name} printed no JSON (exit ${run.status}): ${run.stderr.trim()}`,
      stderr: run.stderr,
    };
  }
}

function sizeLimit(config: string): Entry[] | string {
  const args = ['--config', config, '--json'];
  const { value, stderr } = json<Entry[] | { error?: string }>(
    'size-limit',
    'node_modules/size-limit/bin.js',
    args,
  );
  if (typeof value === 'string' || Array.isArray(value)) return value;
  // A failed module check ends the run with an error; rolldown's message may be on stderr.
  const detail = stderr.match(/must not contain[^\n]*|is missing[^\n]*/)?.[0];
  return [value.error ?? 'unknown error', detail].filter(Boolean).join(': ');
}

export function measure() {
  const checked = sizeLimit('scripts/size-limit.config.mjs');
  const split = sizeLimit('bench/size-parts.config.mjs');
  const first = json<FirstLoad>('scripts/first-load.mjs', 'scripts/first-load.mjs', ['--json']).value;
  const entries = (typeof checked === 'string' ? [] : checked).map((e) => ({
    name: e.name,
    bytes: e.size,
    ...(e.sizeLimit !== undefined && { limitBytes: e.sizeLimit, passed: e.passed === true }),
  }));
  const parts: Array<{ name: string; bytes: number }> = [];
  if (typeof split !== 'string') {
    const size = (name: string) => split.find((e) => e.name === name)?.size ?? Number.NaN;
    for (const { name, size: without } of split) {
      if (!name.startsWith('without ') || name === 'without any dependency') continue;
      parts.push({ name: name.slice('without '.length), bytes: size('whole') - without });
    }
    parts.push({
      name: 'the SDK’s own code (every dependency left out)',
      bytes: size('without any dependency'),
    });
  }
  const error = [checked, split, first].filter((r): r is string => typeof r === 'string').join('; ');
  return { entries, parts, ...(typeof first === 'object' && { firstLoad: first }), ...(error && { error }) };
}

type SizeResult = ReturnType<typeof measure>;

function bundles(size: SizeResult) {
  const entry = (prefix: string) => size.entries.find((e) => e.name.startsWith(prefix));
  const figure = (e?: { bytes: number }) => (e ? kb(e.bytes) : `not measured: ${size.error ?? 'no entry'}`);
  const within = (e: { bytes: number } | undefined, limitKB: number) => !!e && e.bytes <= limitKB * 1000;
  const [client, firstLoad, hooks] = [
    entry('the whole client'),
    entry('the client’s first load'),
    entry('webhooks'),
  ];
  return { client, firstLoad, hooks, figure, within };
}

function firstLoadText(first: FirstLoad): string {
  return `The first load as issue 22 measures it (\`node scripts/first-load.mjs\`, part of \`npm run size\`): an app
that imports \`MetricClient\` and makes one call, bundled by esbuild (bundle, code splitting, ESM, minified,
platform browser); what the page fetches before the call can start is the entry chunk and the chunks it
imports statically, each gzipped at level 9. The chunks behind \`import()\` load only when a call needs them.

${table(
  ['esbuild, split, each chunk gzip -9', 'chunks', 'size', 'budget', ''],
  [
    [
      'first load: the entry chunk and its static imports',
      count(first.firstLoad.chunks),
      kb(first.firstLoad.bytes),
      kb(first.budgets.firstLoad),
      verdict(first.firstLoad.bytes <= first.budgets.firstLoad),
    ],
    [
      'everything it can load: its import() chunks too',
      count(first.whole.chunks),
      kb(first.whole.bytes),
      'none',
      '',
    ],
  ],
)}

`;
}

export function rows(size: SizeResult) {
  const { client, hooks, figure } = bundles(size);
  const first = size.firstLoad?.firstLoad;
  const judged = (what: string, shown: string, e: { bytes: number } | undefined, limitKB: number) =>
    atMost(what, shown, e ? e.bytes : Number.NaN, limitKB * 1000, `${limitKB} kB`);
  return [
    judged(
      'browser bundle, the whole client (ky, p-retry, zod, on-demand chunks)',
      figure(client),
      client,
      targets.clientKB,
    ),
    judged(
      'browser first load: an app calling MetricClient once, esbuild with code splitting, the entry chunk and its static imports, each gzip -9',
      first ? kb(first.bytes) : 'not measured',
      first,
      targets.firstLoadKB,
    ),
    judged(
      'browser bundle, scholarly-metrics/webhooks (must hold no ky, no client)',
      hooks ? `${kb(hooks.bytes)}, no ky, no client` : figure(hooks),
      hooks,
      targets.webhooksKB,
    ),
  ];
}

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
  return `## 5. Browser bundles

\`npm run size\` (scripts/size-limit.config.mjs), read here from \`size-limit --json\` on the build under test:
size-limit's rolldown bundles the built ESM entry for the browser platform with every dependency in,
minifies, and gzips. A rolldown plugin in the config fails the run if the webhooks bundle takes in the
client's module or ky or p-retry; the client's own bundle must contain all of them, which proves
the check still recognises them.${size.error ? `\n\n**size-limit failed: ${size.error}**` : ''}

${table(['bundle (min + gzip)', 'size', 'limit', ''], entries)}

Targets: the whole client ≤ ${targets.clientKB} kB, ${verdict(within(client, targets.clientKB))} at ${figure(client)}${firstLoad ? ` (its first load, without the chunks it loads on demand: ${kb(firstLoad.bytes)})` : ''};
scholarly-metrics/webhooks ≤ ${targets.webhooksKB} kB with no ky and no client, ${verdict(within(hooks, targets.webhooksKB))} at ${figure(hooks)}.

${size.firstLoad ? firstLoadText(size.firstLoad) : ''}What limits the client: each dependency's share of its bundle (the bundle less the same bundle with that
dependency left out, bench/size-parts.config.mjs; gzip makes the shares add up only roughly):

${table(
  ['part of the whole client', 'min + gzip'],
  size.parts.map((p) => [p.name, kb(p.bytes)]),
)}

ky and p-retry are in the first load, with the parsers generated from the schemas; zod's runtime with
the schemas and zod's issue wording (for a body those parsers leave to zod), the cleaning of an error's
cause and the getMany pool come on demand and count in the whole.`;
}

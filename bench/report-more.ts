/** BENCHMARKS.md, sections 3 to 8: validation, memory, bundles, cold start, paging, getMany. */
import {
  coldStartNames as coldNames,
  loopName,
  paging as pagingConfig,
  targets,
  toArrayConfig,
  validationNames,
} from './config.js';
import { count, find, kb, ms, range, table, us, verdict, x } from './format.js';
import type { Results } from './report.js';
import { memoryText } from './report-memory.js';

export function sections(results: Results): { rows: string[][]; text: string } {
  const { validation, size, coldStart, paging, getMany } = results;
  const vName = (name: string) => find(validation.contenders, (c) => c.name === name, name);
  const fast = find(validation.ratios, (r) => r.of === validationNames.fast, 'the fast path');

  const client = size.entries.find((e) => e.name.startsWith('the whole client'));
  const firstLoad = size.entries.find((e) => e.name.startsWith('the client’s first load'));
  const hooks = size.entries.find((e) => e.name.startsWith('webhooks'));
  const sizeFigure = (e: typeof client) => (e ? kb(e.bytes) : `not measured: ${size.error ?? 'no entry'}`);

  const cold = (name: string) => find(coldStart.contenders, (c) => c.name === name, name);
  const best = [...paging.speedups].sort((a, b) => b.speedup - a.speedup)[0]!;
  const pagingMet = best.speedup >= targets.paging && paging.ordered;
  const exact = paging.toArray.every((r) => r.exact);
  const saved = paging.toArray.reduce((sum, r) => sum + r.naive.started - r.toArray.started, 0);
  const naiveTotal = paging.toArray.reduce((sum, r) => sum + r.naive.started, 0);
  const headline = getMany.speedups.find((s) => s.concurrency === 8) ?? getMany.speedups[0]!;

  const rows = [
    [
      '5',
      'browser bundle, the whole client (ky, p-retry, zod, on-demand chunks)',
      sizeFigure(client),
      `≤ ${targets.clientKB} kB`,
      verdict(!!client && client.bytes <= targets.clientKB * 1000),
    ],
    [
      '5',
      'browser first load: an app calling MetricClient once, esbuild with code splitting, the entry chunk and its static imports, each gzip -9',
      size.firstLoad ? kb(size.firstLoad.firstLoad.bytes) : 'not measured',
      `≤ ${targets.firstLoadKB} kB`,
      verdict(!!size.firstLoad && size.firstLoad.firstLoad.bytes <= targets.firstLoadKB * 1000),
    ],
    [
      '5',
      'browser bundle, scholarly-metrics/webhooks (must hold no ky, no client)',
      hooks ? `${kb(hooks.bytes)}, no ky, no client` : sizeFigure(hooks),
      `≤ ${targets.webhooksKB} kB`,
      verdict(!!hooks && hooks.bytes <= targets.webhooksKB * 1000),
    ],
    [
      '6',
      'cold import: the package (ESM) / the libraries it imports',
      `${ms(cold(coldNames.sdk).importMs, 1)} / ${ms(cold(coldNames.stack).importMs, 1)}`,
      'none',
      '',
    ],
    [
      '7',
      `${pagingConfig.pages} pages at ${pagingConfig.latencyMs} ms: sequential loop ÷ SDK iterator at its best prefetch`,
      `${x(best.speedup, 1)} (prefetch ${best.prefetch}), order ${paging.ordered ? 'preserved' : '**not preserved**'}`,
      `≥ ${x(targets.paging, 1)}`,
      verdict(pagingMet),
    ],
    [
      '7',
      '`toArray({ limit })`: no page requested past the one holding the limit-th item',
      `${exact ? 'exact in every case' : '**not exact**'}; ${saved} of ${naiveTotal} requests of a naive \`for await\` + \`break\` saved`,
      'exact',
      verdict(exact),
    ],
    [
      '8',
      `\`getMany\` of ${getMany.dois} DOIs at ${getMany.latencyMs} ms: one by one ÷ concurrency ${headline.concurrency}`,
      `${x(headline.speedup, 1)} faster${getMany.identical ? '' : ', **results differ**'}`,
      'none',
      '',
    ],
  ];

  const text = `## 3. Validation

A ${count(validation.items)}-item page of journal papers (${(validation.bytes / 1024).toFixed(0)} KB of JSON, the mock's own papers), text to
checked value, ${validation.rounds} rounds of ${validation.batch}. The SDK checks a body with the shape's \`safeParse\` (src/schemas/shapes.ts):
zod's own method on a schema given the parser generated at build time as its fast path (\`withParser\`),
so zod's runtime runs only on a body the parser refuses, to explain it. Beside it, the SDK's whole path
(\`parseResponse\`) and zod's runtime alone on the raw schema (src/schemas/response-schemas.ts).

${table(
  ['contender', 'time per page (p25 to p75)', '÷ JSON.parse alone (p25 to p75)'],
  validation.contenders.map((c) => {
    const r = validation.ratios.find((q) => q.of === c.name);
    return [c.name, range(c.wall, us), r ? range(r.wall, (n) => x(n)) : '1'];
  }),
)}

Target ≤ ${x(targets.validation, 1)}: ${verdict(fast.wall.median <= targets.validation)} at ${x(fast.wall.median)}. What is left over \`JSON.parse\` is one pass that checks each
field and builds the output (zod's semantics: new objects, unknown keys kept). zod's runtime on the same
page costs ${us(vName(validationNames.runtime).wall.median)} against ${us(vName(validationNames.parse).wall.median)} for \`JSON.parse\` alone.

${memoryText(results.memory)}

## 5. Browser bundles

\`npm run size\` (scripts/size-limit.config.mjs), read here from \`size-limit --json\` on the build under test:
size-limit's rolldown bundles the built ESM entry for the browser platform with every dependency in,
minifies, and gzips. A rolldown plugin in the config fails the run if the webhooks bundle takes in the
client's module or ky or p-retry; the client's own bundle must contain all of them, which proves
the check still recognises them.${size.error ? `\n\n**size-limit failed: ${size.error}**` : ''}

${table(
  ['bundle (min + gzip)', 'size', 'limit', ''],
  size.entries.map((e) => [
    e.name,
    kb(e.bytes),
    e.limitBytes === undefined ? 'none' : kb(e.limitBytes),
    e.limitBytes === undefined ? '' : verdict(e.passed === true),
  ]),
)}

Targets: the whole client ≤ ${targets.clientKB} kB, ${verdict(!!client && client.bytes <= targets.clientKB * 1000)} at ${sizeFigure(client)}${firstLoad ? ` (its first load, without the chunks it loads on demand: ${kb(firstLoad.bytes)})` : ''};
scholarly-metrics/webhooks ≤ ${targets.webhooksKB} kB with no ky and no client, ${verdict(!!hooks && hooks.bytes <= targets.webhooksKB * 1000)} at ${sizeFigure(hooks)}.

${
  size.firstLoad
    ? `The first load as issue 22 measures it (\`node scripts/first-load.mjs\`, part of \`npm run size\`): an app
that imports \`MetricClient\` and makes one call, bundled by esbuild (bundle, code splitting, ESM, minified,
platform browser); what the page fetches before the call can start is the entry chunk and the chunks it
imports statically, each gzipped at level 9. The chunks behind \`import()\` load only when a call needs them.

${table(
  ['esbuild, split, each chunk gzip -9', 'chunks', 'size', 'budget', ''],
  [
    [
      'first load: the entry chunk and its static imports',
      count(size.firstLoad.firstLoad.chunks),
      kb(size.firstLoad.firstLoad.bytes),
      kb(size.firstLoad.budgets.firstLoad),
      verdict(size.firstLoad.firstLoad.bytes <= size.firstLoad.budgets.firstLoad),
    ],
    [
      'everything it can load: its import() chunks too',
      count(size.firstLoad.whole.chunks),
      kb(size.firstLoad.whole.bytes),
      'none',
      '',
    ],
  ],
)}

`
    : ''
}What limits the client: each dependency's share of its bundle (the bundle less the same bundle with that
dependency left out, bench/size-parts.config.mjs; gzip makes the shares add up only roughly):

${table(
  ['part of the whole client', 'min + gzip'],
  size.parts.map((p) => [p.name, kb(p.bytes)]),
)}

ky and p-retry are in the first load, with the parsers generated from the schemas; zod's runtime with
the schemas and zod's issue wording (for a body those parsers leave to zod), the cleaning of an error's
cause and the getMany pool come on demand and count in the whole.

## 6. Cold import

A fresh \`node\` process per import, ${coldStart.rounds} rounds, round-robin. *import*: from the first import to the last;
*process*: from the process's start to the end of its imports.

${table(
  ['what is imported', 'import', 'process'],
  coldStart.contenders.map((c) => [c.name, ms(c.importMs, 1), ms(c.processMs, 1)]),
)}

The package imports ky, p-retry and zod at load (they are in the request path); importing it takes
${ms(cold(coldNames.sdk).importMs, 1)} against ${ms(cold(coldNames.stack).importMs, 1)} for those libraries alone: the difference is the package itself.

## 7. Paging

${pagingConfig.pages} pages of ${pagingConfig.perPage} papers (one journal holding ${count(pagingConfig.pages * pagingConfig.perPage)} papers in the mock), every answer held back
${pagingConfig.latencyMs} ms by the mock. The loop asks for one page after the other with \`fetch\` until \`total\` is reached;
the SDK walks \`for await (const paper of client.journals.papers(1, { per_page: ${pagingConfig.perPage} }, { prefetch }))\`.
${paging.rounds} rounds, round-robin; every walk is compared item by item with the loop's: order ${paging.ordered ? 'preserved in every walk' : '**not preserved**'}.

${table(
  ['contender', `time for ${pagingConfig.pages} pages`, 'loop ÷ contender (paired)'],
  paging.contenders.map((c) => {
    const s = paging.speedups.find((q) => q.name === c.name);
    return [c.name, ms(c.ms), s ? x(s.speedup) : '1'];
  }),
)}

Target ≥ ${x(targets.paging, 1)} at the best setting: ${verdict(pagingMet)} at ${x(best.speedup, 1)} (prefetch ${best.prefetch}; the loop took ${ms(find(paging.contenders, (c) => c.name === loopName, 'the loop').ms)}). \`prefetch\`
is how many pages may be in flight while the walk yields (default 1, at most 8); the first page comes back
alone, as it tells \`total\` and the page size.

### toArray: requests saved

\`client.papers.search({ per_page: ${toArrayConfig.perPage} }, { prefetch }).toArray({ limit })\` against a naive \`for await\` that
breaks at the \`limit\`-th item, over ${count(toArrayConfig.papers)} papers at ${toArrayConfig.latencyMs} ms. *started*: requests the client began (its
\`fetch\` called); *received*: requests the server got (a prefetched request that the \`break\` aborts before
it is written never arrives). Medians of 3 rounds; toArray must start exactly the pages up to the one
holding the limit-th item, and return the naive loop's items.

${table(
  [
    'limit',
    'prefetch',
    'pages needed',
    'naive: started / received',
    'toArray: started / received',
    'started requests saved',
    'exact',
  ],
  paging.toArray.map((r) => [
    count(r.limit),
    String(r.prefetch),
    String(r.needed),
    `${r.naive.started} / ${r.naive.received}`,
    `${r.toArray.started} / ${r.toArray.received}`,
    String(r.naive.started - r.toArray.started),
    r.exact ? 'yes' : '**no**',
  ]),
)}

## 8. getMany

bench/get-many.ts: ${getMany.dois} DOIs from the mock at ${getMany.latencyMs} ms of latency, \`papers.get\` one after the other against
\`papers.getMany\` at a few \`concurrency\` settings, ${getMany.rounds} rounds, round-robin; every run must return the same papers in
the same order: ${getMany.identical ? 'they did' : '**they did not**'}.

${table(
  ['contender', `time for ${getMany.dois} lookups`, 'one by one ÷ contender (paired)'],
  getMany.contenders.map((c) => {
    const s = getMany.speedups.find((q) => q.name === c.name);
    return [c.name, ms(c.ms), s ? x(s.speedup, 1) : '1'];
  }),
)}
`;
  return { rows, text };
}

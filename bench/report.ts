/** BENCHMARKS.md from the results of one run: figures, targets, and what limits each figure. */
import type { ColdStartResult } from './cold-start.js';
import {
  coldStartNames as coldNames,
  command,
  loopName,
  memory as memoryConfig,
  paging as pagingConfig,
  requestNames,
  validationNames,
} from './config.js';
import type { Spread } from './lib.js';
import type { MemoryResult } from './memory.js';
import type { PagingResult } from './paging.js';
import type { RequestResult } from './request.js';
import type { Machine } from './run.js';
import type { ValidationResult } from './validation.js';

const { items, perPage: memoryPerPage } = memoryConfig;
const { latencyMs, pages, perPage } = pagingConfig;

export interface Results {
  machine: Machine;
  request: RequestResult;
  validation: ValidationResult;
  paging: PagingResult;
  memory: MemoryResult[];
  coldStart: ColdStartResult;
}

const targets = {
  request: 1.1,
  validation: 1.3,
  paging: 3.5,
  memoryMB: 30,
};

const x = (value: number, digits = 2) => `${value.toFixed(digits)}×`;
const us = (value: number) => `${value.toFixed(0)} µs`;
const ms = (value: number, digits = 0) => `${value.toFixed(digits)} ms`;
const mb = (value: number) => `${value.toFixed(1)} MB`;
const range = (s: Spread, format: (n: number) => string) =>
  `${format(s.median)} (${format(s.p25)}–${format(s.p75)})`;
const verdict = (met: boolean) => (met ? '**met**' : '**not met**');
const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

export function markdown(results: Results): string {
  const { machine, request, validation, paging, memory, coldStart } = results;

  const ratio = (of: string, to: string) => request.ratios.find((r) => r.of === of && r.to === to)!;
  const contender = (name: string) => request.contenders.find((c) => c.name === name)!;
  const sdkOverOpenapi = ratio(requestNames.sdk, requestNames.openapi);
  const requestMet = sdkOverOpenapi.wall.median <= targets.request;
  const kyFloorOverFetch = ratio(requestNames.kyFloor, requestNames.fetch);
  const kyFloorOverOpenapi = ratio(requestNames.kyFloor, requestNames.openapi);
  const fetchCpu = contender(requestNames.fetch).cpu.median;

  const sdkParse = validation.ratios.find((r) => r.of === validationNames.sdk)!;
  const validationMet = sdkParse.wall.median <= targets.validation;
  const vContender = (name: string) => validation.contenders.find((c) => c.name === name)!;

  const best = [...paging.speedups].sort((a, b) => b.speedup - a.speedup)[0]!;
  const pagingMet = best.speedup >= targets.paging && paging.ordered;
  const loopMs = paging.contenders.find((c) => c.name === loopName)!.ms;

  const sdkMemory = memory.find((m) => m.contender.kind === 'sdk' && m.contender.prefetch === 1)!;
  const sdkMemory8 = memory.find((m) => m.contender.kind === 'sdk' && m.contender.prefetch === 8);
  const sdkHttpMemory = memory.find((m) => m.contender.kind === 'sdk over node:http');
  const fetchMemory = memory.find((m) => m.contender.kind === 'fetch');
  const httpMemory = memory.find((m) => m.contender.kind === 'http');
  const memoryMet = sdkMemory.growthMB <= targets.memoryMB && sdkMemory.ordered;
  const memoryName = (m: MemoryResult) => {
    switch (m.contender.kind) {
      case 'sdk':
        return `scholarly-metrics for await, prefetch ${m.contender.prefetch}`;
      case 'sdk over node:http':
        return 'scholarly-metrics for await, given a `fetch` over node:http';
      case 'fetch':
        return 'fetch + JSON.parse loop';
      case 'http':
        return 'node:http + JSON.parse loop (no fetch)';
    }
  };

  const cold = (name: string) => coldStart.contenders.find((c) => c.name === name)!;
  const coldSdk = cold(coldNames.sdk);
  const coldKyZod = cold(coldNames.kyZod);
  const coldKyMini = cold(coldNames.kyMini);

  return `# Benchmarks

Written by \`${command}\` (bench/run.ts) from its last run: do not edit by hand, run it again. Every
figure is a median; every contender runs in the same process run, round-robin in small batches, so
that a noisy neighbour slows them all alike, and ratios are taken round by round. All HTTP goes over
real loopback sockets to the mock API (\`scholarly-metrics/testing\`, from dist/), which runs in a
process of its own.

## Results

| # | what | figure | target | |
|---|---|---|---|---|
| 1 | one request, validated: scholarly-metrics ÷ openapi-fetch | ${x(sdkOverOpenapi.wall.median)} | ≤ ${x(targets.request)} | ${verdict(requestMet)} |
| 2 | a 1,000-item page: the SDK's whole parse path ÷ \`JSON.parse\` alone | ${x(sdkParse.wall.median)} | ≤ ${x(targets.validation, 1)} | ${verdict(validationMet)} |
| 3 | ${pages} pages, ${latencyMs} ms server latency: sequential loop ÷ SDK iterator at its best setting | ${x(best.speedup, 1)} faster (prefetch ${best.prefetch}), order ${paging.ordered ? 'preserved' : '**not preserved**'} | ≥ ${x(targets.paging, 1)} | ${verdict(pagingMet)} |
| 4 | ${items.toLocaleString('en-US')} items through \`for await\`: peak RSS growth | ${mb(sdkMemory.growthMB)} | ≤ ${targets.memoryMB} MB | ${verdict(memoryMet)} |
| 5 | cold start: importing the package ÷ importing ky + zod | ${x(coldSdk.importMs / coldKyZod.importMs)} (${ms(coldSdk.importMs, 1)} vs ${ms(coldKyZod.importMs, 1)}) | none | |

## Machine and command

- Command: \`${command}\` (\`tsx bench/run.ts\`; it runs \`npm run build\` first when dist/ is older than src/), ${machine.minutes.toFixed(1)} minutes
- Node ${machine.node} (V8 ${machine.v8}), ${machine.os}
- CPU: ${machine.cpu}, ${machine.cores} cores; ${machine.memoryGB.toFixed(0)} GB of memory
- Load average (1, 5, 15 min) before: ${machine.loadBefore.map((n) => n.toFixed(2)).join(', ')}; after: ${machine.loadAfter.map((n) => n.toFixed(2)).join(', ')}
- ${machine.date}, commit ${machine.commit}

On a shared machine with few cores, absolute times move from run to run; the ratios, paired within a
run, move much less. The spreads below (25th–75th percentile of the rounds) show how noisy the run was.

## 1. Per-request overhead

\`GET /journals/{id}\` (a journal profile, about 250 bytes), one request at a time, ids 1–400 in turn,
${request.rounds} rounds of ${request.batch} requests per contender. *wall*: time per request;
*CPU*: this process's CPU time per request (the client's own work, whatever the server does).
The server's keep-alive hint was \`${request.keepAlive ?? 'none'}\`${
    request.keepAlive && /timeout=([0-2])\b/.test(request.keepAlive)
      ? ' — **2 s or less: Node’s fetch opens a new connection for every request, and connection setup dominates these figures**'
      : ': connections are reused'
  }.

${table(
  ['contender', 'wall per request (p25–p75)', 'CPU per request'],
  request.contenders.map((c) => [c.name, range(c.wall, us), us(c.cpu.median)]),
)}

${table(
  ['ratio (paired per round)', 'wall (p25–p75)', 'CPU'],
  request.ratios.map((r) => [`${r.of} ÷ ${r.to}`, range(r.wall, (n) => x(n)), x(r.cpu.median)]),
)}

Target: scholarly-metrics (validation, retries and timeout included) ≤ ${x(targets.request)} openapi-fetch:
${verdict(requestMet)} at ${x(sdkOverOpenapi.wall.median)} (CPU ${x(sdkOverOpenapi.cpu.median)}).

What limits it, and ky: ky by itself, with its retry, timeout and HTTP errors all off, costs
${x(kyFloorOverFetch.wall.median)} a bare \`fetch\` and ${x(kyFloorOverOpenapi.wall.median)} openapi-fetch per request
(CPU ${x(kyFloorOverOpenapi.cpu.median)}): more than the whole budget before any validation. Profiled
(\`node --cpu-prof\`), its time goes to work done for every call that no option skips (ky 2.1.0): a
\`Ky\` per call merging the instance's and the call's options (two \`Headers\` copies), normalized retry
options (twice), its own \`AbortController\`, a \`Request\` that follows that controller's signal and
that \`fetch\` then wraps and follows again, and six body-method closures on the returned promise. A
custom \`fetch\` or a \`beforeRequest\` hook comes after that work, not instead of it. So the SDK sends
its requests with \`fetch\` directly (src/core/transport.ts): what ky did for it (one GET, no retry, no
timeout, no HTTP errors) is a \`fetch\` call. What is left over a bare \`fetch\` is one
\`AbortController\` and one timer per attempt (the timeout that also covers the body read, and
cancellation at every stage), p-retry's bookkeeping, and the generated parser. The mock server's own
work is in every wall figure alike, which pulls every ratio toward 1; the CPU column is the client's
alone (a bare \`fetch\` here is ${us(fetchCpu)} of client CPU).

## 2. Validation

A ${validation.items.toLocaleString('en-US')}-item page of journal papers (${(validation.bytes / 1024).toFixed(0)} KB of JSON, the mock's own papers), text to
checked value, ${validation.rounds} rounds of ${validation.batch}. The SDK's path is \`parseResponse\` (src/core/validate.ts):
\`JSON.parse\`, then the parser that zod's own compiler generated from the zod/mini schema at build time
(src/schemas/parsers.generated.ts). zod parses the same page beside it, for reference; every contender
returns the same value.

${table(
  ['contender', 'time per page (p25–p75)', '÷ JSON.parse alone (p25–p75)'],
  validation.contenders.map((c) => {
    const r = validation.ratios.find((q) => q.of === c.name);
    return [c.name, range(c.wall, us), r ? range(r.wall, (n) => x(n)) : '1'];
  }),
)}

Target ≤ ${x(targets.validation, 1)}: ${verdict(validationMet)} at ${x(sdkParse.wall.median)}. What is left over
\`JSON.parse\` is one pass over the parsed value that checks each field and builds the output objects
(zod's semantics: a new object, unknown keys kept), a fraction of the parse itself. zod's interpreter
costs ${x(validation.ratios.find((r) => r.of === validationNames.mini)!.wall.median)} (zod/mini) and ${x(validation.ratios.find((r) => r.of === validationNames.classic)!.wall.median)} (classic, whose objects take zod's
JIT path, which needs \`new Function\`); the SDK loads zod only to explain a refused body. JSON.parse alone:
${us(vContender(validationNames.parse).wall.median)} per page.

## 3. Paging

${pages} pages of ${perPage} papers (one journal holding ${(pages * perPage).toLocaleString('en-US')} papers in the mock), every answer held back
${latencyMs} ms by the mock (\`faults.latencyMs\`). The loop asks for one page after the other with \`fetch\` until
\`total\` is reached; the SDK walks \`for await (const paper of client.journals.papers(1, { per_page: ${perPage} }, { prefetch }))\`.
${paging.rounds} rounds, round-robin. Every walk is compared item by item with the loop's: order ${paging.ordered ? 'preserved in every walk' : '**not preserved**'}.

${table(
  ['contender', 'time for 100 pages', 'loop ÷ contender (paired)'],
  paging.contenders.map((c) => {
    const s = paging.speedups.find((q) => q.name === c.name);
    return [c.name, ms(c.ms), s ? x(s.speedup) : '1'];
  }),
)}

Target ≥ ${x(targets.paging, 1)} at the best setting: ${verdict(pagingMet)} at ${x(best.speedup, 1)} (prefetch ${best.prefetch}; the loop took
${ms(loopMs)}). What limits it: \`prefetch\` is how many pages may be in flight while the walk yields
(default 1, at most 8). A consumer that does nothing with the items gains nothing from the default, which
only overlaps the next request with the consumer's own work; the ceiling at 8 is about 8× less the first
page, which has to come back alone because it tells \`total\` and the page size, and less the time the
server takes for 8 requests at once on its one thread. After a 429 the walk drops to one page ahead
(unit-tested in test/core/pagination.test.ts).

## 4. Memory

${items.toLocaleString('en-US')} papers, ${memoryPerPage} per page (${(items / memoryPerPage).toLocaleString('en-US')} requests), through one \`for await\`, each walk in a fresh process
(\`--expose-gc\`: the baseline is taken after a full collection, once a first short walk has loaded
everything). The pages come from a server, in another process, that makes them up as they are asked
for: the mock keeps its dataset in memory and a million papers would be slow to generate. Every walk
checks that it received papers 1 to ${items.toLocaleString('en-US')} in order.

${table(
  ['contender', 'baseline RSS', 'peak RSS', 'growth', 'heap kept after a full GC', 'time'],
  memory.map((m) => [
    memoryName(m),
    mb(m.baselineMB),
    mb(m.peakMB),
    mb(m.growthMB),
    mb(m.retainedMB),
    `${m.seconds.toFixed(1)} s${m.ordered ? '' : ' (**out of order**)'}`,
  ]),
)}

Target ≤ ${targets.memoryMB} MB: ${verdict(memoryMet)} at ${mb(sdkMemory.growthMB)} (default prefetch)${
    sdkMemory8 ? `, ${mb(sdkMemory8.growthMB)} at prefetch 8` : ''
  }. What limits it: the walk keeps nothing: after it and a full collection the heap holds
${mb(sdkMemory.retainedMB)} more than before it started${fetchMemory ? ` (the bare \`fetch\` loop: ${mb(fetchMemory.retainedMB)})` : ''}. The growth is V8 sizing its young
generation for what survives its collections (it grows to its maximum, 128 MB, when much does), and
what survives is mostly Node's \`fetch\`'s${
    fetchMemory && httpMemory && sdkHttpMemory
      ? `: a bare \`fetch\` + \`JSON.parse\` loop over the same pages grows by ${mb(fetchMemory.growthMB)}, the same
loop over \`node:http\` by ${mb(httpMemory.growthMB)}, and the SDK's walk given a \`fetch\` built on \`node:http\`
(bench/memory.ts) by ${mb(sdkHttpMemory.growthMB)}. The SDK's own share is that last figure less the \`node:http\`
loop's: per request a \`Response\` and its stream, the attempt's controller, timer and listener, and the
page being walked`
      : ''
  }. Node's \`fetch\` (undici) keeps bookkeeping for every response (a FinalizationRegistry entry and
WeakRefs); the SDK uses the runtime's \`fetch\` (or the one it is given) and imports no \`node:\` module,
so that cost comes with the runtime.

## 5. Cold start

A fresh \`node\` process per import, ${coldStart.rounds} rounds, round-robin. *import*: from the first import to the
last; *process*: from the process's start to the end of its imports.

${table(
  ['what is imported', 'import', 'process'],
  coldStart.contenders.map((c) => [c.name, ms(c.importMs, 1), ms(c.processMs, 1)]),
)}

The package loads neither ky nor zod: the requests go to \`fetch\` (section 1), and zod, with the
schemas, loads on the first refused body only. Importing it takes ${x(coldSdk.importMs / coldKyZod.importMs)} the time of
importing ky + zod (${x(coldSdk.importMs / coldKyMini.importMs)} of ky + zod/mini); what remains is the package itself and p-retry.
`;
}

/** BENCHMARKS.md, section 4: the million-item walk, against the same walk through ky by hand. */
import { memory as memoryConfig, targets } from './config.js';
import { count, find, mb, table, verdict, x } from './format.js';
import { median } from './lib.js';
import type { MemoryContender, MemoryResult } from './memory.js';

const same = (a: MemoryContender, b: MemoryContender) => JSON.stringify(a) === JSON.stringify(b);
const sdk1: MemoryContender = { kind: 'sdk', prefetch: 1 };
const sdk8: MemoryContender = { kind: 'sdk', prefetch: 8 };
const kyWalk: MemoryContender = { kind: 'ky' };
const checked: MemoryContender = { kind: 'ky, checked' };

function walkName(c: MemoryContender): string {
  switch (c.kind) {
    case 'sdk':
      return `scholarly-metrics for await, prefetch ${c.prefetch}`;
    case 'ky':
      return 'ky by hand + JSON.parse loop';
    case 'ky, checked':
      return 'ky by hand + JSON.parse + the shape’s safeParse loop';
    case 'fetch':
      return 'fetch + JSON.parse loop';
    case 'http':
      return 'node:http + JSON.parse loop (no fetch)';
  }
}

/** Peak RSS of an SDK walk over ky's in the same round, and the worst heap an SDK walk kept. */
export function memoryFigures(memory: MemoryResult[]) {
  const of = (c: MemoryContender) => memory.filter((m) => same(m.contender, c));
  const paired = (c: MemoryContender) =>
    median(
      of(c).map(
        (m) => m.maxRssMB / find(of(kyWalk), (k) => k.round === m.round, `ky in round ${m.round}`).maxRssMB,
      ),
    );
  const peak1 = paired(sdk1);
  const peak8 = paired(sdk8);
  const sdkWalks = [...of(sdk1), ...of(sdk8)];
  const retained = Math.max(...sdkWalks.map((m) => m.retainedMB));
  const ordered = memory.every((m) => m.ordered);
  const typical = (c: MemoryContender, key: 'baselineMB' | 'maxRssMB' | 'growthMB') =>
    median(of(c).map((m) => m[key]));
  return {
    peak1,
    peak8,
    retained,
    ordered,
    typical,
    of,
    rows: [
      [
        '4',
        `${count(memoryConfig.items)} items through \`for await\`: peak RSS, SDK walk ÷ ky by hand walk (paired per round)`,
        `${x(peak1)} at prefetch 1, ${x(peak8)} at prefetch 8`,
        `≤ ${x(targets.peakOverKy, 1)}`,
        verdict(peak1 <= targets.peakOverKy && ordered),
      ],
      [
        '4',
        'heap kept after the walk and a full GC (the worst SDK walk)',
        mb(retained),
        `≤ ${targets.retainedMB} MB`,
        verdict(retained <= targets.retainedMB),
      ],
    ],
  };
}

export function memoryText(memory: MemoryResult[]): string {
  const m = memoryFigures(memory);
  return `## 4. Memory

${count(memoryConfig.items)} papers, ${memoryConfig.perPage} per page (${count(memoryConfig.items / memoryConfig.perPage)} requests), through one \`for await\`, each walk in a fresh
process with \`--expose-gc\`, ${memoryConfig.rounds} rounds of the compared walks, round-robin. The yardstick is the same walk by
ky used by hand (the SDK's ky settings and headers, \`.text()\` + \`JSON.parse\`) over the same pages from
the same server. *peak RSS*: the kernel's high-water mark for the process (\`process.resourceUsage().maxRSS\`).
*kept*: heap in use after the walk and a full collection, less the same before it (after a short first
walk has loaded everything). A full collection here is \`gc()\` repeated a timer turn apart until the heap
stops shrinking: Node's \`fetch\` releases its per-response bookkeeping (a FinalizationRegistry, WeakRefs)
only in a later turn, and a single \`gc()\` right after the walk still counts several megabytes that
nothing holds. Every walk checks that it got papers 1 to ${count(memoryConfig.items)} in order.

${table(
  ['walk', 'round', 'baseline RSS', 'peak RSS', 'growth', 'heap kept after a full GC', 'time'],
  memory.map((w) => [
    walkName(w.contender),
    String((w.round ?? 0) + 1),
    mb(w.baselineMB),
    mb(w.maxRssMB),
    mb(w.growthMB),
    mb(w.retainedMB),
    `${w.seconds.toFixed(1)} s${w.ordered ? '' : ' (**out of order**)'}`,
  ]),
)}

Targets: peak RSS ≤ ${x(targets.peakOverKy, 1)} ky by hand's, ${verdict(m.peak1 <= targets.peakOverKy && m.ordered)} at ${x(m.peak1)} (prefetch 1, the default; ${x(m.peak8)} at prefetch 8); heap kept ≤
${targets.retainedMB} MB, ${verdict(m.retained <= targets.retainedMB)} at ${mb(m.retained)} (the worst SDK walk). Medians of the rounds, baseline RSS / growth: the SDK's walk
${mb(m.typical(sdk1, 'baselineMB'))} / ${mb(m.typical(sdk1, 'growthMB'))}; ky by hand ${mb(m.typical(kyWalk, 'baselineMB'))} / ${mb(m.typical(kyWalk, 'growthMB'))}; ky by hand checking each page with the SDK's
\`safeParse\`, growth ${mb(m.typical(checked, 'growthMB'))} (its baseline is not comparable: tsx compiles the schemas from src/ in
that process, where the SDK loads them built). What limits the ratio: the SDK's
code, zod and the generated parsers loaded and compiled (the baselines), the check's second copy of
every item (new objects, as zod's semantics require) and, at prefetch 1, the next page held while one is
walked. Growth here is mostly V8 sizing its young generation for what survives its collections, which
moves with the load from run to run: the rounds show how much, and a single pair of walks can land on
either side of the target.

The old target (≤ 30 MB of RSS growth, whatever the runtime does) is dropped: it measured the runtime,
not the SDK. The runtime's own loops over the same pages: \`fetch\` + \`JSON.parse\` grows by ${mb(m.typical({ kind: 'fetch' }, 'growthMB'))}, \`node:http\` +
\`JSON.parse\` by ${mb(m.typical({ kind: 'http' }, 'growthMB'))}: the difference is Node's \`fetch\` (undici), whatever client sits on it. The
comparison that isolates the SDK is against the same walk through the same \`fetch\` and the same ky.`;
}

// §2, the quota when no limit is set. The Quota is src/core/quota.ts itself: no build exports it.
import { Quota } from '../src/core/quota.js';
import { atMost, count, named, ns, pct, signed, spreadTable, us, verdict, x } from './format.js';
import { compare, pairedDifferences, scaled, spread } from './lib.js';
import type { Report, Results } from './report.js';
import { names as r, requestRatio, requestWall } from './request.js';

export const about = { id: '2', key: 'quota', file: 'quota.ts', title: 'The quota when no limit is set' };
const names = {
  bare: 'fn()',
  unset: 'new Quota().run(fn)',
  queued: 'new Quota({ maxConcurrency: 1_000_000 }).run(fn)',
};
/** The share of a loopback request that the quota may cost when no limit is set. */
const target = 0.02;

export async function measure() {
  const [unset, queued] = [new Quota(), new Quota({ maxConcurrency: 1_000_000 })];
  let sink = 0;
  const fn = async () => ++sink;
  // One operation is a loop of calls: per call, a timer's resolution would swamp nanoseconds.
  const calls = 2_000;
  const loop = (call: () => Promise<number>) => async () => {
    for (let n = 0; n < calls; n++) await call();
  };
  const runs = [fn, () => unset.run(fn, undefined), () => queued.run(fn, undefined)];
  const contenders = Object.fromEntries(Object.values(names).map((name, n) => [name, loop(runs[n]!)]));
  const options = { rounds: scaled(200, 6), batch: 5, warmup: 50 };
  const { rounds, batch, samples } = await compare(contenders, options);
  // µs per operation to ns per call.
  const nsOf = (name: string) => samples.get(name)!.wall.map((µs) => (µs * 1000) / calls);
  const bare = nsOf(names.bare);
  const added = (name: string) => ({ name, wall: spread(pairedDifferences(nsOf(name), bare)) });
  const times = Object.values(names).map((name) => ({ name, wall: spread(nsOf(name)) }));
  return { rounds, batch: batch * calls, contenders: times, added: [names.unset, names.queued].map(added) };
}

/** Judged on the upper quartile of the added time: a cost below the timer's resolution is noise around zero. */
export function report(quota: Results['quota'], results: Results): Report {
  const [unset, queued] = [named(quota.added, names.unset), named(quota.added, names.queued)];
  const [upper, loopbackNs] = [Math.max(0, unset.wall.p75), requestWall(results, 0, r.sdk) * 1000];
  const share = upper / loopbackNs;
  const what =
    'no limit set: what `Quota.run` adds to a call (upper quartile), as a share of a loopback request';
  const figure = `${ns(upper)} of ${us(loopbackNs / 1000)}: ${pct(share, 3)}`;
  const ratio = (of: string, to: string) => requestRatio(results, 0, of, to);
  const queuedOverSdk = ratio(r.sdkQueued, r.sdk);
  const head = ['call', 'time per call (p25 to p75)', 'added to fn() (p25 to p75)'];
  const text = `Without \`maxConcurrency\` or \`maxRequestsPerMinute\`, a client's \`Quota\` (src/core/quota.ts) is one branch before
\`send()\`. Per request (section 1, loopback): the SDK with no limit ÷ ky by hand ${x(ratio(r.sdk, r.ky).wall.median)}; with \`maxConcurrency: 1_000_000\`
(a queue never full) ${x(ratio(r.sdkQueued, r.ky).wall.median)}, and ÷ the SDK with no limit ${x(queuedOverSdk.wall.median)} (CPU ${x(queuedOverSdk.cpu.median)}), far above the branch's own cost. The
branch itself (src/ through tsx): \`await quota.run(fn)\` against \`await fn()\` for an async \`fn\` that does nothing, ${quota.rounds}
rounds of ${count(quota.batch)} calls.

${spreadTable(head, quota.contenders, ns, quota.added, (n) => signed(n, ns))}

Target (no limit set, the limiter costs ≤ ${pct(target, 0)} per request): ${verdict(share <= target)}. The branch adds ${signed(unset.wall.median, ns)} per call at
the median, at most ${ns(upper)} in three rounds out of four: ${pct(share, 4)} of the SDK's loopback request (${us(loopbackNs / 1000)}). A
queue present but never full costs ${ns(queued.wall.median)} per call (its bookkeeping and promise): the ${x(queuedOverSdk.wall.median)} above.`;
  return { rows: [atMost(what, figure, share, target, pct(target, 0))], text };
}

/**
 * 2. The quota when no limit is set: `new Quota().run(fn)` against calling `fn()` itself, and, for
 * scale, a quota whose limits are set but never reached. `fn` is an async function that does
 * nothing, so that what is measured is the quota's own work per request, nothing else. The Quota is
 * src/core/quota.ts itself (the class is internal to the package: no build exports it).
 */
import { Quota } from '../src/core/quota.js';
import { quotaNames as names } from './config.js';
import { type Contender, interleave, pairedRatios, report, type Spread, spread } from './lib.js';

export interface QuotaResult {
  rounds: number;
  batch: number;
  /** Time per call, in ns. */
  contenders: Array<{ name: string; wall: Spread }>;
  /** What each quota adds to `fn()` per call, paired per round, in ns. */
  added: Array<{ name: string; wall: Spread; ratio: Spread }>;
}

async function main(): Promise<QuotaResult> {
  const unset = new Quota();
  const queued = new Quota({ maxConcurrency: 1_000_000 });
  let sink = 0;
  const fn = async () => {
    sink++;
    return sink;
  };
  // One contender call is a whole batch: per call, a timer's resolution would swamp nanoseconds.
  const calls = 2_000;
  const loop = (call: () => Promise<number>) => async () => {
    for (let n = 0; n < calls; n++) await call();
  };
  const contenders: Contender[] = [
    { name: names.bare, run: loop(fn) },
    { name: names.unset, run: loop(() => unset.run(fn, undefined)) },
    { name: names.queued, run: loop(() => queued.run(fn, undefined)) },
  ];
  const rounds = 200;
  const batch = 5;
  const samples = await interleave(contenders, { rounds, batch, warmup: 50 });
  // interleave gives µs per contender call; per `fn` call in ns is that × 1000 / calls.
  const ns = (name: string) => samples.get(name)!.wall.map((us) => (us * 1000) / calls);
  const bare = ns(names.bare);
  if (sink === 0) throw new Error('fn never ran');
  return {
    rounds,
    batch: batch * calls,
    contenders: contenders.map(({ name }) => ({ name, wall: spread(ns(name)) })),
    added: [names.unset, names.queued].map((name) => ({
      name,
      wall: spread(ns(name).map((value, i) => value - bare[i]!)),
      ratio: spread(pairedRatios(ns(name), bare)),
    })),
  };
}

await report(main);

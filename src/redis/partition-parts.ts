/**
 * What the partitions of one Redis quota share: its limits, as the scripts take them, and the parts
 * the quota makes once for all of them.
 */
import { acquireScript, type ScriptLimits } from './acquire-script.js';
import { type Script, type ScriptRunner, script } from './adapter.js';
import type { Deadlines } from './deadlines.js';

/** How long a waiting ticket keeps its place in line past the wait it was told, unless it asks again. */
const lineGraceMs = 5_000;

/** A partition owing Redis a send that failed, as close() reaches it: it lands its calls, then sends. */
export interface Owing {
  land(): Promise<void>;
  close(): Promise<void>;
}

/** The scripts' limits, and the lease each call carries. */
export interface PartitionLimits extends ScriptLimits {
  /** `leaseMs`, or undefined: the attempt's timeout plus a margin (partition.ts's `leaseMarginMs`). */
  readonly leaseMs: number | undefined;
}

/**
 * What every partition of one quota shares, made once by the quota (`partitionParts`): among it the
 * acquire script of its limits, whose text is long, where a fleet serving many keys makes a partition
 * for each; and `owe`, told of a partition whose send of an end or a hold failed: what it then owes
 * Redis waits for close(), so whoever closes must keep hold of it until then.
 */
export interface PartitionParts {
  readonly run: ScriptRunner;
  readonly limits: PartitionLimits;
  readonly deadlines: Deadlines;
  readonly acquire: Script;
  readonly owe: (partition: Owing) => void;
}

/** The limits as the scripts are made with them: the lease goes with each call, not in the source. */
export const scriptSettings = ({ leaseMs: _perCall, ...limits }: PartitionLimits) => ({
  ...limits,
  lineGraceMs,
});

/** The parts of the partitions of a quota with `limits`: its acquire script made here, once. */
export function partitionParts(
  run: ScriptRunner,
  limits: PartitionLimits,
  deadlines: Deadlines,
  owe: PartitionParts['owe'],
): PartitionParts {
  return { run, limits, deadlines, owe, acquire: script(acquireScript(scriptSettings(limits))) };
}

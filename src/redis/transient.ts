import { sleep } from '../core/abort.js';
import type { Script, ScriptRunner } from './adapter.js';

/**
 * The first word of Redis's answer in an error, also when ioredis gave up past its `maxRedirections`
 * and names the last answer it got.
 */
const answerWord = /^(?:Too many Cluster redirections\. Last error: (?:\w+: )?)?([A-Z]+)\b/;

function answerOf(error: unknown): string | undefined {
  return answerWord.exec(String((error as Error | undefined)?.message))?.[1];
}

/**
 * Answers a Redis Cluster gives while it moves or finds a slot, before running anything: the same
 * script sent again a moment later runs. node-redis follows MOVED and ASK itself but not TRYAGAIN
 * (a multi-key command during a slot migration); a client that does not follow them, or a node still
 * loading its data, answers the rest. ioredis follows them all up to its `maxRedirections`, then
 * gives up naming the last answer: a migration that outlasts them is transient all the same.
 */
const transientAnswers = new Set(['TRYAGAIN', 'MOVED', 'ASK', 'CLUSTERDOWN', 'LOADING']);

/** Backoff between sends after a transient answer: from this, doubling, to the cap. */
const firstBackoffMs = 10;
const backoffCapMs = 200;

export function isTransient(error: unknown): boolean {
  return error instanceof Error && transientAnswers.has(answerOf(error) ?? '');
}

/** Whether a script may be sent again after a transient answer and `backoffMs` more of waiting. */
export interface Patience {
  more(backoffMs: number): boolean;
}

/** Patience until `at` (`performance.now()` time). */
export function until(at: number): Patience {
  return { more: (backoffMs) => performance.now() + backoffMs < at };
}

/**
 * Runs `script` through `run`, sent again after each transient answer while `patience` says there is
 * time left (the call's timeout, or close()'s); any other failure, or a transient one past that, is
 * the caller's. The first call of each script sends it whole, which loads it into Redis's cache; later
 * calls send its SHA-1 alone. Sending the SHA-1 first would turn a fire-and-forget call (a release, a
 * block) into two round trips the first time, the second of which a client closing meanwhile never
 * sends. One async function for both: each layer is a turn of the event loop's microtasks per call.
 */
export async function runThroughTransients(
  run: ScriptRunner,
  script: Script,
  keys: string[],
  args: string[],
  patience: Patience,
): Promise<unknown> {
  let whole = !run.loaded.has(script.sha);
  let backoff = firstBackoffMs;
  for (;;) {
    try {
      if (!whole) return await run.bySha(script, keys, args);
      const reply = await run.whole(script, keys, args);
      run.loaded.add(script.sha);
      return reply;
    } catch (error) {
      // A restarted or flushed Redis has lost its script cache: EVAL loads the script again. A node
      // that restarted while ioredis followed redirections says so as the last answer it got.
      const lost = !whole && answerOf(error) === 'NOSCRIPT';
      if (!(lost || isTransient(error)) || !patience.more(lost ? 0 : backoff)) throw error;
      if (lost) {
        whole = true;
        continue;
      }
      await sleep(backoff, undefined);
      // Asked again: a call that stopped waiting meanwhile sends nothing more, or Redis could grant it a
      // place after the end it sent on leaving, and nobody would give that place back.
      if (!patience.more(0)) throw error;
      backoff = Math.min(backoff * 2, backoffCapMs);
    }
  }
}

/** A script sent alone: what {@link patientRunner} makes. */
export type ScriptCall = (script: Script, keys: string[], args: string[]) => Promise<unknown>;

/** A runner that retries transient answers for up to `ms` per script: for ends and holds sent alone. */
export function patientRunner(run: ScriptRunner, ms: number): ScriptCall {
  return (script, keys, args) => runThroughTransients(run, script, keys, args, until(performance.now() + ms));
}

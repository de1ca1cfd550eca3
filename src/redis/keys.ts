import { createHash } from 'node:crypto';
import type { QuotaIdentity } from '../core/quota-types.js';

/**
 * The keys of one partition, in the one order every script takes them: the scripts open with a local
 * per name (`minuteKey = KEYS[1]`, …) generated from this list, and the quota sends the keys in it.
 */
export const keyNames = [
  'minute',
  'day',
  'leases',
  'line',
  'lineExpiry',
  'lineSeq',
  'pause',
  'block',
  'pace',
] as const;
export type KeyName = (typeof keyNames)[number];

/** Short names: every call sends every key. */
const suffixes: Record<KeyName, string> = {
  minute: 'm',
  day: 'd',
  leases: 'l',
  line: 'q',
  lineExpiry: 'qx',
  lineSeq: 'qn',
  pause: 'p',
  block: 'b',
  pace: 'n',
};

/**
 * `prefix:{hash}:name` for each of {@link keyNames}, in order: the braces make a Redis Cluster keep a
 * partition's keys in one slot, as a script that touches several keys needs.
 */
export function partitionKeys(prefix: string, hash: string): string[] {
  return keyNames.map((name) => `${prefix}:{${hash}}:${suffixes[name]}`);
}

/** SHA-256 of the base URL and the key (or of its absence), cut to 128 bits: no secret, no clash. */
export function partitionHash({ baseUrl, apiKey }: QuotaIdentity): string {
  const key = apiKey === null ? 'none' : `key:${apiKey}`;
  return createHash('sha256').update(`${baseUrl}\n${key}`).digest().subarray(0, 16).toString('base64url');
}

/** One named argument of a script: numbers are converted once, where the script opens. */
export interface ArgSpec {
  readonly name: string;
  readonly number?: boolean;
}

/**
 * The opening lines of a script: a local for each key it takes, by position (`keys`, all of them
 * unless told; a key left out is a nil local its script never reaches), a local for each of
 * `constants` written into the source, and one for each named argument, by position.
 */
export function luaPrologue(
  args: readonly ArgSpec[],
  keys: readonly KeyName[] = keyNames,
  constants: Readonly<Record<string, number>> = {},
): string {
  const keyLocals = keyNames.map((name) => {
    const at = keys.indexOf(name);
    return at < 0 ? `local ${name}Key -- not taken: no such limit` : `local ${name}Key = KEYS[${at + 1}]`;
  });
  const fixed = Object.entries(constants).map(([name, value]) => `local ${name} = ${luaNumber(value)}`);
  const argv = args.map(({ name, number }, i) =>
    number ? `local ${name} = tonumber(ARGV[${i + 1}])` : `local ${name} = ARGV[${i + 1}]`,
  );
  return [...keyLocals, ...fixed, ...argv].join('\n');
}

/** A finite number as a Lua literal: JavaScript's shortest form reads back as the same double. */
function luaNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
}

/**
 * The arguments of a script as an array to copy per call: `fixed` fills the names it holds, and
 * `slot(name)` says where a per-call value goes.
 */
export function argTemplate(
  args: readonly ArgSpec[],
  fixed: Readonly<Record<string, string | number>>,
): { template: readonly string[]; slot: (name: string) => number } {
  const template = args.map(({ name }) => (name in fixed ? String(fixed[name]) : ''));
  const slot = (name: string) => {
    const index = args.findIndex((arg) => arg.name === name);
    if (index < 0) throw new Error(`no argument ${name}`);
    return index;
  };
  return { template, slot };
}

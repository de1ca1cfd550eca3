/**
 * 5. Browser bundles: `size-limit --json` over scripts/size-limit.config.mjs, on the build under test
 * (BENCH_DIST), so that BENCHMARKS.md carries size-limit's own figures and verdicts; then
 * bench/size-parts.config.mjs for what each dependency weighs in the client's bundle.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib.js';

export interface SizeResult {
  /** One per entry of the config: gzipped bytes and size-limit's verdict against its limit, if it has one. */
  entries: Array<{ name: string; bytes: number; limitBytes?: number; passed?: boolean }>;
  /** The client's bundle less the same without one dependency, and the client's own code alone. */
  parts: Array<{ name: string; bytes: number }>;
  /** scripts/first-load.mjs: esbuild's split bundle of an app making one call, each chunk gzip -9. */
  firstLoad?: { firstLoad: Measure; whole: Measure; budgets: { firstLoad: number } };
  /** Set when size-limit could not measure (a module check failed, a file is missing…). */
  error?: string;
}

interface Measure {
  bytes: number;
  chunks: number;
}

function firstLoad(): SizeResult['firstLoad'] | string {
  const run = spawnSync(process.execPath, [join(root, 'scripts/first-load.mjs'), '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: process.env,
  });
  try {
    return JSON.parse(run.stdout);
  } catch {
    return `scripts/first-load.mjs printed no JSON (exit ${run.status}): ${run.stderr.trim()}`;
  }
}

interface Entry {
  name: string;
  size: number;
  sizeLimit?: number;
  passed?: boolean;
}

function sizeLimit(config: string): Entry[] | string {
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules/size-limit/bin.js'), '--config', config, '--json'],
    { cwd: root, encoding: 'utf8', env: process.env },
  );
  const out = run.stdout.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(out.slice(out.search(/[[{]/)));
  } catch {
    return `size-limit printed no JSON (exit ${run.status}): ${run.stderr.trim()}`;
  }
  if (Array.isArray(parsed)) return parsed as Entry[];
  // A failed module check ends the run with an error; rolldown's message may be on stderr.
  const message = (parsed as { error?: string }).error ?? 'unknown error';
  const detail = run.stderr.match(/must not contain[^\n]*|is missing[^\n]*/)?.[0];
  return detail ? `${message}: ${detail}` : message;
}

export function sizes(): SizeResult {
  const checked = sizeLimit('scripts/size-limit.config.mjs');
  const split = sizeLimit('bench/size-parts.config.mjs');
  const entries =
    typeof checked === 'string'
      ? []
      : checked.map((e) => ({
          name: e.name,
          bytes: e.size,
          ...(e.sizeLimit !== undefined && { limitBytes: e.sizeLimit, passed: e.passed === true }),
        }));
  const parts: SizeResult['parts'] = [];
  if (typeof split !== 'string') {
    const size = (name: string) => split.find((e) => e.name === name)?.size ?? Number.NaN;
    for (const e of split) {
      if (e.name.startsWith('without ') && e.name !== 'without any dependency') {
        parts.push({ name: e.name.slice('without '.length), bytes: size('whole') - e.size });
      }
    }
    parts.push({
      name: 'the SDK’s own code (every dependency left out)',
      bytes: size('without any dependency'),
    });
  }
  const first = firstLoad();
  const error = [checked, split, first].filter((r): r is string => typeof r === 'string').join('; ');
  return { entries, parts, ...(typeof first === 'object' && { firstLoad: first }), ...(error && { error }) };
}

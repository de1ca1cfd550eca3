/**
 * The shell recipes of the pages (blocks marked `<!-- runs: bash -->`) run as written, with bash, in a
 * project of their own: real `npx`, real `npm run test:e2e`. Only the bin is this repository's
 * (node_modules/.bin/scholarly-metrics-mock runs src/testing/cli.ts), as `npm install` would link the
 * published one. The `test:e2e` script calls the mock with the variables it was given.
 *
 * Each run is its own process group, killed whole once its checks are done, or if it has not ended
 * after a minute. Its output goes to files, not pipes, so that a process a recipe leaves behind
 * cannot hold the test up; the test fails on such a process through the port it still serves.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive } from '../helpers/alive.js';
import { bundled } from '../helpers/bundle.js';
import { blocks, pages, root, SHELL } from './markdown.js';

const recipes = pages()
  .flatMap((page) => blocks(page))
  .filter((block) => SHELL.has(block.lang) && block.marker === '<!-- runs: bash -->');

// The mock's command line, bundled with the source once for the file (test/helpers/bundle.ts).
const cli = bundled(join(root, 'src/testing/cli.ts'));

// What the recipe's command does: call the mock it was pointed at, then exit with E2E_EXIT.
const e2e = `import { writeFileSync } from 'node:fs';
const { METRIC_BASE_URL: base, METRIC_API_KEY: key } = process.env;
writeFileSync('seen-url.txt', base ?? '');
const response = await fetch(\`\${base}/subjects\`, { headers: { authorization: \`Bearer \${key}\` } });
console.log(\`e2e: \${response.status}, \${(await response.json()).length} subjects\`);
process.exit(Number(process.env.E2E_EXIT ?? 0));
`;

function project(): string {
  const directory = mkdtempSync(join(tmpdir(), 'scholarly-recipe-'));
  const scripts = { 'test:e2e': 'node e2e.mjs' };
  writeFileSync(join(directory, 'package.json'), JSON.stringify({ name: 'recipe', private: true, scripts }));
  writeFileSync(join(directory, 'e2e.mjs'), e2e);
  mkdirSync(join(directory, 'node_modules', '.bin'), { recursive: true });
  const bin = join(directory, 'node_modules', '.bin', 'scholarly-metrics-mock');
  writeFileSync(bin, `#!/bin/sh\nexec node "${cli}" "$@"\n`);
  chmodSync(bin, 0o755);
  return directory;
}

interface Result {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly directory: string;
}

/**
 * Runs `args` in a fresh project as a process group of its own (and `during` while it runs), then
 * `check` on the result; kills the group when `check` is done, or if the run has not ended after 60 s.
 */
async function run(
  args: string[],
  env: Record<string, string>,
  check: (result: Result) => Promise<void>,
  during?: (stderr: () => string, kill: (signal: NodeJS.Signals) => void) => Promise<void>,
) {
  const directory = project();
  const out = openSync(join(directory, 'stdout.log'), 'w');
  const err = openSync(join(directory, 'stderr.log'), 'w');
  const child = spawn(args[0]!, args.slice(1), {
    cwd: directory,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', out, err],
  });
  closeSync(out);
  closeSync(err);
  const output = (name: string) => readFileSync(join(directory, name), 'utf8');
  try {
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error(`did not end:\n${output('stderr.log')}`)), 60_000);
      child.once('exit', (code, signal) => {
        clearTimeout(guard);
        resolve([code, signal]);
      });
    });
    await during?.(
      () => output('stderr.log'),
      (signal) => child.kill(signal),
    );
    const [code, signal] = await exited;
    await check({ code, signal, stdout: output('stdout.log'), stderr: output('stderr.log'), directory });
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The group is already empty.
    }
    rmSync(directory, { recursive: true, force: true });
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/subjects`);
    return true;
  } catch {
    return false;
  }
}

describe('the shell recipes run as written', { timeout: 90_000 }, () => {
  it('README.md and docs/mock-api.md show them', () => {
    expect(recipes.map((block) => block.page)).toEqual(
      expect.arrayContaining(['README.md', 'docs/mock-api.md']),
    );
  });

  describe.concurrent.each(recipes.map((block) => [`${block.page}:${block.line}`, block] as const))(
    '%s',
    (_, block) => {
      it('runs the command against the mock, then stops the mock', async ({ expect }) => {
        await run(['bash', '-c', block.code], {}, async (result) => {
          expect(result.code, result.stderr).toBe(0);
          expect(result.stdout).toContain('e2e: 200, 25 subjects');
          const url = readFileSync(join(result.directory, 'seen-url.txt'), 'utf8');
          expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
          expect(await answers(url), 'the mock outlived the recipe').toBe(false);
        });
      });

      it("fails with the command's exit code", async ({ expect }) => {
        await run(['bash', '-c', block.code], { E2E_EXIT: '3' }, async (result) => {
          expect(result.stdout).toContain('e2e: 200, 25 subjects');
          expect(result.code, result.stderr).toBe(3);
          const url = readFileSync(join(result.directory, 'seen-url.txt'), 'utf8');
          expect(await answers(url), 'the mock outlived the recipe').toBe(false);
        });
      });
    },
  );

  it('passes SIGTERM on to the command, exits 128 + 15, and prints nothing on stdout', async () => {
    // The mock's banner quotes the command, so the command announces itself without spelling it out.
    const say = "console.error('com' + 'mand ' + process.pid); setInterval(() => {}, 1000)";
    const args = [process.execPath, cli, '--port', '0', '--', process.execPath, '-e', say];
    const started = async (stderr: () => string, kill: (signal: NodeJS.Signals) => void) => {
      while (!/^command \d+$/m.test(stderr())) await new Promise((resolve) => setTimeout(resolve, 50));
      kill('SIGTERM');
    };
    await run(
      args,
      {},
      async (result) => {
        expect({ code: result.code, signal: result.signal }, result.stderr).toEqual({
          code: 143,
          signal: null,
        });
        expect(result.stdout).toBe('');
        const pid = Number(/^command (\d+)$/m.exec(result.stderr)?.[1]);
        expect(alive(pid), 'the command outlived the mock').toBe(false);
      },
      started,
    );
  });
});

/**
 * The `scholarly-metrics` lines of the pages (shell blocks marked `<!-- runs: scholarly-metrics --mock -->`)
 * run as written, with bash: `npx scholarly-metrics` is this repository's bin (test/helpers/bin.ts:
 * built, or its TypeScript bundled), in a scratch folder holding a `dois.txt`. A line written with
 * `--mock` runs on the bin's built-in mock; every other line runs as a user's would, against the API
 * its environment names (METRIC_BASE_URL, METRIC_API_KEY): a mock server of its own, the same dataset
 * over HTTP. The bin then builds no dataset of its own: the larger part of a `--mock` run's CPU.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCK_API_KEY, MOCK_DOIS, type MockServer, startMockServer } from '../../src/testing/index.js';
import { cliBin } from '../helpers/bin.js';
import { blocks, pages, SHELL } from './markdown.js';

const lines = pages()
  .flatMap((page) => blocks(page))
  .filter((block) => SHELL.has(block.lang) && block.marker === '<!-- runs: scholarly-metrics --mock -->')
  .flatMap((block) =>
    block.code
      .split('\n')
      .map((line, i) => ({ page: block.page, line: block.line + 1 + i, code: line.replace(/\s+#.*$/, '') }))
      .filter(({ code }) => /^(npx )?scholarly-metrics /.test(code)),
  )
  // A line that two pages both show, one of them with --mock, runs once.
  .filter((line, i, all) => all.findIndex((other) => commandOf(other.code) === commandOf(line.code)) === i);

function commandOf(code: string): string {
  return code.replace(/^npx /, '').replace(' --mock ', ' ');
}

/** Runs a line with bash, `env` added; never rejects. */
function bash(code: string, directory: string, env: Record<string, string>) {
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'bash',
      ['-c', code.replace(/^npx /, '')],
      {
        cwd: directory,
        env: { ...process.env, PATH: `${join(directory, 'bin')}:${process.env.PATH}`, ...env },
        timeout: 50_000,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function folder(): string {
  const directory = mkdtempSync(join(tmpdir(), 'scholarly-cli-doc-'));
  mkdirSync(join(directory, 'bin'));
  const shim = join(directory, 'bin', 'scholarly-metrics');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${cliBin}" "$@"\n`);
  chmodSync(shim, 0o755);
  writeFileSync(join(directory, 'dois.txt'), `${MOCK_DOIS.join('\n')}\n`);
  return directory;
}

describe('the command lines of the pages run against the mock API', { timeout: 60_000 }, () => {
  it('README.md and docs/cli.md show them', () => {
    expect(new Set(lines.map((line) => line.page))).toEqual(new Set(['README.md', 'docs/cli.md']));
  });

  // Each line waits mostly on its own process: they run a few at a time.
  it.concurrent.each(lines.map((line) => [`${line.page}:${line.line}`, line.code] as const))(
    '%s: %s',
    async (_, code) => {
      const directory = folder();
      // A server per line, not the file's one (useMockServer): the lines run side by side, and each
      // meets a mock as fresh as a `--mock` run's, its rate limit included.
      let server: MockServer | undefined;
      try {
        server = / --mock /.test(code) ? undefined : await startMockServer();
        const env = server
          ? { METRIC_BASE_URL: server.url, METRIC_API_KEY: MOCK_API_KEY }
          : { METRIC_BASE_URL: '', METRIC_API_KEY: '' };
        const before = new Set(readdirSync(directory));
        const result = await bash(code, directory, env);
        expect(result.status, result.stderr).toBe(0);
        // Something was written: on stdout, or to the file the line names.
        const made = readdirSync(directory).filter((name) => !before.has(name));
        expect(result.stdout.length + made.length).toBeGreaterThan(0);
        expect(result.stderr).not.toMatch(/^error: /m);
      } finally {
        await server?.close();
        rmSync(directory, { recursive: true, force: true });
      }
    },
  );
});

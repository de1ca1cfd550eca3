import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnNode } from '../helpers/spawn.js';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 4, papers: 30, authors: 4 } });

describe('a checkpoint being written when the process exits at once (a second Ctrl-C)', () => {
  it('leaves no temporary file beside the output', async () => {
    const folder = scratch();
    const script = fileURLToPath(new URL('./fixtures/checkpoint-exit-child.ts', import.meta.url));
    const { code, stderr } = await spawnNode(script, [join(folder, 'out.jsonl.checkpoint.json')], {
      bundle: true,
    }).exited;
    expect(code, stderr).toBe(130);
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('temporary files a killed run left', () => {
  it('are swept when a harvest of that output starts: those of its checkpoint alone', async () => {
    const folder = scratch();
    const file = join(folder, 'out.jsonl');
    const left = `${file}.checkpoint.json.0123456789abcdef.tmp`;
    const others = [`${file}.checkpoint.json.notours.tmp`, `${file}.0123456789abcdef.tmp`, 'other.tmp'];
    for (const name of [left, ...others.map((other) => join(folder, basename(other)))])
      writeFileSync(name, '{"complete":fa');
    const result = await run(['papers', 'search', '--q', 'coral', '-o', file], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(left)).toBe(false);
    expect(readdirSync(folder).sort()).toEqual(
      ['out.jsonl', 'out.jsonl.checkpoint.json', ...others.map((other) => basename(other))].sort(),
    );
  });
});

describe('an output whose checkpoint cannot be there', () => {
  const long = `${'b'.repeat(236)}.csv`; // a legal name; with .checkpoint.json it passes 255 bytes

  it('a one-request command writes it: it keeps no checkpoint', async () => {
    const file = join(scratch(), long);
    const result = await run(['journals', 'list', '-o', file], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(file)).toBe(true);
  });

  it('a harvest is refused before any request: its checkpoint could never be saved', async () => {
    const file = join(scratch(), long);
    const asked = mock.api.requests.length;
    const result = await run(['papers', 'search', '--q', 'coral', '-o', file], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/too long a name to keep b+\.csv\.checkpoint\.json beside it/);
    expect(mock.api.requests.length).toBe(asked);
  });

  it('an output under a file, not a folder: cannot write --output (exit 2)', async () => {
    const folder = scratch();
    writeFileSync(join(folder, 'notes'), 'a file');
    const file = join(folder, 'notes', 'x.csv');
    for (const command of [
      ['journals', 'list'],
      ['papers', 'search', '--q', 'coral'],
    ]) {
      const result = await run([...command, '-o', file], { url: mock.server.url });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: cannot write --output .*x\.csv: ENOTDIR/);
    }
  });
});

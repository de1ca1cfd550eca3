import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnNode } from '../helpers/spawn.js';
import { scratch } from './resume.js';

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

// Files share modules in the `node` project: one that replaces a module and is not listed as
// isolated would hand its replacement to whichever file the worker runs next.
import { existsSync, globSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { changesProcessState, replacesModules, startFirst } from './suite-plan.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the layout of the Node suite', () => {
  it('runs isolated exactly the test files that replace a module', () => {
    const replacing = globSync('test/**/*.test.ts', { cwd: root })
      .map((file) => file.replaceAll('\\', '/'))
      .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(`${root}${file}`, 'utf8')))
      .sort();
    expect(replacing).toEqual([...replacesModules].sort());
  });

  it('starts first, or isolates for their process state, files that exist', () => {
    for (const file of [...startFirst, ...changesProcessState])
      expect(existsSync(`${root}${file}`), file).toBe(true);
  });
});

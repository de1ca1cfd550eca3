// Every hand-written source file stays short enough to read in one sitting; generated files are
// exempt. Functions are held to 60 lines by biome (biome.json).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '../../src');
const maxLines = 300;

describe('the size of source files', () => {
  it(`keeps every hand-written file of src/ within ${maxLines} lines`, () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.generated.ts'),
    );
    expect(files.length).toBeGreaterThan(150);
    const long = files
      .map((file) => ({ file, lines: readFileSync(join(src, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > maxLines);
    expect(long).toEqual([]);
  });
});

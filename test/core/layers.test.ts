import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Dependencies point one way: core is at the bottom, and the schemas sit on it. Were core to import
 * the cache, Redis, the webhooks or the command line (types included), each would be tied to the
 * others and to every client's first load.
 */

const src = join(import.meta.dirname, '../../src');

/** Every module specifier in `code`: imports, re-exports (type-only ones too) and dynamic imports. */
function specifiersOf(code: string): string[] {
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...withoutComments.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
    (m) => m[1] ?? '',
  );
}

/** The folder under src/ each relative import of the files under `folder` reaches (`core`, `cache`, …, or `.` for src/ itself). */
function layersReachedFrom(folder: string): { file: string; specifier: string; layer: string }[] {
  const root = join(src, folder);
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.ts'),
  );
  return files.flatMap((file) => {
    const path = join(root, file);
    return specifiersOf(readFileSync(path, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => {
        const target = relative(src, join(dirname(path), specifier));
        const layer = target.includes(sep) ? (target.split(sep)[0] as string) : '.';
        return { file: relative(src, path), specifier, layer };
      });
  });
}

describe('the import graph', () => {
  it('finds imports of every kind (the check below could fail)', () => {
    const code = [
      "import type { A } from '../cache/a.js';",
      "export { B } from '../redis/b.js';",
      "const c = await import('../cli/c.js');",
      "// import { D } from '../webhooks/d.js';",
    ].join('\n');
    expect(specifiersOf(code)).toEqual(['../cache/a.js', '../redis/b.js', '../cli/c.js']);
    expect(layersReachedFrom('core').length).toBeGreaterThan(50);
  });

  it('core imports nothing outside src/core', () => {
    const outside = layersReachedFrom('core').filter(({ layer }) => layer !== 'core');
    expect(outside).toEqual([]);
  });

  it('the schemas import only the schemas and core', () => {
    const above = layersReachedFrom('schemas').filter(({ layer }) => layer !== 'schemas' && layer !== 'core');
    expect(above).toEqual([]);
  });

  it('the API table imports only itself, the schemas and core', () => {
    const above = layersReachedFrom('api').filter(
      ({ layer }) => layer !== 'api' && layer !== 'schemas' && layer !== 'core',
    );
    expect(above).toEqual([]);
  });
});

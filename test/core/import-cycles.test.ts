// No module of src/ reaches itself through its imports (type-only and dynamic ones included): a cycle
// ties files together so that neither can be read, tested or split without the other.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsIn, importsOf, resolveLocal } from '../testing/import-graph.js';

const src = join(import.meta.dirname, '../../src');

/** Every module of src/ a file imports, re-exports or loads, type-only and dynamic imports included. */
function localImportsOf(file: string): string[] {
  const { static: loaded, typeOnly, dynamic } = importsOf(file);
  return [...loaded, ...typeOnly, ...dynamic]
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolveLocal(file, specifier));
}

const sourceFiles = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => join(src, file));

/** The strongly connected groups of more than one file (Tarjan), each a cycle or knot of cycles. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || graph.get(node)?.includes(node)) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

describe('the import graph of src/', () => {
  it('finds a cycle where there is one (the check below could fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']]);
    expect(sourceFiles.length).toBeGreaterThan(150);
    // A string holding `/*` hides no import from the reader, nor does a comment's text make one.
    const code = "const glob = '/api/*';\nimport { a } from './a.js';\n// */ import { b } from './b.js';";
    expect(importsIn(code)).toEqual([{ specifier: './a.js', kind: 'static' }]);
  });

  it('has no cycle', () => {
    const graph = new Map(sourceFiles.map((file) => [file, localImportsOf(file)]));
    const cycles = cyclesOf(graph).map((group) => group.map((file) => relative(src, file)));
    expect(cycles).toEqual([]);
  });
});

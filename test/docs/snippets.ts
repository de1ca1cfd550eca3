/**
 * Turns a documented TypeScript block into a module the doc test can import, and runs it.
 *
 * What a block may leave out, because pages read better without it:
 * - imports of the package's own names (`MetricClient`, `NotFoundError`, `createMockApi`, …): each
 *   name the block uses but neither imports nor declares is imported from the sources (in docs/
 *   only: the README's blocks are copied whole, so they import what they use);
 * - `client`, a `MetricClient`, and `api`, the mock API behind it (`createMockApi()`), when the
 *   block uses them without declaring them.
 *
 * A line ending in `// → <value>` is checked: the value of the statement before the comment (or of
 * the variable it declares), shown as `util.inspect` shows it, must read exactly `<value>`
 * (runs of white space count as one space). Every such line must run at least once.
 *
 * The package's names are rewritten to its sources (src/, openapi/), and `vitest` to
 * vitest-shim.ts, so that a block written as a test file runs its tests here.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, inspect } from 'node:util';
import { vi } from 'vitest';
import { type Block, root } from './markdown.js';
import { forgetCollected, runCollected } from './vitest-shim.js';

/** Where each name a block imports leads: the package's entries to src/, `vitest` to the doc test's shim. */
export const targets: Record<string, string> = {
  'scholarly-metrics': 'src/index.ts',
  'scholarly-metrics/webhooks': 'src/webhooks/index.ts',
  'scholarly-metrics/testing': 'src/testing/index.ts',
  'scholarly-metrics/redis': 'src/redis/index.ts',
  'scholarly-metrics/query': 'src/query/index.ts',
  'scholarly-metrics/openapi.json': 'openapi/openapi.json',
  vitest: 'test/docs/vitest-shim.ts',
};

/** Where each of the package's runtime names is imported from when a block leaves it out. */
export type Exported = ReadonlyMap<string, string>;

export async function packageExports(): Promise<Exported> {
  const names = new Map<string, string>();
  for (const specifier of ['scholarly-metrics', 'scholarly-metrics/testing', 'scholarly-metrics/webhooks']) {
    const module: Record<string, unknown> = await import(/* @vite-ignore */ join(root, targets[specifier]!));
    // `default` (the client, also exported by name) is a word pages use, never a name to import.
    for (const name of Object.keys(module))
      if (name !== 'default' && !names.has(name)) names.set(name, specifier);
  }
  return names;
}

const uses = (code: string, name: string) =>
  new RegExp(`(?<![\\w$.])${name.replace('$', '\\$')}(?![\\w$])`).test(code);
const declares = (code: string, name: string) =>
  new RegExp(`\\b(?:const|let|var|function|class)\\s+${name}\\b`).test(code);

/** The local names a block's own import statements bind. */
function importedNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const [, clause] of code.matchAll(/^\s*import\s+(?:type\s+)?([^'"]*?)\s+from\s+['"]/gm)) {
    const named = /\{([^}]*)\}/.exec(clause!)?.[1] ?? '';
    for (const part of named.split(',')) {
      const local = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.replace(/^type\s+/, '');
      if (local) names.add(local);
    }
    const rest = clause!.replace(/\{[^}]*\}/, '');
    for (const word of rest.match(/[\w$]+/g) ?? []) if (word !== 'as' && word !== 'type') names.add(word);
  }
  return names;
}

export interface Built {
  readonly source: string;
  /** Lines (in the page) that carry a `// →` check. */
  readonly checks: readonly number[];
}

export function build(block: Block, exported: Exported): Built {
  const code = block.code;
  const checks: number[] = [];
  const lines = code.split('\n').map((text, index) => {
    const match = /^(\s*)(.*?);?\s*\/\/ → (.+)$/.exec(text);
    if (!match) return text;
    const [, indent, statement, expected] = match;
    const line = block.line + 1 + index;
    checks.push(line);
    const call = (value: string) => `__docs.check(${line}, ${value}, ${JSON.stringify(expected!.trim())});`;
    const declared = /^(?:const|let|var)\s+([\w$]+)\s*=/.exec(statement!);
    if (declared) return `${indent}${statement}; ${call(declared[1]!)}`;
    if (statement!.trim() === '')
      throw new Error(`${block.page}:${line}: a \`// →\` check needs a statement`);
    return `${indent}${call(`(${statement})`)}`;
  });

  const imported = importedNames(code);
  // A name in a comment (`// APIError has requestId too`) is prose, not a use.
  const statements = code.replace(/\/\*[\s\S]*?\*\/|(^|\s)\/\/.*$/gm, '$1');
  const missing = new Map<string, string[]>();
  for (const [name, specifier] of exported) {
    if (!uses(statements, name) || imported.has(name) || declares(code, name)) continue;
    missing.set(specifier, [...(missing.get(specifier) ?? []), name]);
  }
  // A reader copies the README's blocks whole, into a file of their own: they import what they use.
  if (block.page === 'README.md' && missing.size > 0) {
    const names = [...missing.values()].flat().join(', ');
    throw new Error(`${block.page}:${block.line + 1}: the block uses ${names} without importing it`);
  }
  const prelude = [...missing].map(
    ([specifier, names]) => `import { ${names.join(', ')} } from '${specifier}';`,
  );
  prelude.push('const __docs = globalThis.__docs;');
  for (const name of ['api', 'client'])
    if (uses(code, name) && !imported.has(name) && !declares(code, name))
      prelude.push(`const ${name} = __docs.${name};`);

  const source = [...prelude, ...lines]
    .join('\n')
    .replace(
      /((?:\bfrom|\bimport)\s*\(?\s*)(['"])([^'"\n]+)\2/g,
      (whole, before: string, quote: string, specifier: string) =>
        targets[specifier] ? `${before}${quote}${join(root, targets[specifier])}${quote}` : whole,
    );
  return { source, checks };
}

export interface Context {
  readonly api: unknown;
  readonly client: unknown;
  /** What `globalThis.fetch` is while the block runs. */
  readonly fetch: typeof globalThis.fetch;
  /** Environment variables set while the block runs. */
  readonly env: Readonly<Record<string, string>>;
}

export interface Ran {
  /** What the block printed through `console`, line by line. */
  readonly output: readonly string[];
  /** The names of the tests the block declared (a block written as a test file). */
  readonly tests: readonly string[];
}

/** A directory for the modules, with the repository's node_modules in reach of their imports. */
export function workspace(): { directory: string; remove: () => void } {
  const directory = mkdtempSync(join(tmpdir(), 'scholarly-docs-'));
  symlinkSync(join(root, 'node_modules'), join(directory, 'node_modules'), 'dir');
  return { directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

const shown = (text: string) => text.replace(/\s+/g, ' ').trim();

export async function run(block: Block, built: Built, directory: string, context: Context): Promise<Ran> {
  const file = join(directory, `${block.page.replace(/\W/g, '_')}_${block.line}.ts`);
  writeFileSync(file, built.source);
  const output: string[] = [];
  const hit = new Set<number>();
  const check = (line: number, value: unknown, expected: string) => {
    hit.add(line);
    const actual = inspect(value, {
      depth: null,
      breakLength: Number.POSITIVE_INFINITY,
      maxArrayLength: null,
    });
    if (shown(actual) !== shown(expected))
      throw new Error(`${block.page}:${line}: the page says → ${expected}, but the value is ${actual}`);
  };
  Object.assign(globalThis, { __docs: { api: context.api, client: context.client, check } });
  vi.stubGlobal('fetch', context.fetch);
  for (const [name, value] of Object.entries(context.env)) vi.stubEnv(name, value);
  const print = (...args: unknown[]) => void output.push(...format(...args).split('\n'));
  const spies = (['log', 'info', 'warn', 'error'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(print),
  );
  forgetCollected();
  try {
    await import(/* @vite-ignore */ file);
    const tests = await runCollected();
    const unchecked = built.checks.filter((line) => !hit.has(line));
    if (unchecked.length > 0)
      throw new Error(`${block.page}: the \`// →\` checks on lines ${unchecked} never ran`);
    return { output, tests };
  } finally {
    for (const spy of spies) spy.mockRestore();
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
    Reflect.deleteProperty(globalThis, '__docs');
  }
}

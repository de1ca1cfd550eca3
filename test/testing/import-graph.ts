import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** Static imports and re-exports (not `import type`, which vanish at build). */
const staticImport = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
const dynamicImport = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface ImportEdges {
  readonly static: string[];
  readonly dynamic: string[];
}

export function importsOf(file: string): ImportEdges {
  const source = readFileSync(file, 'utf8');
  return {
    static: [...source.matchAll(staticImport)].map((m) => m[1]!),
    dynamic: [...source.matchAll(dynamicImport)].map((m) => m[1]!),
  };
}

/** Resolves `./x.js` to `./x.ts` (or `./x/index.ts`) next to `from`; a `.json` file is itself. */
function resolveLocal(from: string, specifier: string): string {
  if (specifier.endsWith('.json')) return join(dirname(from), specifier);
  const base = join(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  throw new Error(`Cannot resolve ${specifier} from ${relative(root, from)}`);
}

/**
 * Every module `entry` loads through static imports (and dynamic ones too, with `withDynamic`):
 * local files (relative to the repo) and bare specifiers (packages and `node:` modules).
 */
export function staticGraph(entry: string, withDynamic = false): { files: string[]; external: string[] } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const edges = file.endsWith('.json') ? { static: [], dynamic: [] } : importsOf(file);
    for (const specifier of withDynamic ? [...edges.static, ...edges.dynamic] : edges.static) {
      if (specifier.startsWith('.')) visit(resolveLocal(file, specifier));
      else external.add(specifier);
    }
  };
  visit(join(root, entry));
  return { files: [...files].map((f) => relative(root, f)).sort(), external: [...external].sort() };
}

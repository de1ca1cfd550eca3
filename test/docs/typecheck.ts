/**
 * Type-checks documented TypeScript blocks as a strict TypeScript user would compile them (`tsc --strict
 * --exactOptionalPropertyTypes --noUncheckedIndexedAccess --module nodenext --moduleResolution nodenext
 * --target es2022 --types node`: the settings README.md says the types hold under), against
 * the package's sources: `scholarly-metrics` and its entries are mapped to src/ by `paths`.
 *
 * Each block is made a module exactly as the doc test runs it (snippets.ts `build`: the package's names
 * it leaves out imported, `client` and `api` taken from `globalThis.__docs`, the `// →` lines turned
 * into checks), then compiled in memory, all blocks in one program. Only the blocks' own diagnostics
 * count: the sources are type-checked by the project's own tsconfig.json.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { type Block, root } from './markdown.js';
import { build, type Exported, targets } from './snippets.js';

// build() writes the names a block imports as paths (targets), for the runtime; a compiler reads the
// names, as a user writes them, and finds the package's entries (all but `vitest`) by `paths`.
const { vitest: _shim, ...entries } = targets;

export const compilerOptions: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  types: ['node'],
  resolveJsonModule: true,
  skipLibCheck: true,
  noEmit: true,
  paths: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, [join(root, file)]])),
};

/** What snippets.ts's run() puts on `globalThis.__docs`, typed. */
const globals = `import type { MetricClient } from 'scholarly-metrics';
import type { MockApi } from 'scholarly-metrics/testing';
declare global {
  var __docs: {
    readonly api: MockApi;
    readonly client: MetricClient;
    check(line: number, value: unknown, expected: string): void;
  };
}
export {};
`;

export interface Problem {
  /** `page:line` in the Markdown. */
  readonly where: string;
  readonly message: string;
}

/** The compiler's errors for each block, keyed by the block. */
export function typecheck(list: readonly Block[], exported: Exported): Map<Block, Problem[]> {
  // In memory, beside this file: package.json ("type": "module") makes them ES modules, and
  // node_modules is in reach.
  const files = new Map<string, { block: Block; source: string; offset: number }>();
  for (const block of list) {
    let source = build(block, exported).source;
    for (const [name, file] of Object.entries(targets))
      source = source.replaceAll(`'${join(root, file)}'`, `'${name}'`);
    const offset = source.split('\n').length - block.code.split('\n').length;
    const name = join(root, 'test/docs', `block_${block.page.replace(/\W/g, '_')}_${block.line}.ts`);
    files.set(name, { block, source: `${source}\nexport {};\n`, offset });
  }
  const globalsFile = join(root, 'test/docs', 'block_globals.d.ts');
  const virtual = new Map([...[...files].map(([name, file]) => [name, file.source] as const)]);
  virtual.set(globalsFile, globals);

  const host = ts.createCompilerHost(compilerOptions);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = virtual.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, text, language);
  };
  const program = ts.createProgram([...files.keys(), globalsFile], compilerOptions, host);

  const problems = new Map<Block, Problem[]>(list.map((block) => [block, []]));
  const global = ts.getPreEmitDiagnostics(program).filter((d) => d.file === undefined);
  for (const [name, { block, offset }] of files) {
    const file = program.getSourceFile(name)!;
    const found = [
      ...global,
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ];
    for (const diagnostic of found) {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      let where = block.page;
      if (diagnostic.file && diagnostic.start !== undefined) {
        const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
        // Lines of the prelude build() added fall on the opening fence.
        where = `${block.page}:${block.line + Math.max(0, line - offset + 1)}`;
      }
      problems.get(block)!.push({ where, message: `TS${diagnostic.code}: ${message}` });
    }
  }
  return problems;
}

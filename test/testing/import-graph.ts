/**
 * The one reader of a file's imports for the tests that walk the import graph (cycles, layers, entry
 * isolation). It parses with the TypeScript compiler, so that a comment, or a string holding `/*` or
 * `import('x')`, is never taken for code, nor code for a comment.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `static`: an import or re-export that stays at build; `typeOnly`: `import type`, `export type` and
 * `import('x').T` in a type, which vanish at build; `dynamic`: an `import('x')` call.
 */
export type ImportKind = 'static' | 'typeOnly' | 'dynamic';

export interface ImportEdge {
  readonly specifier: string;
  readonly kind: ImportKind;
}

export type ImportEdges = Readonly<Record<ImportKind, string[]>>;

const parse = (code: string) => ts.createSourceFile('module.ts', code, ts.ScriptTarget.Latest, true);

/** The import `node` makes, if it is one: a declaration, a re-export, an `import()` call or type. */
function edgeOf(node: ts.Node): ImportEdge | undefined {
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
    const kind = node.importClause?.isTypeOnly ? 'typeOnly' : 'static';
    return { specifier: node.moduleSpecifier.text, kind };
  }
  if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
    return { specifier: node.moduleSpecifier.text, kind: node.isTypeOnly ? 'typeOnly' : 'static' };
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    const [argument] = node.arguments;
    return argument && ts.isStringLiteralLike(argument)
      ? { specifier: argument.text, kind: 'dynamic' }
      : undefined;
  }
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
    const { literal } = node.argument;
    return ts.isStringLiteral(literal) ? { specifier: literal.text, kind: 'typeOnly' } : undefined;
  }
  return undefined;
}

/** Every import of `code`, in the order written. */
export function importsIn(code: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const visit = (node: ts.Node): void => {
    const edge = edgeOf(node);
    if (edge) edges.push(edge);
    ts.forEachChild(node, visit);
  };
  visit(parse(code));
  return edges;
}

/** Every module specifier of `code`, of every kind, in the order written. */
export const specifiersIn = (code: string): string[] => importsIn(code).map((edge) => edge.specifier);

/** The imports of `file`, by kind. */
export function importsOf(file: string): ImportEdges {
  const edges: ImportEdges = { static: [], typeOnly: [], dynamic: [] };
  for (const { specifier, kind } of importsIn(readFileSync(file, 'utf8'))) edges[kind].push(specifier);
  return edges;
}

/** `code` with its comments left out (each replaced by a space, so that no two tokens join). */
export function withoutComments(code: string): string {
  const comments = new Map<number, number>();
  // The trivia around each token holds the comments: those on its line after it, and those on the
  // lines before it. A JSDoc node is one of those comments.
  const visit = (node: ts.Node): void => {
    if (ts.isJSDoc(node)) return;
    if (node.kind >= ts.SyntaxKind.FirstNode && node.kind !== ts.SyntaxKind.EndOfFileToken) {
      for (const child of node.getChildren()) visit(child);
      return;
    }
    const around = [ts.getLeadingCommentRanges(code, node.pos), ts.getTrailingCommentRanges(code, node.end)];
    for (const { pos, end } of around.flatMap((ranges) => ranges ?? [])) comments.set(pos, end);
  };
  visit(parse(code));
  let kept = '';
  let from = 0;
  for (const [pos, end] of [...comments].sort(([a], [b]) => a - b)) {
    kept += `${code.slice(from, pos)} `;
    from = end;
  }
  return kept + code.slice(from);
}

/** Resolves `./x.js` to `./x.ts` (or `./x/index.ts`) next to `from`; a `.json` file is itself. */
export function resolveLocal(from: string, specifier: string): string {
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
    if (file.endsWith('.json')) return;
    const edges = importsOf(file);
    for (const specifier of withDynamic ? [...edges.static, ...edges.dynamic] : edges.static) {
      if (specifier.startsWith('.')) visit(resolveLocal(file, specifier));
      else external.add(specifier);
    }
  };
  visit(join(root, entry));
  return { files: [...files].map((f) => relative(root, f)).sort(), external: [...external].sort() };
}

// Every hand-written source file stays short enough to read in one sitting, and every function short
// enough to take in at once: files of src/, scripts/, bench/ and test/ within 300 lines, the functions of
// src/, scripts/ and bench/ within 60 counted from their first line to their last (a test's `describe`
// holds its cases, and is as long as they are). Generated files are exempt. Biome's function rule
// (biome.json) counts fewer lines than these (blank ones skipped, for one), so this test measures
// functions with the TypeScript compiler.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const maxFileLines = 300;
const maxFunctionLines = 60;

/** The hand-written source files under `dir` with one of `extensions`, relative to the repository. */
function sourceFiles(dir: string, extensions: RegExp): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => extensions.test(file) && !file.endsWith('.generated.ts'))
    .map((file) => join(dir, file));
}

const src = sourceFiles('src', /\.ts$/);
const tooling = [
  ...sourceFiles('scripts', /\.(ts|mts|mjs|js)$/),
  ...sourceFiles('bench', /\.(ts|mts|mjs|js)$/),
];
const tests = sourceFiles('test', /\.(ts|tsx|mts|mjs|js)$/);

const lineCount = (file: string) => readFileSync(join(root, file), 'utf8').split('\n').length - 1;

/** A function, method, constructor or accessor with a body, and the lines it spans. */
interface FunctionSpan {
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

const withBody = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** How an offender is named: its own name, or that of the variable or property holding it. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const { parent } = node;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(file);
  return `<${ts.SyntaxKind[node.kind]}>`;
}

/**
 * Every function-like node with a body in `text`, from the line it starts on (its doc comment left
 * out) to the line it ends on, both counted.
 */
function functionSpans(fileName: string, text: string): FunctionSpan[] {
  const kind = /\.m?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line;
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node) => {
    if (withBody.has(node.kind) && (node as ts.FunctionLikeDeclaration).body) {
      const start = lineOf(node.getStart(file));
      const name = nameOf(node as ts.FunctionLikeDeclaration, file);
      spans.push({ line: start + 1, name, lines: lineOf(node.getEnd()) - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return spans;
}

/** `file:line name, N lines` for each function of `text` longer than the limit. */
const longFunctionsIn = (file: string, text: string): string[] =>
  functionSpans(file, text)
    .filter(({ lines }) => lines > maxFunctionLines)
    .map(({ line, name, lines }) => `${file}:${line} ${name}, ${lines} lines`);

/** A function of `lines` lines whose body is blank lines and comments. */
const padded = (head: string, lines: number, tail: string) =>
  [head, ...Array.from({ length: lines - 2 }, (_, i) => (i % 2 ? '' : '  // a comment')), tail].join('\n');

describe('the size of source files', () => {
  it(`keeps every hand-written file of src/, scripts/, bench/ and test/ within ${maxFileLines} lines`, () => {
    expect(src.length).toBeGreaterThan(150);
    expect(tooling.length).toBeGreaterThan(40);
    expect(tests.length).toBeGreaterThan(300);
    const long = [...src, ...tooling, ...tests]
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > maxFileLines)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it(`keeps every function of src/, scripts/ and bench/ within ${maxFunctionLines} lines`, () => {
    const long = [...src, ...tooling].flatMap((file) =>
      longFunctionsIn(file, readFileSync(join(root, file), 'utf8')),
    );
    expect(long).toEqual([]);
  });

  it('measures a function from its first line to its last, blank lines, comments and text included', () => {
    const text = [
      '/** A doc comment, not counted. */',
      padded('export function long() {', 61, '}'),
      padded('const short = () => {', 60, '};'),
      padded('class Box {\n  method() {', 61, '  }\n  constructor() {}\n}'),
      padded('const text = () => `', 61, '`;'),
    ].join('\n');
    expect(functionSpans('fixture.ts', text).map(({ name, lines }) => `${name} ${lines}`)).toEqual([
      'long 61',
      'short 60',
      'method 61',
      'constructor 1',
      'text 61',
    ]);
    expect(longFunctionsIn('fixture.mjs', text.replace('export function long', 'function long'))).toEqual([
      'fixture.mjs:2 long, 61 lines',
      'fixture.mjs:124 method, 61 lines',
      'fixture.mjs:187 text, 61 lines',
    ]);
    expect(longFunctionsIn('fixture.ts', padded('function fits() {', 60, '}'))).toEqual([]);
  });
});

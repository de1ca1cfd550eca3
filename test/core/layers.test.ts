import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import { specifiersIn, withoutComments } from '../testing/import-graph.js';

/*
 * Dependencies point one way: core is at the bottom, and the schemas sit on it. Were core to import
 * the cache, Redis, the webhooks or the command line (types included), each would be tied to the
 * others and to every client's first load.
 */

const src = join(import.meta.dirname, '../../src');

/** The code of every file under `path` of src/ (a folder, or one file), comments left out. */
function codeUnder(path: string): { file: string; code: string }[] {
  const root = join(src, path);
  const files = path.endsWith('.ts') ? [''] : readdirSync(root, { recursive: true, encoding: 'utf8' });
  return files
    .filter((file) => (file === '' ? root : file).endsWith('.ts'))
    .map((file) => ({
      file: join(path, file),
      code: withoutComments(readFileSync(join(root, file), 'utf8')),
    }));
}

/** The folder under src/ each relative import of the files under `folder` reaches (`core`, `cache`, …, or `.` for src/ itself). */
function layersReachedFrom(folder: string): { file: string; specifier: string; layer: string }[] {
  const root = join(src, folder);
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.ts'),
  );
  return files.flatMap((file) => {
    const path = join(root, file);
    return specifiersIn(readFileSync(path, 'utf8'))
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
    expect(specifiersIn(code)).toEqual(['../cache/a.js', '../redis/b.js', '../cli/c.js']);
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

/*
 * Each entry checks its own options: core keeps the shared checkers, and never names the mock's, the
 * Redis quota's, the receivers' or the query entry's options, nor a mock fault's fields (as a string,
 * such as a ConfigurationError's `option`, or as a property read). The names are read from the entries' public options interfaces, so that a new
 * option is covered as it is written.
 */

/** The exported interfaces of the files under `paths`: name → body. */
function interfacesUnder(paths: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const { code } of paths.flatMap(codeUnder)) {
    for (const [, name = '', body = ''] of code.matchAll(
      /export interface (\w+)(?:<[^>{]*>)?(?: extends [^{]+)?\s*\{([\s\S]*?)\n\}/g,
    ))
      found.set(name, body);
  }
  return found;
}

const fieldsOf = (body: string) =>
  [...body.matchAll(/^\s*(?:readonly\s+)?(\w+)\??:/gm)].map((m) => m[1] ?? '');

/** What an entry is handed: its options, and the faults the mock is told to make (`faults.next(…)`). */
const entryInput = /(Options|Fault)$/;

/** An options interface, or a part of one (`MockLimits`, `MockWindowLimit`, `MockDatasetSizes`). */
const optionsPart = /(Options|OptionsBase|Limits?|Sizes)$/;

/**
 * The option names of the entries that are not the client's or a call's too (core resolves `baseUrl`,
 * `maxConcurrency`, `telemetry`…), the API's namespaces (the mock's `sizes` are counted by them) or members
 * JavaScript gives every object or response (`Object.keys`, `Date.now`, a fault's and a response's
 * `status`), which no reading can tell apart.
 */
function entryOptionNames(): string[] {
  const entries = interfacesUnder(['testing', 'redis', 'webhooks', 'query']);
  const names = new Set<string>();
  const queue = [...entries.keys()].filter((name) => entryInput.test(name));
  for (const name of queue) {
    const body = entries.get(name) ?? '';
    for (const field of fieldsOf(body)) names.add(field);
    for (const [, part = ''] of body.matchAll(/\b([A-Z]\w+)\b/g)) {
      if (entries.has(part) && optionsPart.test(part) && !queue.includes(part)) queue.push(part);
    }
  }
  const client = [...interfacesUnder(['core', 'client-options.ts', 'cache/options.ts'])].filter(([name]) =>
    optionsPart.test(name),
  );
  expect(client.map(([name]) => name)).toEqual(
    expect.arrayContaining(['ClientOptionsBase', 'RequestOptions']),
  );
  const shared = new Set([
    ...client.flatMap(([, body]) => fieldsOf(body)),
    ...Object.keys(endpoints),
    ...[Object, Date, Object.prototype, Map.prototype, Array.prototype, Response.prototype].flatMap(
      Object.getOwnPropertyNames,
    ),
  ]);
  return [...names].filter((name) => !shared.has(name)).sort();
}

/** The names among `names` that `code` names: a string starting with one, or a property read. */
function optionNamesIn(code: string, names: readonly string[]): string[] {
  return names.filter(
    (name) => new RegExp(`['"\`]${name}(?=['"\`.[$])`).test(code) || new RegExp(`\\.${name}\\b`).test(code),
  );
}

describe("core never names an entry's option", () => {
  const names = entryOptionNames();

  it('reads the names from the entries, and finds them in code (the check below could fail)', () => {
    for (const name of ['faults', 'sizes', 'seed', 'controlOrigins', 'prefix', 'bodyTimeoutMs', 'perWindow'])
      expect(names).toContain(name);
    // The query entry's options, and a fault's fields.
    for (const name of ['reconnectMs', 'eventSource', 'missed', 'delayMs', 'malformed'])
      expect(names).toContain(name);
    const code = [
      "throw new ConfigurationError('faults.errorRate', '…');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal as source text.
      'const size = `sizes.${name}`;',
      "const message = '`bodyTimeoutMs` must be an integer';",
      'const prefix = options.prefix ?? fallback;',
      "// checkInteger('controlOrigins', …)",
    ].join('\n');
    expect(optionNamesIn(withoutComments(code), names)).toEqual([
      'bodyTimeoutMs',
      'errorRate',
      'faults',
      'prefix',
      'sizes',
    ]);
  });

  it('core names none of them', () => {
    const named = codeUnder('core')
      .map(({ file, code }) => ({ file, names: optionNamesIn(code, names) }))
      .filter((found) => found.names.length > 0);
    expect(named).toEqual([]);
  });
});

describe('core never names a method of the API table', () => {
  const methods = Object.values(endpoints).flatMap((namespace) =>
    Object.values(namespace).map((endpoint) => endpoint.name),
  );

  it('finds a method name in code (the check below could fail)', () => {
    expect(methods).toContain('journals.get');
    const code = withoutComments("const m = 'journals.get';\n// 'papers.get', in a comment");
    expect(methods.filter((method) => code.includes(method))).toEqual(['journals.get']);
  });

  it('core names none: the cache option, the resources and telemetry take them from the table', () => {
    const named = codeUnder('core').filter(({ code }) => methods.some((method) => code.includes(method)));
    expect(named.map(({ file }) => file)).toEqual([]);
  });
});

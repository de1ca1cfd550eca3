import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as root from '../../src/core/errors.js';
import * as webhooks from '../../src/webhooks/index.js';

const directory = join(import.meta.dirname, '../../src/webhooks');
const sources = readdirSync(directory, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(join(directory, file), 'utf8') }));

/** Every module specifier in a file: static imports, re-exports and dynamic imports. */
const specifiers = (text: string) =>
  [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1] ?? '');

/** Comments hold usage examples that import the package by name; only code counts. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

/** What a file loads at run time: static imports and re-exports, not `import type` (erased). */
const runtimeSpecifiers = (text: string) =>
  [...text.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].map(
    (match) => match[1] ?? '',
  );

/** Every file the entry loads at run time (relative to src/), and every bare specifier. */
function runtimeGraph(): { files: string[]; external: string[] } {
  const src = join(import.meta.dirname, '../../src');
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = withoutComments(readFileSync(join(src, file), 'utf8'));
    // Nothing is loaded lazily but, if ever, a receiver's telemetry: a lazy graph is walked too.
    for (const [, lazy] of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]/g)) {
      expect(lazy, file).toBe('../telemetry/webhook-telemetry.js');
      visit(join(dirname(file), (lazy ?? '').replace(/\.js$/, '.ts')));
    }
    for (const specifier of runtimeSpecifiers(text)) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else external.add(specifier);
    }
  };
  visit('webhooks/index.ts');
  return { files: [...files].sort(), external: [...external] };
}

describe('the scholarly-metrics/webhooks entry point', () => {
  it('imports only its own files and a few small core modules (no zod, no node:, no ky, no client)', () => {
    expect(sources.length).toBeGreaterThan(5);
    const core = [
      '../core/abort.js',
      '../core/depth.js',
      '../core/errors.js',
      '../core/describe-value.js',
      '../core/issues.js',
      '../core/is-record.js', // one type guard: a plain object
      '../core/options/checks.js',
      '../core/options/telemetry.js',
      '../core/read-body.js',
      '../core/telemetry-types.js', // types: erased at build
      '../core/version.js', // a constant, for the telemetry's scope
      '../telemetry/webhook-telemetry.js', // a receiver's spans and counter, when given `telemetry`
      '../core/score-updated-event.js', // types: erased at build
      '../schemas/date-pattern.js', // one regular expression, the response parsers' date check
    ];
    for (const { file, text } of sources) {
      const code = withoutComments(text);
      for (const specifier of specifiers(code)) {
        const allowed = core.includes(specifier) || /^\.\/[\w-]+\.js$/.test(specifier);
        expect(allowed, `${file} imports ${specifier}`).toBe(true);
      }
      // `require`, `process` and `Buffer` would tie the module to Node.
      expect(code, file).not.toMatch(/\brequire\(|\bprocess\.|\bBuffer\b/);
    }
  });

  it('loads no package at run time: zod/mini is a type-only import of core/issues.ts', () => {
    const { files, external } = runtimeGraph();
    expect(external).toEqual([]);
    expect(files.filter((file) => !file.startsWith('webhooks/'))).toEqual([
      'core/depth.ts',
      'core/describe-value.ts',
      'core/errors.ts',
      'core/escape.ts',
      'core/is-record.ts',
      'core/issues.ts',
      'core/options/checks.ts',
      'core/options/telemetry.ts',
      'core/read-body.ts',
      'core/status-message.ts',
      'core/version.ts',
      'schemas/date-pattern.ts',
      'telemetry/traceparent.ts',
      'telemetry/webhook-telemetry.ts',
    ]);
  });

  it('pulls in nothing else through the error classes but the text escaping', () => {
    const errors = readFileSync(join(import.meta.dirname, '../../src/core/errors.ts'), 'utf8');
    expect(specifiers(errors)).toEqual(['./status-message.js']);
    const message = readFileSync(join(import.meta.dirname, '../../src/core/status-message.ts'), 'utf8');
    expect(specifiers(message)).toEqual(['./escape.js']);
    const escaping = readFileSync(join(import.meta.dirname, '../../src/core/escape.ts'), 'utf8');
    expect(specifiers(escaping)).toEqual([]);
  });

  it('keeps every file small', () => {
    for (const { file, text } of sources) expect(text.split('\n').length, file).toBeLessThan(300);
  });

  it('exports the public names', () => {
    expect(Object.keys(webhooks).sort()).toEqual([
      'WebhookPayloadError',
      'createEventRelay',
      'createNodeWebhookHandler',
      'createWebhookHandler',
      'parseWebhookEvent',
    ]);
    expect(webhooks.WebhookPayloadError).toBe(root.WebhookPayloadError);
  });

  it('is also exported whole by the root entry, which holds everything', async () => {
    const sdk: Record<string, unknown> = await import('../../src/index.js');
    for (const [name, value] of Object.entries(webhooks)) expect(sdk[name], name).toBe(value);
  });

  it('gives every exported symbol TSDoc, with an example where the entry makes it public', () => {
    const missing: string[] = [];
    const entry = sources.find(({ file }) => file === 'index.ts')?.text ?? '';
    expect(entry).toContain('createWebhookHandler');
    for (const { file, text } of sources) {
      const exported = [
        ...text.matchAll(/^export (?:async )?(?:function|const|class|interface|type) (\w+)/gm),
      ];
      for (const match of exported) {
        const before = text.slice(0, match.index);
        const doc = before.slice(before.lastIndexOf('/**'));
        expect(doc.startsWith('/**') && doc.includes('*/'), `${file}: ${match[1]} has no TSDoc`).toBe(true);
        const isPublic = new RegExp(`\\b${match[1]}\\b`).test(entry);
        if (isPublic && !doc.includes('@example')) missing.push(`${file}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('the scholarly-metrics/webhooks entry point', () => {
  it('imports only zod/mini, its own files and the error classes (no node:, no ky, no client)', () => {
    expect(sources.length).toBeGreaterThan(5);
    for (const { file, text } of sources) {
      // Comments hold usage examples that import the package by name; only code counts.
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      for (const specifier of specifiers(code)) {
        const allowed =
          specifier === 'zod/mini' || specifier === '../core/errors.js' || /^\.\/[\w-]+\.js$/.test(specifier);
        expect(allowed, `${file} imports ${specifier}`).toBe(true);
      }
      // `require`, `process` and `Buffer` would tie the module to Node.
      expect(code, file).not.toMatch(/\brequire\(|\bprocess\.|\bBuffer\b/);
    }
  });

  it('pulls in nothing else through the error classes', () => {
    const errors = readFileSync(join(import.meta.dirname, '../../src/core/errors.ts'), 'utf8');
    expect(specifiers(errors)).toEqual([]);
  });

  it('keeps every file small', () => {
    for (const { file, text } of sources) expect(text.split('\n').length, file).toBeLessThan(300);
  });

  it('exports the public names', () => {
    expect(Object.keys(webhooks).sort()).toEqual([
      'WebhookPayloadError',
      'createNodeWebhookHandler',
      'createWebhookHandler',
      'parseWebhookEvent',
      'quartileSchema',
      'scoreUpdatedEventSchema',
    ]);
    expect(webhooks.WebhookPayloadError).toBe(root.WebhookPayloadError);
  });

  it('gives every exported symbol TSDoc with an example', () => {
    const missing: string[] = [];
    for (const { file, text } of sources) {
      const exported = [
        ...text.matchAll(/^export (?:async )?(?:function|const|class|interface|type) (\w+)/gm),
      ];
      for (const match of exported) {
        const before = text.slice(0, match.index);
        const doc = before.slice(before.lastIndexOf('/**'));
        expect(doc.startsWith('/**') && doc.includes('*/'), `${file}: ${match[1]} has no TSDoc`).toBe(true);
        if (!doc.includes('@example')) missing.push(`${file}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

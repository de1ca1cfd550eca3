/**
 * Tables in the docs that are written from the code, not by hand. Each sits between
 * `<!-- generated: <name> -->` and `<!-- end generated -->`, and must read exactly as rendered here
 * from its source. After changing the source, rewrite them with:
 *
 *   UPDATE_DOCS=1 npx vitest run --project 'node*' test/docs/figures.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../reliability/catalogue.js';
import { root } from './markdown.js';

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`;

/** docs/reliability.md, "Fault by fault": one row per case of the reliability suite. */
function reliabilityFaults(): string {
  const rows = catalogue.map((entry) => {
    const attempts =
      entry.sent === entry.seen ? String(entry.sent) : `${entry.sent} sent, ${entry.seen} seen`;
    const result = entry.outcome === 'success' ? 'success' : `\`${entry.outcome}\``;
    const waits = entry.minMs === undefined ? '' : seconds(entry.minMs);
    return [entry.fault, entry.server, entry.sdk, result, attempts, waits];
  });
  const header = [
    'fault',
    'what the server does',
    'what the SDK does',
    'result',
    'attempts',
    'waits at least',
  ];
  // Outside code spans, `<` would open an HTML tag and `|` end a cell.
  const cellText = (cell: string) =>
    cell
      .split('`')
      .map((part, i) => (i % 2 === 1 ? part : part.replaceAll('<', '&lt;')))
      .join('`')
      .replaceAll('|', '\\|');
  const line = (cells: string[]) => `| ${cells.map(cellText).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const generated: Record<string, { page: string; render: () => string }> = {
  'reliability-faults': { page: 'docs/reliability.md', render: reliabilityFaults },
};

describe('generated tables read as their source says', () => {
  for (const [name, { page, render }] of Object.entries(generated)) {
    it(`${page}: ${name}`, () => {
      const file = join(root, page);
      const text = readFileSync(file, 'utf8');
      const region = new RegExp(`(<!-- generated: ${name} -->\\n)([\\s\\S]*?)(<!-- end generated -->)`);
      expect(text, `${page} has no region for ${name}`).toMatch(region);
      const fresh = `${render()}\n`;
      if (process.env.UPDATE_DOCS === '1')
        writeFileSync(
          file,
          text.replace(region, (_, open, _old, close) => open + fresh + close),
        );
      else
        expect(
          region.exec(text)![2],
          `run UPDATE_DOCS=1 npx vitest run --project 'node*' test/docs/figures.test.ts`,
        ).toBe(fresh);
    });
  }
});

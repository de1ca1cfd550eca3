/**
 * The README, CONTRIBUTING.md and the docs pages point at things that exist: relative links lead to
 * a file (and to a heading of it, when they name one), and every `npm run <script>` they show is a
 * script of package.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, pages, read, root } from './markdown.js';

const documents = [...pages(), 'CONTRIBUTING.md'];

// Being written in parallel (issue 11); checked like any other page as soon as it exists.
const pending = new Set(['docs/proxies.md']);

/** Link targets outside code: `[text](target)`, fenced blocks and inline code left out. */
function links(page: string): string[] {
  const prose = read(page)
    .replace(/^(`{3,}|~{3,})[\s\S]*?^\1\s*$/gm, '')
    .replace(/``[^`]*``|`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

describe('links and scripts in the docs', () => {
  const scripts = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts);

  for (const page of documents) {
    it(`${page}: relative links lead somewhere`, () => {
      const broken: string[] = [];
      for (const target of links(page)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [path, hash] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : relative(root, normalize(join(root, dirname(page), path)));
        if (pending.has(file) && !existsSync(join(root, file))) continue;
        if (!existsSync(join(root, file))) broken.push(`${target}: no file ${file}`);
        else if (hash && file.endsWith('.md') && !anchors(file).has(hash))
          broken.push(`${target}: no heading #${hash} in ${file}`);
      }
      expect(broken).toEqual([]);
    });

    it(`${page}: every npm run <script> is a script of package.json`, () => {
      const named = [...read(page).matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]!);
      expect(named.filter((name) => !scripts.includes(name) && name !== 'test:e2e')).toEqual([]);
    });
  }
});

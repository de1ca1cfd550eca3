/**
 * Reads the fenced code blocks of a Markdown page, with the HTML comments that mark them:
 *
 * - `<!-- not runnable: <reason> -->` on the line before a TypeScript block: the doc test skips it.
 *   Every other TypeScript block runs (see snippets.ts).
 * - `<!-- output -->` between a runnable block and the next block: that next block is what the
 *   runnable one prints, checked line for line.
 * - `<!-- runs: bash -->` on the line before a shell block: cli-recipe.test.ts runs it with bash.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Block {
  /** The page, relative to the repository root. */
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  /** The closest heading above the block, for test names. */
  readonly heading: string;
  /** The marker comment on the line just before the opening fence, if any. */
  readonly marker: string | undefined;
  /** Whether `<!-- output -->` stands between the previous block and this one. */
  readonly outputMarked: boolean;
}

export const TYPESCRIPT = new Set(['ts', 'typescript', 'js', 'javascript']);
export const SHELL = new Set(['sh', 'bash', 'shell']);

/** README.md and every docs/*.md page, as paths relative to the root. */
export function pages(): string[] {
  const docs = readdirSync(join(root, 'docs'), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => `docs/${entry.name}`)
    .sort();
  return ['README.md', ...docs];
}

export function read(page: string): string {
  return readFileSync(join(root, page), 'utf8');
}

export function blocks(page: string): Block[] {
  const lines = read(page).split('\n');
  const found: Block[] = [];
  let heading = page;
  let lastComment: string | undefined;
  let outputMarked = false;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const fence = /^(\s*)(`{3,}|~{3,})(\S*)/.exec(text);
    if (!fence) {
      if (/^#{1,6} /.test(text)) heading = text.replace(/^#+ /, '');
      if (/^<!--\s*output\s*-->$/.test(text.trim())) outputMarked = true;
      if (text.trim() !== '') lastComment = /^<!--.*-->$/.test(text.trim()) ? text.trim() : undefined;
      continue;
    }
    const [, indent, marks, lang] = fence;
    const body: string[] = [];
    let j = i + 1;
    // A fence closes with at least as many of the same marks, nothing else on the line.
    while (j < lines.length && !new RegExp(`^\\s*${marks![0]}{${marks!.length},}\\s*$`).test(lines[j]!)) {
      body.push(lines[j]!.slice(indent!.length));
      j++;
    }
    found.push({
      page,
      line: i + 1,
      lang: lang!.toLowerCase(),
      code: body.join('\n'),
      heading,
      marker: lastComment,
      outputMarked,
    });
    outputMarked = false;
    lastComment = undefined;
    i = j;
  }
  return found;
}

/** The reason in `<!-- not runnable: reason -->`, `''` for a marker without one, or undefined. */
export function notRunnableReason(block: Block): string | undefined {
  const match = /^<!--\s*not runnable\s*:?(.*?)-->$/i.exec(block.marker ?? '');
  return match ? match[1]!.trim() : undefined;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings. */
export function anchors(page: string): Set<string> {
  const headings = read(page)
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => anchor(line.replace(/^#+ /, '').replace(/`/g, '')));
  return new Set(headings);
}

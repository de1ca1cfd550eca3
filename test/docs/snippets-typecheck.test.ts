/**
 * Every TypeScript block of README.md and docs/*.md that the doc test runs (readme.test.ts: all but
 * those marked `<!-- not runnable: <reason> -->`) also compiles under strict settings, as a user who
 * copies it into a strict project compiles it (typecheck.ts). Running proves what a block does;
 * this proves a strict compiler accepts it as written: no implicit `any`, no `unknown` error used as
 * an `Error`, no DOM stream handed to a Node API that wants its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Block, blocks, notRunnableReason, pages, TYPESCRIPT } from './markdown.js';
import { packageExports } from './snippets.js';
import { type Problem, typecheck } from './typecheck.js';

const checked = pages()
  .flatMap((page) => blocks(page))
  .filter((block) => TYPESCRIPT.has(block.lang) && notRunnableReason(block) === undefined);

let problems: Map<Block, Problem[]>;
beforeAll(async () => {
  problems = typecheck(checked, await packageExports());
}, 120_000);

describe('the documented TypeScript blocks compile under strict settings', () => {
  it('finds blocks to check in README.md and docs/', () => {
    expect(checked.some((block) => block.page === 'README.md')).toBe(true);
    expect(checked.filter((block) => block.page.startsWith('docs/')).length).toBeGreaterThan(20);
  });

  for (const block of checked)
    it(`${block.page}:${block.line} (${block.heading})`, () => {
      const found = problems.get(block)!.map((problem) => `${problem.where}: ${problem.message}`);
      expect(found).toEqual([]);
    });
});

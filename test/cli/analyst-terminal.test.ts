/**
 * What an analyst sees on a real terminal (tmux at 50, 120 and 220 columns): tables that never cut an
 * id, a DOI, a number or a boolean; hidden columns named; the chart as wide as the terminal; and, from
 * a server sending terminal escapes in its data, bytes on the terminal that act on nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/output/width.js';
import { useMockServer, useRealServer } from '../support.js';
import { clipboardName, clipboardNameShown, hostile } from './output/hostile.js';
import { scratch } from './resume.js';
import { skipWithoutTmux, tmuxRun } from './tmux.js';

const skipTmux = skipWithoutTmux('test/cli/analyst-terminal.test.ts');

const mock = useMockServer({ sizes: { journals: 10, papers: 400, authors: 20 } });
const evil = useRealServer();

/** Papers whose every text field carries a sequence a terminal would act on. */
const evilPapers = Object.entries(hostile).map(([name, text], i) => ({
  id: i + 1,
  title: `${name} ${text} end`,
  authors: `A ${hostile.rlo} B`,
  doi: `10.1000/${name}${text}`,
  year: 2024,
  citations: i,
  oa: i % 2 === 0,
  journal_id: 7,
}));

/** Escape sequences the command itself may send: its progress line, bold, red, dim, and their ends. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the command's own sequences
const own = /\u001b\[(2K|1m|22m|31m|39m|2m)/g;

function expectInert(bytes: Buffer) {
  const text = bytes.toString('utf8').replace(own, '');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
  expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
}

describe.skipIf(skipTmux)('an analyst at a real terminal (tmux)', { timeout: 60_000 }, () => {
  it.each([50, 120, 220])(
    'at %i columns: ids, DOIs, numbers and booleans whole; lines fit',
    async (width) => {
      const papers = await mock.client().papers.search({ q: 'coral', per_page: 10 });
      const { screen, code } = await tmuxRun(['papers', 'search', 'coral', '--per-page', '10'], {
        url: mock.server.url,
        width,
      }).done();
      expect(code).toBe(0);
      const lines = screen.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('exit-'));
      const header = lines[0]!;
      const rows = lines.slice(1, 11);
      for (const line of [header, ...rows]) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      const shown = header.trim().split(/\s+/);
      const hidden = screen.match(/(\d+) columns? hidden \(([^)]*)\): --fields to choose/);
      for (const [i, paper] of papers.data.entries()) {
        const row = rows[i]!;
        expect(row).toMatch(new RegExp(`^ *${paper.id}  `));
        if (shown.includes('DOI')) expect(row).toContain(paper.doi);
        if (shown.includes('CITATIONS')) expect(row).toContain(paper.citations!.toLocaleString('en'));
        if (shown.includes('OA')) expect(row).toContain(String(paper.oa));
      }
      if (width === 50) {
        expect(hidden).not.toBeNull();
        expect(hidden![2]!.split(', ')).toContain('journal_id');
      } else if (width === 220) {
        expect(hidden).toBeNull();
        // Room enough: no title is cut.
        for (const [i, paper] of papers.data.entries()) expect(rows[i]).toContain(paper.title);
      } else {
        expect(shown).toEqual(['ID', 'TITLE', 'AUTHORS', 'DOI', 'YEAR', 'CITATIONS', 'OA', 'JOURNAL_ID']);
      }
    },
  );

  it.each([50, 120, 220])('at %i columns: the chart fills the width, with several dates', async (width) => {
    const { history } = await mock.client().journals.score(4);
    const { screen, code } = await tmuxRun(['journals', 'score', '4'], {
      url: mock.server.url,
      width,
    }).done();
    expect(code).toBe(0);
    const lines = screen.split('\n');
    const plot = lines.filter((line) => /[┤┼]/.test(line));
    expect(plot.length).toBeGreaterThan(5);
    for (const line of plot) expect(displayWidth(line.trimEnd())).toBeLessThanOrEqual(width);
    expect(Math.max(...plot.map((line) => displayWidth(line.trimEnd())))).toBeGreaterThan(width - 6);
    // Whole scores, whole labels.
    expect(plot.every((line) => /^ *\d+ ?[┤┼]/.test(line))).toBe(true);
    // The dates line: indented under the plot (the table's rows start at the edge).
    const dates = lines.find((line) => /^ +\d{4}-\d{2}-\d{2}/.test(line)) ?? '';
    const shown = dates.match(/\d{4}-\d{2}-\d{2}/g) ?? [];
    expect(shown.length).toBeGreaterThanOrEqual(width >= 120 ? 3 : 2);
    // Oldest on the left, the latest on the right.
    expect(shown[0]).toBe(history.at(-1)!.date);
    expect(shown.at(-1)).toBe(history[0]!.date);
  });

  it.each([50, 120, 220])(
    'at %i columns: a server sending escapes gets them shown, never acted on',
    async (width) => {
      evil.serve((req, res) => {
        const url = new URL(req.url!, 'http://x');
        res.setHeader('content-type', 'application/json');
        if (url.pathname.endsWith('/papers'))
          res.end(JSON.stringify({ data: evilPapers, total: evilPapers.length }));
        else res.end(JSON.stringify({ ...evilPapers[2], abstract: `abs ${hostile.title}${hostile.osc52}` }));
      });
      const list = tmuxRun(['papers', 'search', '--per-page', '20'], { url: evil.base, width });
      const listed = await list.done();
      expect(listed.code).toBe(0);
      expectInert(listed.bytes);
      expect(listed.screen).toContain('\\e');
      expect(list.title()).not.toContain('pwned');
    },
  );

  it('the record view, and json and csv written to a terminal, act on nothing either', async () => {
    evil.serve((req, res) => {
      const url = new URL(req.url!, 'http://x');
      res.setHeader('content-type', 'application/json');
      if (url.pathname.endsWith('/papers'))
        res.end(JSON.stringify({ data: evilPapers, total: evilPapers.length }));
      else res.end(JSON.stringify({ ...evilPapers[2], abstract: `abs ${hostile.title}${hostile.osc52}` }));
    });
    const commands = [
      ['papers', 'get', '10.1000/x'],
      ['papers', 'get', '10.1000/x', '--format', 'json'],
      ['papers', 'search', '--format', 'csv'],
    ];
    for (const args of commands) {
      const run = tmuxRun(args, { url: evil.base, width: 120 });
      const done = await run.done();
      expect(done.code).toBe(0);
      expectInert(done.bytes);
      expect(run.title()).not.toContain('pwned');
    }
  });

  it('DOIs echoed from --input in failure lines are escaped', async () => {
    const folder = scratch();
    const input = join(folder, 'dois.txt');
    writeFileSync(
      input,
      `doi\n10.1000/none${hostile.clear}${hostile.title}\nhttps://doi.org/10.1000/missing${hostile.rlo}\n`,
    );
    const run = tmuxRun(['papers', 'get-many', '--input', input, '--format', 'jsonl'], {
      url: mock.server.url,
      width: 120,
    });
    const done = await run.done();
    expect(done.code).toBe(3);
    expectInert(done.bytes);
    expect(done.screen).toContain('10.1000/none\\e[2J\\e[H\\e]0;pwned\\x07: InvalidParameterError');
    expect(done.screen).toContain('10.1000/missing\\u{202E}gnp.exe: InvalidParameterError');
    expect(run.title()).not.toContain('pwned');
  });

  it("file names holding OSC 52 are shown escaped: the last word, and Node's words after --input", async () => {
    const folder = scratch();
    const file = join(folder, clipboardName);
    const wrote = tmuxRun(['papers', 'search', 'coral', '--limit', '3', '-o', file], {
      url: mock.server.url,
      width: 220,
    });
    const written = await wrote.done();
    expect(written.code).toBe(0);
    expectInert(written.bytes);
    expect(written.screen).toContain(`papers to ${join(folder, clipboardNameShown)} (`);
    const missing = tmuxRun(['papers', 'get-many', '--input', join(folder, 'no', clipboardName)], {
      url: mock.server.url,
      width: 220,
    });
    const refused = await missing.done();
    expect(refused.code).toBe(2);
    expectInert(refused.bytes);
    expect(refused.screen).toContain(`open '${join(folder, 'no', clipboardNameShown)}'`);
  });
});

describe.skipIf(skipTmux)('--input typed at the terminal', () => {
  it.each(['-', '/dev/stdin'])('--input %s waits for the lines typed, to Ctrl-D', async (input) => {
    const [doi] = mock.api.dataset.papers.map((paper) => paper.doi);
    const session = tmuxRun(['papers', 'get-many', '--input', input, '--fields', 'doi', '--format', 'csv'], {
      url: mock.server.url,
      width: 120,
    });
    // Typed once the bin may be reading already (a read of a terminal with nothing typed yet must
    // wait, not fail), or ahead of it, which the terminal keeps until the bin reads.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    session.type('-l', doi!);
    session.type('Enter');
    session.type('C-d');
    const { screen, code } = await session.done();
    expect(code).toBe(0);
    expect(screen).toContain(`doi\n${doi}`);
  });
});

// `--row-group <n>`: a group ends with the page that fills it, so its records are n rounded up to
// whole pages (a checkpoint is saved only with no record gathered), and the help says so.
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { parquetBytes } from './output/hyparquet.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 100, authors: 5 } });

describe('--row-group', () => {
  it('makes groups of n rounded up to whole pages, as its help says', async () => {
    const file = join(scratch(), 'papers.parquet');
    const args = ['papers', 'search', '--all', '--per-page', '10', '--row-group', '15', '-o', file];
    const result = await run(args, { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    const groups = parquetMetadata(parquetBytes(file)).row_groups.map((group) => Number(group.num_rows));
    expect(groups).toEqual([20, 20, 20, 20, 20]);
    const help = await run(['papers', 'search', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('records per row group, rounded up to whole pages');
  });
});

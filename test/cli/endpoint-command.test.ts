/**
 * The commands are made from the API table: each names its endpoint's request in its help, and an
 * endpoint added to the table gets a command with a few lines (here a throwaway one, handed to `run`
 * beside the program's own commands).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointList, endpoints } from '../../src/api/endpoints.js';
import { cliCommands } from '../../src/cli/commands/index.js';
import { type CommandEndpoint, recordCommand } from '../../src/cli/endpoint-command.js';
import { run as runCommandLine } from '../../src/cli/main.js';
import { TEST_KEY } from '../support.js';
import { root } from '../testing/import-graph.js';
import { run, testIO } from './helpers.js';

/** An endpoint the API does not have, shaped as the table's are. */
const widget: CommandEndpoint = {
  name: 'widgets.get',
  path: '/widgets/{id}',
  pathParams: { id: () => 1 },
  query: {},
  paged: false,
};

const widgetsGet = recordCommand(widget, {
  description: 'one widget',
  args: { id: 'the widget id' },
  fetch: async (_, [id]) => ({ id: Number(id) }),
  examples: ['scholarly-metrics widgets get 7'],
});

async function help(argv: string[]) {
  const { io, stdout } = testIO();
  const code = await runCommandLine(argv, io, [...cliCommands, widgetsGet]);
  return { code, stdout: stdout() };
}

describe('commands made from the API table', () => {
  it('each names its request in its help, from the endpoint of the table', async () => {
    for (const [words, endpoint] of [
      [['journals', 'get'], endpoints.journals.get],
      [['journals', 'papers'], endpoints.journals.papers],
      [['papers', 'search'], endpoints.papers.search],
      [['countries', 'list'], endpoints.countries.list],
    ] as const) {
      const result = await run([...words, '--help']);
      expect(result.stdout).toContain(`Endpoint: GET ${endpoint.path}\n`);
    }
    expect((await run(['papers', 'get-many', '--help'])).stdout).toContain(
      `Endpoint: GET ${endpoints.papers.get.path} for each DOI`,
    );
  });

  it("offers --fields from the published document's fields of the endpoint's records", async () => {
    const { stdout } = await run(['journals', 'get', '--help']);
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      'only these fields, in this order (a nested one by its dot path): id, name, metric_score, quartile, description, oa',
    );
    expect((await run(['authors', 'get', '--help'])).stdout).toContain('papers.journal_id');
  });

  it('lists a command for an endpoint added to the table, with its argument and request', async () => {
    const top = await help(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/^ {2}widgets\s+widgets$/m);
    const own = await help(['widgets', 'get', '--help']);
    expect(own.stdout).toContain('Usage: scholarly-metrics widgets get [options] <id>');
    expect(own.stdout).toContain('the widget id');
    expect(own.stdout).toContain('Endpoint: GET /widgets/{id}\n');
    expect(own.stdout).toContain('$ scholarly-metrics widgets get 7');
    // Not in the published document: no fields to choose among.
    expect(own.stdout).not.toContain('--fields');
  });

  it('runs it: its argument checked as an id, its record written', async () => {
    const { io, stdout } = testIO({
      env: { METRIC_API_KEY: TEST_KEY, METRIC_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(await runCommandLine(['widgets', 'get', '7'], io, [...cliCommands, widgetsGet])).toBe(0);
    expect(JSON.parse(stdout())).toEqual({ id: 7 });
    expect((await help(['widgets', 'get', 'x7'])).code).toBe(2);
  });

  it('has no path of the table and no method name of it written in src/cli', () => {
    const folder = join(root, 'src/cli');
    const sources = readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(folder, file), 'utf8'))
      .join('\n');
    for (const endpoint of endpointList) {
      if (endpoint.path.includes('{')) expect(sources).not.toContain(endpoint.path);
      expect(sources).not.toContain(`'${endpoint.name}'`);
    }
  });
});

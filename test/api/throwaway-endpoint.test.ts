/**
 * Adding an endpoint starts at the API table. Here the table the code reads gains a throwaway entry,
 * `journals.twin` (the journal with the next id), beside its own ten, and everything that reads the
 * table takes it up: the mock's routes, the client's request and its checks, the cache and the names
 * `cache.ttl` takes, telemetry, the query entry and the command line. What the table cannot give is
 * written here as it would be in the source: the mock's handler, the client's method, the command.
 *
 * The table is replaced with vi.mock, so this file runs with modules of its own (node-isolated).
 */
import type { HttpHandler } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { type ApiEndpoint, endpointList, endpoints } from '../../src/api/endpoints.js';
import { cliCommands } from '../../src/cli/commands/index.js';
import { recordCommand } from '../../src/cli/endpoint-command.js';
import { run as runCommandLine } from '../../src/cli/main.js';
import type { APIPromise } from '../../src/core/api-promise.js';
import {
  type ClientOptions,
  InvalidParameterError,
  type JournalProfile,
  type MetricClient,
  type RequestOptions,
} from '../../src/index.js';
import { metricQueries } from '../../src/query/index.js';
import { MOCK_API_KEY, MOCK_BASE_URL, mockHandlers } from '../../src/testing/index.js';
import { createMockApiOver } from '../../src/testing/mock-api.js';
import { createRouter, type Handler, mockRoutes } from '../../src/testing/routes.js';
import * as wire from '../../src/testing/wire.js';
import { testIO } from '../cli/helpers.js';
import { clockStart } from '../helpers/fake-clock.js';
import { testClient, useMsw } from '../support.js';
import { useTelemetry } from '../telemetry/harness.js';

/** The table of src/api/endpoints.ts, with one more entry as a newer API might add it. */
vi.mock('../../src/api/endpoints.js', async (importOriginal) => {
  const table = await importOriginal<typeof import('../../src/api/endpoints.js')>();
  const { checkPositiveInteger } = await import('../../src/core/params.js');
  const { get } = table.endpoints.journals;
  const twin = {
    name: 'journals.twin',
    path: '/journals/{id}/twin',
    pathParams: get.pathParams,
    query: { depth: checkPositiveInteger },
    shape: get.shape,
    paged: false,
    ttl: 90 * 60_000,
  };
  const extended = { ...table.endpoints, journals: { ...table.endpoints.journals, twin } };
  return {
    ...table,
    endpoints: extended,
    endpointList: Object.values(extended).flatMap((namespace) => Object.values(namespace)),
  };
});

/** `client.journals` with the new endpoint's method, written as a resource writes one. */
vi.mock('../../src/resources/journals.js', async (importOriginal) => {
  const resource = await importOriginal<typeof import('../../src/resources/journals.js')>();
  const table = await import('../../src/api/endpoints.js');
  const { twin } = table.endpoints.journals as unknown as {
    twin: ApiEndpoint<'journals.twin', JournalProfile>;
  };
  class Journals extends resource.Journals {
    /** A journal's twin. `GET /journals/{id}/twin` */
    twin(id: number, params?: TwinParams, options?: RequestOptions): APIPromise<JournalProfile> {
      return this.request(twin, { id }, params, options);
    }
  }
  return { ...resource, Journals };
});

interface TwinParams {
  depth?: number;
}

/** The compiled table does not know the entry: these are its types, as the table would give them. */
const twin = (endpoints.journals as unknown as { twin: ApiEndpoint<'journals.twin', JournalProfile> }).twin;
const twinsOf = (client: MetricClient) =>
  client.journals as typeof client.journals & {
    twin(id: number, params?: TwinParams, options?: RequestOptions): APIPromise<JournalProfile>;
  };

/** The mock's answer, a `Handler` as its table of handlers (src/testing/routes.ts) requires one. */
const twinHandler: Handler = (dataset, query, { id }) => {
  query.integer('depth', 1);
  return wire.journalProfile(dataset.journal(Number(id) + 1)!);
};

/** The mock over the table's routes, the new one answered by {@link twinHandler}. */
function mockWithTwins() {
  const routes = mockRoutes.map((route) =>
    route.endpoint === twin ? { ...route, handler: twinHandler } : route,
  );
  return createMockApiOver(createRouter(routes));
}

/** The new endpoint's command, made by the command line's helper as each of its own is. */
const journalsTwin = recordCommand(twin, {
  description: "a journal's twin: the journal with the next id",
  args: { id: 'the journal id' },
  fetch: (context, [id], _, request) => twinsOf(context.client).twin(Number(id), undefined, request),
  examples: ['scholarly-metrics journals twin 42'],
});

/** A run of the command line with the new command beside the program's own. */
async function runWithTwin(argv: string[], env?: Record<string, string>) {
  const { io, stdout, stderr } = testIO(env && { env });
  const code = await runCommandLine(argv, io, [...cliCommands, journalsTwin]);
  return { code, stdout: stdout(), stderr: stderr() };
}

describe('an endpoint added to the table', () => {
  const otel = useTelemetry({ undici: false });
  const msw = useMsw();
  const clientOf = (api: ReturnType<typeof createMockApiOver>, options: ClientOptions = {}) =>
    twinsOf(testClient(options, api));

  it('is in the list of endpoints and among the routes of the mock', () => {
    expect(endpointList).toContain(twin);
    expect(mockRoutes.map((route) => route.endpoint)).toContain(twin);
  });

  it('is served by the mock, which checks its query names by the table too', async () => {
    const api = mockWithTwins();
    const journal = await clientOf(api).twin(3, { depth: 2 });
    expect(journal.id).toBe(4);
    expect(api.requests.at(-1)?.path).toBe('/api/v1/journals/3/twin?depth=2');
    const headers = { authorization: `Bearer ${MOCK_API_KEY}` };
    const unknown = await api.fetch(new Request(`${MOCK_BASE_URL}/journals/3/twin?size=2`, { headers }));
    expect(unknown.status).toBe(400);
  });

  it('checks its parameters before sending, by the table', async () => {
    const api = mockWithTwins();
    const twins = clientOf(api);
    const sent = api.requests.length;
    await expect(twins.twin(0.5)).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(twins.twin(3, { size: 2 } as never)).rejects.toThrow(
      'journals.twin() takes no parameter "size"; it takes depth',
    );
    expect(api.requests.length).toBe(sent);
  });

  it('is cached for the lifetime the table gives it', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: clockStart });
    try {
      const api = mockWithTwins();
      const twins = clientOf(api, { cache: true });
      const status = async () => (await twins.twin(5).withResponse()).cacheStatus;
      expect(await status()).toBe('miss');
      vi.setSystemTime(clockStart + twin.ttl - 1);
      expect(await status()).toBe('hit');
      vi.setSystemTime(clockStart + twin.ttl);
      expect(await status()).toBe('miss');
      expect(api.requests.filter((request) => request.path.endsWith('/5/twin'))).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is one of the names cache.ttl takes, its lifetime then the one given', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: clockStart });
    try {
      // A name the compiled table lacks: the option's type does not know it, its check does.
      const ttl = { 'journals.twin': 1_000 } as never;
      const twins = clientOf(mockWithTwins(), { cache: { ttl } });
      const status = async () => (await twins.twin(5).withResponse()).cacheStatus;
      expect(await status()).toBe('miss');
      vi.setSystemTime(clockStart + 999);
      expect(await status()).toBe('hit');
      vi.setSystemTime(clockStart + 1_000);
      expect(await status()).toBe('miss');
    } finally {
      vi.useRealTimers();
    }
    expect(() => clientOf(mockWithTwins(), { cache: { ttl: { 'journals.nosuch': 1 } as never } })).toThrow(
      'journals.nosuch',
    );
  });

  it('is traced with its name and path template', async () => {
    await clientOf(mockWithTwins(), { telemetry: otel.telemetry }).twin(6);
    const [span] = otel.named('journals.twin');
    expect(span?.attributes['url.template']).toBe('/journals/{id}/twin');
  });

  it('is offered by the query entry, keyed by its name, calling the method', async () => {
    const api = mockWithTwins();
    const queries = metricQueries(testClient({}, api)) as unknown as Record<
      string,
      Record<string, (...args: unknown[]) => { queryKey: unknown[]; queryFn: (context: object) => unknown }>
    >;
    const options = queries.journals!.twin!(3, { depth: 2 });
    expect(options.queryKey).toEqual(['scholarly-metrics', api.baseUrl, 'journals.twin', 3, { depth: 2 }]);
    const journal = (await options.queryFn({ signal: new AbortController().signal })) as JournalProfile;
    expect(journal.id).toBe(4);
    expect(api.requests.at(-1)?.path).toBe('/api/v1/journals/3/twin?depth=2');
  });

  it("is listed by the command line's help, which names its request, and runs", async () => {
    const group = await runWithTwin(['journals', '--help']);
    expect(group.code).toBe(0);
    expect(group.stdout).toMatch(
      /^ {2}twin \[options\] <id> +a journal's twin: the journal with the next id$/m,
    );
    const own = await runWithTwin(['journals', 'twin', '--help']);
    expect(own.stdout).toContain('Usage: scholarly-metrics journals twin [options] <id>');
    expect(own.stdout).toContain(`Endpoint: GET ${twin.path}\n`);
    msw.use(...mockHandlers<HttpHandler>(mockWithTwins()));
    const env = { METRIC_API_KEY: MOCK_API_KEY, METRIC_BASE_URL: MOCK_BASE_URL };
    const ran = await runWithTwin(['journals', 'twin', '7', '--format', 'json'], env);
    expect(ran).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(ran.stdout)).toMatchObject({ id: 8 });
  });
});

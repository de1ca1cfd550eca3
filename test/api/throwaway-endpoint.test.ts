// Adding an endpoint starts at the API table: one declaration, a mock handler and a method, and the
// rest (the request, its checks, the mock's routing, the cache, the span) follows from the table.
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import type { Endpoint } from '../../src/core/endpoint.js';
import { checkId, checkPositiveInteger } from '../../src/core/params.js';
import { APIResource } from '../../src/core/resource.js';
import { type ClientOptions, InvalidParameterError, type JournalProfile } from '../../src/index.js';
import { MOCK_API_KEY, MOCK_BASE_URL } from '../../src/testing/index.js';
import { createMockApiOver } from '../../src/testing/mock-api.js';
import { createRouter, mockRoutes } from '../../src/testing/routes.js';
import * as wire from '../../src/testing/wire.js';
import { testClient } from '../support.js';
import { useTelemetry } from '../telemetry/harness.js';

/** The endpoint a newer API might add: a journal's twin, the journal with the next id. */
const twin: Endpoint<JournalProfile> = {
  name: 'journals.twin',
  path: '/journals/{id}/twin',
  pathParams: { id: checkId },
  query: { depth: checkPositiveInteger },
  shape: endpoints.journals.get.shape,
  paged: false,
  ttl: 60_000,
};

/** Its method, as a resource of the SDK declares one. */
class Twins extends APIResource {
  get(id: number, params?: { depth?: number }) {
    return this.request(twin, { id }, params, undefined);
  }
}

/** A mock that also serves the new endpoint, through its router built from the table plus one route. */
function mockWithTwins() {
  const router = createRouter([
    ...mockRoutes,
    {
      endpoint: twin,
      handler: (dataset, query, { id }) => {
        query.integer('depth', 1);
        return wire.journalProfile(dataset.journal(Number(id) + 1)!);
      },
    },
  ]);
  return createMockApiOver(router);
}

/** A client of `api`, and the new resource beside its own namespaces (same transport and cache). */
function clientOf(api: ReturnType<typeof createMockApiOver>, extra: ClientOptions = {}) {
  const client = testClient(extra, api);
  const { transport, cache } = client.journals as unknown as { transport: never; cache: never };
  return new Twins(transport, cache);
}

describe('an endpoint added to the table', () => {
  const otel = useTelemetry({ undici: false });

  it('is served by the mock, which checks its query names by the table too', async () => {
    const api = mockWithTwins();
    const journal = await clientOf(api).get(3, { depth: 2 });
    expect(journal.id).toBe(4);
    expect(api.requests.at(-1)?.path).toMatch(/\/journals\/3\/twin\?depth=2$/);
    const headers = { authorization: `Bearer ${MOCK_API_KEY}` };
    const unknown = await api.fetch(new Request(`${MOCK_BASE_URL}/journals/3/twin?size=2`, { headers }));
    expect(unknown.status).toBe(400);
  });

  it('checks its parameters before sending, by the table', async () => {
    const api = mockWithTwins();
    const twins = clientOf(api);
    const sent = api.requests.length;
    await expect(twins.get(0.5)).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(twins.get(3, { size: 2 } as never)).rejects.toThrow(
      'journals.twin() takes no parameter "size"; it takes depth',
    );
    expect(api.requests.length).toBe(sent);
  });

  it('is cached, for the lifetime the table gives it', async () => {
    const api = mockWithTwins();
    const twins = clientOf(api, { cache: true });
    const first = await twins.get(5).withResponse();
    const second = await twins.get(5).withResponse();
    expect([first.cacheStatus, second.cacheStatus]).toEqual(['miss', 'hit']);
    expect(api.requests.filter((request) => request.path.endsWith('/5/twin'))).toHaveLength(1);
  });

  it('is traced with its name and path template', async () => {
    await clientOf(mockWithTwins(), { telemetry: otel.telemetry }).get(6);
    const [span] = otel.named('journals.twin');
    expect(span?.attributes['url.template']).toBe('/journals/{id}/twin');
  });
});

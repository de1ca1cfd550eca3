/**
 * Every endpoint of the API table has a method of the client and a command of the command line, each
 * under the endpoint's namespace and verb and each sending the endpoint's request. The compiler asks
 * the command line for one per endpoint (src/cli/commands/index.ts); this checks both at run time.
 */
import { describe, expect, it } from 'vitest';
import { endpointList } from '../../src/api/endpoints.js';
import type { Endpoint } from '../../src/core/endpoint.js';
import { MetricClient } from '../../src/index.js';
import { run } from '../cli/helpers.js';
import { TEST_KEY } from '../support.js';

const base = 'https://api.example.test/api/v1';

/** A value each path parameter accepts, by its name. */
const sample: Readonly<Record<string, string | number>> = { id: 7, doi: '10.1234/x' };

const namesOf = (endpoint: Endpoint) => endpoint.name.split('.') as [string, string];

/** The request the method sends for the sample values: the endpoint's path with them in it. */
const samplePath = (endpoint: Endpoint) =>
  endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(sample[name])));

/** A client whose every request is recorded and answered 404 (the answer does not matter here). */
function recordingClient() {
  const sent: string[] = [];
  const client = new MetricClient({
    apiKey: TEST_KEY,
    baseUrl: base,
    maxRetries: 0,
    fetch: async (input) => {
      sent.push(new URL(input instanceof Request ? input.url : input).pathname);
      return Response.json({ error: 'not found' }, { status: 404 });
    },
  });
  return { client, sent };
}

describe('every endpoint of the table', () => {
  it.each(endpointList.map((endpoint) => [endpoint.name, endpoint] as const))(
    '%s has a method of the client of its namespace and verb, sending its request',
    async (_, endpoint) => {
      const [namespace, verb] = namesOf(endpoint);
      const { client, sent } = recordingClient();
      const resource = (client as unknown as Record<string, Record<string, unknown>>)[namespace];
      const method = resource?.[verb];
      expect(method, `client.${namespace}.${verb}`).toBeTypeOf('function');
      const args = Object.keys(endpoint.pathParams).map((name) => sample[name]);
      await (method as (...args: unknown[]) => Promise<unknown>).apply(resource, args).catch(() => {});
      expect(sent).toEqual([`/api/v1${samplePath(endpoint)}`]);
    },
  );

  it.each(endpointList.map((endpoint) => [endpoint.name, endpoint] as const))(
    '%s has a command of its group and verb, whose help names its request',
    async (_, endpoint) => {
      const [group, verb] = namesOf(endpoint);
      const listed = await run([group, '--help'], { key: undefined });
      expect(listed.stdout).toMatch(new RegExp(`^ {2}${verb}\\b`, 'm'));
      const own = await run([group, verb, '--help'], { key: undefined });
      expect(own.code).toBe(0);
      expect(own.stdout).toContain(`Endpoint: GET ${endpoint.path}\n`);
    },
  );
});

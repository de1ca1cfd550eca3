/**
 * The error body in openapi/openapi.json: the API document leaves its shape open (api-v1.md §7) and
 * the SDK keeps whatever arrives (`APIError.body`), so the schema accepts any JSON value; it still
 * names each place the SDK reads a message from (src/core/status-message.ts), as documentation.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { APIError, MetricClient } from '../../src/index.js';
import { TEST_KEY } from '../support.js';

type Json = Record<string, unknown>;

const document = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, Json> };
};
const errorSchema = document.components.schemas.Error!;

/** Bodies a server may send with an error: none of them is outside what the API document allows. */
const bodies: unknown[] = [
  { error: 'not_found', message: 'No journal with id 7' },
  { error: { message: 'No journal with id 7' } },
  { detail: [{ loc: ['path', 'id'], msg: 'not an integer' }] },
  { title: 'Not Found' },
  { message: { text: 'no such journal' } },
  { message: null, error: 'not_found' },
  [{ message: 'bad page' }],
  'Not Found',
  404,
  true,
  null,
];

/** The error the SDK raises for `body`, sent as JSON with a 404. */
async function sdkError(body: unknown): Promise<unknown> {
  const client = new MetricClient({
    apiKey: TEST_KEY,
    baseUrl: 'https://api.example.test/api/v1',
    maxRetries: 0,
    fetch: async () =>
      new Response(JSON.stringify(body), { status: 404, headers: { 'content-type': 'application/json' } }),
  });
  return client.journals.get(1).catch((error: unknown) => error);
}

describe('the Error schema of openapi/openapi.json', () => {
  it('accepts every JSON body, as the SDK does', async () => {
    const validate = new Ajv2020({ strict: false }).compile(errorSchema);
    for (const body of bodies) {
      expect([body, validate(body)]).toEqual([body, true]);
      const error = await sdkError(body);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).body).toEqual(body);
    }
  });

  it('names every place the SDK reads a message from, without a type that would constrain it', () => {
    const properties = errorSchema.properties as Record<string, Json>;
    expect(Object.keys(properties).sort()).toEqual(['detail', 'error', 'message', 'title']);
    for (const [name, property] of Object.entries(properties)) {
      expect([name, Object.keys(property)]).toEqual([name, ['description']]);
    }
    expect(errorSchema).not.toHaveProperty('type');
    expect(errorSchema.description).toContain('APIError.body');
  });
});

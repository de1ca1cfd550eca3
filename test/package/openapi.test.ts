// openapi/openapi.json: up to date with the zod schemas, a valid OpenAPI 3.1 document, shipped in the
// package, and in agreement with the mock API's real answers and with the SDK's own validation.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { safeParse } from 'zod/mini';
import { generate, render } from '../../scripts/generate-openapi.js';
import { checkDoi } from '../../src/core/params.js';
import { responseSchemas } from '../../src/schemas/response-schemas.js';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL, MOCK_DOIS } from '../../src/testing/index.js';
import { parseWebhookEvent, WebhookPayloadError } from '../../src/webhooks/index.js';

type Json = Record<string, unknown>;

const committedText = readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8');
const committed = JSON.parse(committedText) as Json;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Json;

/** An Ajv that knows the whole document, so `$ref`s between component schemas resolve. */
function schemaValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi.json', ...(committed as Json) });
  return (pointer: string) => {
    const validate = ajv.getSchema(`openapi.json#${pointer}`);
    if (validate === undefined) throw new Error(`no schema at ${pointer}`);
    return validate;
  };
}

const schemaAt = schemaValidator();
const responseSchema = (path: string) =>
  schemaAt(
    `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`,
  );

describe('openapi/openapi.json', () => {
  test('is what `npm run openapi` generates from the zod schemas today', () => {
    // If this fails: run `npm run openapi` and commit openapi/openapi.json. Byte for byte: the file
    // is the script's own text, so the command reproduces the committed one exactly.
    expect(committed).toEqual(generate());
    expect(committedText).toBe(render());
  });

  test('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(committed));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('describes every endpoint, its errors, bearer auth and the webhook', () => {
    const paths = committed.paths as Record<string, { get: Json }>;
    expect(Object.keys(paths).sort()).toEqual(
      [
        '/authors',
        '/authors/{id}',
        '/countries',
        '/journals',
        '/journals/{id}',
        '/journals/{id}/papers',
        '/journals/{id}/score',
        '/papers',
        '/papers/{doi}',
        '/subjects',
      ].sort(),
    );
    for (const [path, item] of Object.entries(paths)) {
      const codes = Object.keys(item.get.responses as Json);
      // Every operation refuses an invalid or unknown parameter with a 400 (the mock does too).
      expect(codes, path).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429', '500']));
      if (path.includes('{')) expect(codes, path).toEqual(expect.arrayContaining(['404']));
    }
    // An unknown id a filter names is a 404 too (API §4 rule 2), though the mock answers an empty page.
    expect(Object.keys(paths['/authors']!.get.responses as Json)).toContain('404');
    expect(committed.security).toEqual([{ bearerAuth: [] }]);
    const webhooks = committed.webhooks as Record<string, { post: Json }>;
    expect(webhooks.score_updated?.post.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ScoreUpdatedEvent' } } },
    });
    // What the SDK's receivers answer, each told, and the deduplication docs/webhooks.md gives.
    const answers = Object.keys(webhooks.score_updated?.post.responses as Json);
    expect(answers.sort()).toEqual(['200', '400', '405', '408', '413', '415', '500', '503']);
    expect(webhooks.score_updated?.post.description).toContain('deduplicate on the whole event');
  });

  test("the mock's 400 for an unknown parameter is a documented answer, on an endpoint with none", async () => {
    const answer = await createMockApi().fetch(`${MOCK_BASE_URL}/journals?page=1`, {
      headers: { authorization: `Bearer ${MOCK_API_KEY}` },
    });
    expect(answer.status).toBe(400);
    const body = await answer.json();
    expect(schemaAt('/components/schemas/Error')(body)).toBe(true);
    expect(schemaAt('/components/schemas/Error')({ error: { message: 'No journal 7' } })).toBe(true);
  });

  test("promises what the API document promises: no order of a score history, the SDK's choices named", () => {
    const components = committed.components as Record<string, Record<string, Json>>;
    const history = components.schemas!.ScoreHistory as Json & { properties: Record<string, Json> };
    expect(history.description).toContain('no order is promised');
    expect(history.properties.history!.description).toBe(
      'The sample lists the most recent entry first; no order is promised.',
    );
    const parameters = components.parameters as Record<string, Json>;
    for (const name of ['page', 'per_page']) {
      expect(parameters[name]!.description).toContain("the minimum 1 is the SDK's choice");
    }
    expect(parameters.oa!.description).toContain("`true` or `false` is the SDK's choice");
  });

  test('ships in the package as scholarly-metrics/openapi.json', () => {
    expect((pkg.exports as Json)['./openapi.json']).toBe('./openapi/openapi.json');
    expect(pkg.files).toContain('openapi');
  });
});

describe('the document agrees with the mock API and the SDK', () => {
  const api = createMockApi();
  const get = async (path: string) => {
    const response = await api.fetch(`${MOCK_BASE_URL}${path}`, {
      headers: { authorization: `Bearer ${MOCK_API_KEY}` },
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as unknown;
  };

  test('every endpoint: the mock answer validates against the documented 200 schema', async () => {
    const journal = ((await get('/journals')) as { id: number }[])[0]!;
    const author = ((await get('/authors')) as { data: { id: number }[] }).data[0]!;
    const samples: [template: string, path: string][] = [
      ['/journals', '/journals'],
      ['/journals/{id}', `/journals/${journal.id}`],
      ['/journals/{id}/papers', `/journals/${journal.id}/papers?per_page=50`],
      ['/journals/{id}/score', `/journals/${journal.id}/score`],
      ['/papers', '/papers?q=a&per_page=50'],
      ['/papers/{doi}', `/papers/${encodeURIComponent(MOCK_DOIS[0]!)}`],
      ['/authors', '/authors'],
      ['/authors/{id}', `/authors/${author.id}`],
      ['/subjects', '/subjects'],
      ['/countries', '/countries?show=all'],
    ];
    for (const [template, path] of samples) {
      const validate = responseSchema(template);
      const body = await get(path);
      expect(validate(body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  test('the webhook event the mock sends validates against ScoreUpdatedEvent', async () => {
    const { event } = await api.updateScore(1, 42);
    const validate = schemaAt('/components/schemas/ScoreUpdatedEvent');
    expect(validate(JSON.parse(JSON.stringify(event))), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...event, timestamp: '2024-01-01T00:00:00.5Z' })).toBe(false);
    expect(validate({ ...event, event: 'other' })).toBe(false);
    // Any safe integer is an id, to the document and the SDK alike; one past them, to neither.
    for (const journal_id of [0, -3]) {
      expect(validate({ ...event, journal_id })).toBe(true);
      expect(parseWebhookEvent(JSON.stringify({ ...event, journal_id })).journal_id).toBe(journal_id);
    }
    expect(validate({ ...event, journal_id: 2 ** 53 })).toBe(false);
    expect(() => parseWebhookEvent(JSON.stringify({ ...event, journal_id: 2 ** 53 }))).toThrow(
      WebhookPayloadError,
    );
  });

  test('its DOI pattern takes the DOIs the SDK sends and refuses those it refuses', () => {
    const parameters = (committed.components as Json).parameters as Record<string, { schema: Json }>;
    const pattern = new RegExp(parameters.doi!.schema.pattern as string, 'u');
    const dois = [
      ...MOCK_DOIS,
      '10.1000/xyz123',
      '10.1000/abc ',
      '10.1000/a\tb',
      '10.1000/abc\u0007',
      '10.1000/\u202eabc',
      '10.1000/a\nb',
      ' 10.1000/abc',
      '11.1000/abc',
      '10.1000/',
    ];
    for (const value of dois) {
      let sdkSends = true;
      try {
        checkDoi(value);
      } catch {
        sdkSends = false;
      }
      expect(pattern.test(value), JSON.stringify(value)).toBe(sdkSends);
    }
  });

  test('it refuses what the SDK refuses, and accepts what it accepts', () => {
    const validate = responseSchema('/journals/{id}');
    const profile = { id: 1, name: 'J', metric_score: 80, quartile: 'Q5?', description: '', oa: true };
    const cases: unknown[] = [
      profile,
      { ...profile, extra: 'kept' },
      { ...profile, metric_score: '80' },
      { ...profile, id: 1.5 },
      { ...profile, oa: 'yes' },
      { ...profile, description: undefined },
      [],
      null,
    ];
    for (const value of cases) {
      const sdkAccepts = safeParse(responseSchemas.journalProfile, value).success;
      expect(validate(value), JSON.stringify(value)).toBe(sdkAccepts);
    }
    expect(cases.filter((value) => validate(value))).toHaveLength(2);
  });
});

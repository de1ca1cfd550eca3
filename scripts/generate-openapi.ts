/**
 * Writes openapi/openapi.json: an OpenAPI 3.1 description of the Scholarly Metrics REST API v1, for
 * other tools (code generators, API explorers, contract tests). Shipped in the package as
 * `scholarly-metrics/openapi.json`.
 *
 * The body schemas are generated from the SDK's own zod schemas (src/schemas) with zod's
 * `toJSONSchema`, so the document accepts exactly what the SDK accepts; paths, parameters and
 * responses follow the API document (api-v1.md §4, §5, §7) through the SDK's API table
 * (src/api/endpoints.ts) and its local parameter rules.
 *
 * Run: npm run openapi. test/package/openapi.test.ts fails when the committed file is stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import { endpoints } from '../src/api/endpoints.js';
import { SHOW_VALUES } from '../src/api/params.js';
import type { Endpoint } from '../src/core/endpoint.js';
import { authorPageSchema, authorProfileSchema, authorSchema } from '../src/schemas/authors.js';
import { isoDate } from '../src/schemas/common.js';
import { countrySchema } from '../src/schemas/countries.js';
import {
  journalPaperPageSchema,
  journalPaperSchema,
  journalProfileSchema,
  journalSchema,
  scoreHistorySchema,
  scorePointSchema,
} from '../src/schemas/journals.js';
import { paperSchema, paperSummaryPageSchema, paperSummarySchema } from '../src/schemas/papers.js';
import { subjectSchema } from '../src/schemas/subjects.js';
import { scoreUpdatedEventSchema } from '../src/schemas/webhook-event.js';

export const outputPath = new URL('../openapi/openapi.json', import.meta.url);

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (name: string) => ({ type: 'array', items: ref(name) });

/** The body schemas, by component name, with what the API document says of each. */
const bodies: [name: string, schema: z.core.$ZodType, description: string][] = [
  ['Journal', journalSchema, 'A journal, as the journal list returns it.'],
  ['JournalProfile', journalProfileSchema, "A journal's full profile, as `GET /journals/{id}` returns it."],
  ['JournalPaper', journalPaperSchema, "A paper in a journal's paper list."],
  ['JournalPaperPage', journalPaperPageSchema, "One page of a journal's papers."],
  ['ScorePoint', scorePointSchema, 'One point of a score history.'],
  [
    'ScoreHistory',
    scoreHistorySchema,
    "A journal's current score, its quartile and its score history (the sample lists the most recent entry first; no order is promised).",
  ],
  ['Paper', paperSchema, 'A paper, as the DOI lookup returns it.'],
  [
    'PaperSummary',
    paperSummarySchema,
    'An element of the paper search results. The API document does not publish its shape, so any ' +
      'value is accepted; a paper is expected to carry some of `id`, `title`, `authors`, `doi`, `year`, ' +
      '`citations`.',
  ],
  ['PaperSummaryPage', paperSummaryPageSchema, 'One page of paper search results.'],
  ['Author', authorSchema, 'An author, as the author list returns it.'],
  ['AuthorPage', authorPageSchema, 'One page of authors.'],
  ['AuthorProfile', authorProfileSchema, "An author's profile."],
  ['Subject', subjectSchema, 'A subject area with its aggregate counts.'],
  ['Country', countrySchema, 'A country with its aggregate counts.'],
  ['ScoreUpdatedEvent', scoreUpdatedEventSchema, 'The `score_updated` webhook event (API §6).'],
];

/** Descriptions of fields whose names do not say it all, by component and field. */
const fieldNotes: Record<string, Record<string, string>> = {
  '*': {
    quartile:
      'A quartile label such as `Q1`. The API document shows no other value, so any string is accepted.',
    metric_score: "The journal's score.",
  },
  Journal: { country_id: "Id of the journal's country.", field_id: "Id of the journal's field." },
  JournalProfile: { oa: 'Open access.' },
  JournalPaperPage: { total: 'Matching items across all pages, not only this one.' },
  PaperSummaryPage: { total: 'Matching items across all pages, not only this one.' },
  AuthorPage: { total: 'Matching items across all pages, not only this one.' },
  ScoreHistory: {
    current: 'The current score.',
    history: 'The sample lists the most recent entry first; no order is promised.',
  },
  ScorePoint: { date: 'A calendar date, `YYYY-MM-DD`.' },
  Author: { affil: 'Affiliation.' },
  AuthorProfile: {
    affil: 'Affiliation.',
    papers:
      "The author's papers. The API document does not publish their shape; elements are passed through.",
  },
  Subject: { journals: 'Count of journals.', papers: 'Count of papers.', citations: 'Count of citations.' },
  Country: {
    flag: 'A flag emoji.',
    journals: 'Count of journals.',
    papers: 'Count of papers.',
    citations: 'Count of citations.',
  },
  ScoreUpdatedEvent: {
    event: 'The event kind; `score_updated` is the only one the API document describes.',
    old_score: 'The score before the change.',
    new_score: 'The score after the change.',
    timestamp: 'When the score changed: UTC, whole seconds, `YYYY-MM-DDThh:mm:ssZ`.',
  },
};

function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of bodies) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    // The SDK checks a date with zod's ISO date pattern on a plain string (src/schemas/common.ts):
    // the document still names the format.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === isoDate) jsonSchema.format = 'date';
    },
  }) as { schemas: Record<string, Json> };
  const out: Record<string, Json> = {};
  for (const [id, , description] of bodies) {
    const { $schema: _dialect, $id: _id, ...schema } = schemas[id] as Json;
    const properties = schema.properties as Record<string, Json> | undefined;
    if (properties) {
      for (const [field, property] of Object.entries(properties)) {
        const note = fieldNotes[id]?.[field] ?? fieldNotes['*']?.[field];
        if (note !== undefined) properties[field] = { description: note, ...property };
      }
    }
    out[id] = { description, ...schema };
  }
  out.Error = {
    description:
      'An error body. The API document does not publish its shape; servers are expected to send JSON ' +
      'such as `{ "error": "not_found", "message": "…" }`, and the SDK keeps whatever arrives.',
    type: 'object',
    properties: {
      // No type: a code (a string), or an object with its `message`, another common shape.
      error: { description: 'A short error code, or an object with its `message`.' },
      message: { type: 'string', description: 'What went wrong, for people.' },
    },
    additionalProperties: {},
  };
  return out;
}

const safeMax = Number.MAX_SAFE_INTEGER;
/** Any safe integer: the document says no more of an id or a year. */
const safeInteger = { type: 'integer', minimum: -safeMax, maximum: safeMax };

const parameters: Record<string, Json> = {
  id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The integer id of the resource.',
    schema: safeInteger,
  },
  doi: {
    name: 'doi',
    in: 'path',
    required: true,
    description:
      'A DOI, percent-encoded as ONE path segment (its `/` becomes `%2F`, and so on). The SDK refuses ' +
      'anything that is not `10.` + registrant + `/` + suffix before sending.',
    schema: { type: 'string', pattern: '^10\\.[^/\\s]+/.' },
    example: '10.1000/xyz123',
  },
  page: {
    name: 'page',
    in: 'query',
    description:
      "The page of results (1-based). The API document shows no bounds: the minimum 1 is the SDK's " +
      "choice (it refuses less before sending); default and upper bound are the server's.",
    schema: { type: 'integer', minimum: 1, maximum: safeMax },
  },
  per_page: {
    name: 'per_page',
    in: 'query',
    description:
      "The size of a page. The API document shows no bounds: the minimum 1 is the SDK's choice (it " +
      "refuses less before sending); default and upper bound are the server's.",
    schema: { type: 'integer', minimum: 1, maximum: safeMax },
  },
  q: { name: 'q', in: 'query', description: 'Search term.', schema: { type: 'string' } },
  year: {
    name: 'year',
    in: 'query',
    description: 'Publication year.',
    schema: safeInteger,
  },
  oa: {
    name: 'oa',
    in: 'query',
    description:
      'Open-access filter. The API document does not show its format: `true` or `false` is the ' +
      "SDK's choice, and what it sends.",
    schema: { type: 'boolean' },
  },
  sort: {
    name: 'sort',
    in: 'query',
    description:
      'Sort selector. The API document lists no values; the server answers 400 to one it does not know.',
    schema: { type: 'string' },
  },
  country_id: {
    name: 'country_id',
    in: 'query',
    description: 'Only authors of this country.',
    schema: safeInteger,
  },
  field_id: {
    name: 'field_id',
    in: 'query',
    description: 'Only authors of this field.',
    schema: safeInteger,
  },
  show: {
    name: 'show',
    in: 'query',
    description: "Which countries: `active` or `all`. The default is the server's.",
    schema: { type: 'string', enum: [...SHOW_VALUES] },
  },
};

const errorResponse = (description: string, extra: Json = {}) => ({
  description,
  ...extra,
  content: { 'application/json': { schema: ref('Error') } },
});

const responses: Record<string, Json> = {
  BadRequest: errorResponse(
    'Bad Request: an invalid parameter or a missing required field. SDK: `BadRequestError`.',
  ),
  Unauthorized: errorResponse('Unauthorized: the API key is missing or invalid. SDK: `AuthenticationError`.'),
  Forbidden: errorResponse(
    'Forbidden: the plan does not include API access (only Professional and Elite do). SDK: `PermissionDeniedError`.',
  ),
  NotFound: errorResponse('Not Found: no resource with this id or DOI. SDK: `NotFoundError`.'),
  RateLimited: errorResponse(
    'Rate Limited: the daily or the per-minute request limit is exceeded. SDK: `RateLimitError`.',
    {
      headers: {
        'Retry-After': {
          description:
            'Not in the API document; when a server sends it (seconds or an HTTP date), the SDK waits ' +
            'that long before retrying, or surfaces `retryAfter` at once for a wait over 60 s.',
          schema: { type: 'string' },
        },
      },
    },
  ),
  ServerError: errorResponse(
    'Server Error: an unexpected server error. SDK: `InternalServerError` (retried).',
  ),
};

/** What the document says of an endpoint beyond the API table: its name, summary and answer. */
interface OperationText {
  operationId: string;
  summary: string;
  body: Json;
  bodyDescription: string;
}

type Table = typeof endpoints;

const texts: { [S in keyof Table]: { [V in keyof Table[S]]: OperationText } } = {
  journals: {
    list: {
      operationId: 'listJournals',
      summary: 'List journals',
      body: arrayOf('Journal'),
      bodyDescription: 'Every journal.',
    },
    get: {
      operationId: 'getJournal',
      summary: "Get a journal's full profile",
      body: ref('JournalProfile'),
      bodyDescription: "The journal's profile.",
    },
    papers: {
      operationId: 'listJournalPapers',
      summary: "List a journal's papers, page by page",
      body: ref('JournalPaperPage'),
      bodyDescription: "One page of the journal's papers.",
    },
    score: {
      operationId: 'getJournalScore',
      summary: "Get a journal's score history",
      body: ref('ScoreHistory'),
      bodyDescription: 'The current score and its history, in no promised order.',
    },
  },
  papers: {
    search: {
      operationId: 'searchPapers',
      summary: 'Search papers, page by page',
      body: ref('PaperSummaryPage'),
      bodyDescription: 'One page of matching papers.',
    },
    get: {
      operationId: 'getPaper',
      summary: 'Get a paper by DOI',
      body: ref('Paper'),
      bodyDescription: 'The paper.',
    },
  },
  authors: {
    list: {
      operationId: 'listAuthors',
      summary: 'List authors, page by page',
      body: ref('AuthorPage'),
      bodyDescription: 'One page of matching authors.',
    },
    get: {
      operationId: 'getAuthor',
      summary: "Get an author's profile",
      body: ref('AuthorProfile'),
      bodyDescription: "The author's profile.",
    },
  },
  subjects: {
    list: {
      operationId: 'listSubjects',
      summary: 'List subject areas with their counts',
      body: arrayOf('Subject'),
      bodyDescription: 'Every subject area.',
    },
  },
  countries: {
    list: {
      operationId: 'listCountries',
      summary: 'List countries with their counts',
      body: arrayOf('Country'),
      bodyDescription: 'The countries `show` selects.',
    },
  },
};

/** One operation of the document: an endpoint of the API table with its text. */
interface Operation extends OperationText {
  path: string;
  tag: string;
  sdk: string;
  params: string[];
}

/** `client.journals.papers(id, { page, per_page })`: the SDK's call, from the endpoint's parameters. */
function sdkCall(endpoint: Endpoint): string {
  const query = Object.keys(endpoint.query);
  const args = [
    ...Object.keys(endpoint.pathParams),
    ...(query.length > 0 ? [`{ ${query.join(', ')} }`] : []),
  ];
  return `client.${endpoint.name}(${args.join(', ')})`;
}

const operations: Operation[] = Object.entries(endpoints).flatMap(([namespace, verbs]) =>
  Object.entries(verbs).map(([verb, endpoint]: [string, Endpoint]) => ({
    path: endpoint.path,
    tag: namespace[0]!.toUpperCase() + namespace.slice(1),
    sdk: sdkCall(endpoint),
    params: [...Object.keys(endpoint.pathParams), ...Object.keys(endpoint.query)],
    ...(texts as Record<string, Record<string, OperationText>>)[namespace]![verb]!,
  })),
);

/** The other answers of the SDK's receivers, each an Error body. */
const receiverAnswers: Json = Object.fromEntries(
  Object.entries({
    '405': 'A method other than POST.',
    '408': "A body slower than the receiver's `bodyTimeoutMs` (the connection is then closed).",
    '413': "A body past the receiver's `maxBodyBytes`, decoded or not (the connection is then closed).",
    '415': 'A `Content-Encoding` other than gzip, deflate or identity.',
    '503': "The cache could not drop the event's answers (`cacheFailure: 'reject'`): deliver it again.",
  }).map(([status, description]) => [
    status,
    { description, content: { 'application/json': { schema: ref('Error') } } },
  ]),
);

function pathItem(op: Operation): Json {
  const pathParams = op.params.filter((p) => parameters[p]?.in === 'path');
  const operationResponses: Json = {
    '200': {
      description: op.bodyDescription,
      content: { 'application/json': { schema: op.body } },
    },
  };
  // Every operation: an invalid parameter is a 400 (API §4), an unknown one included.
  operationResponses['400'] = { $ref: '#/components/responses/BadRequest' };
  operationResponses['401'] = { $ref: '#/components/responses/Unauthorized' };
  operationResponses['403'] = { $ref: '#/components/responses/Forbidden' };
  if (pathParams.length > 0) operationResponses['404'] = { $ref: '#/components/responses/NotFound' };
  operationResponses['429'] = { $ref: '#/components/responses/RateLimited' };
  operationResponses['500'] = { $ref: '#/components/responses/ServerError' };
  return {
    get: {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      description: `SDK: \`${op.sdk}\`.`,
      ...(op.params.length > 0
        ? { parameters: op.params.map((p) => ({ $ref: `#/components/parameters/${p}` })) }
        : {}),
      responses: operationResponses,
      'x-sdk-method': op.sdk,
    },
  };
}

export function generate(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scholarly Metrics REST API',
      version: 'v1',
      summary: 'Journals, papers, authors, subjects and countries, and the score_updated webhook.',
      description:
        'A read-only JSON interface over indexed scholarly journals, papers, authors, subject areas and ' +
        "countries, plus an outbound webhook when a journal's score changes. Generated from the zod " +
        'schemas of the `scholarly-metrics` SDK (scripts/generate-openapi.ts); where the API document is ' +
        'silent (error bodies, quartile values, the paper search element shape), the schemas say so and ' +
        'accept what a reasonable server may send.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: 'https://{host}/api/v1',
        description: "The API's base URL always ends in /api/v1. The API document names no host.",
        variables: {
          host: {
            default: 'api.scholarly-metrics.test',
            description: "Your Scholarly Metrics host (the default is the SDK mock's reserved .test name).",
          },
        },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Journals', description: 'Journals with their score, quartile and score history.' },
      { name: 'Papers', description: 'Paper search and lookup by DOI.' },
      { name: 'Authors', description: 'Authors and their profiles.' },
      { name: 'Subjects', description: 'Subject areas with aggregate counts.' },
      { name: 'Countries', description: 'Countries with aggregate counts.' },
    ],
    paths: Object.fromEntries(operations.map((op) => [op.path, pathItem(op)])),
    webhooks: {
      score_updated: {
        post: {
          operationId: 'scoreUpdated',
          summary: "A journal's score changed",
          description:
            "The service POSTs this event to the URL configured in its dashboard when a journal's " +
            'score changes. The API document shows no signature or shared secret, no delivery headers ' +
            'and no retry policy; deliveries may repeat: deduplicate on the whole event (`journal_id`, ' +
            '`timestamp`, `old_score`, `new_score`), as `timestamp` counts whole seconds and a score ' +
            'changed twice within one gives two events with one timestamp. ' +
            'SDK: `parseWebhookEvent`, `createWebhookHandler`, `createNodeWebhookHandler` from ' +
            '`scholarly-metrics/webhooks`.',
          security: [],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('ScoreUpdatedEvent') } },
          },
          responses: {
            '200': {
              description:
                "Received. The API document does not state the expected answer; the SDK's receivers " +
                'answer 200 `{"received":true}` once your callback has finished.',
            },
            '400': {
              description:
                "The SDK's receivers answer 400 with a reason to a body that is not a valid event; " +
                'besides this schema they refuse a key named after a member of `Object.prototype` ' +
                '(`constructor`, `toString`…) and nesting deeper than 64 levels.',
              content: { 'application/json': { schema: ref('Error') } },
            },
            ...receiverAnswers,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            '`Authorization: Bearer <API_KEY>` on every request. Keys are issued (and regenerated) in the ' +
            'publisher dashboard; API access is part of the Professional and Elite plans only.',
        },
      },
      parameters,
      responses,
      schemas: componentSchemas(),
    },
  };
}

export function render(): string {
  return `${JSON.stringify(generate(), null, 2)}\n`;
}

// Run as a script, not imported: a test imports the generator and must write nothing.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  mkdirSync(new URL('.', outputPath), { recursive: true });
  writeFileSync(outputPath, render());
  console.log(`wrote ${outputPath.pathname}`);
}

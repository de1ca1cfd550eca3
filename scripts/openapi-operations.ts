/**
 * The OpenAPI document's paths (scripts/generate-openapi.ts): one operation per endpoint of the SDK's
 * API table (src/api/endpoints.ts), its path, parameters, SDK call and answer read from the table.
 */
import { endpoints } from '../src/api/endpoints.js';
import type { Endpoint } from '../src/core/endpoint.js';
import { responseSchemas } from '../src/schemas/response-schemas.js';
import { shapes } from '../src/schemas/shapes.js';
import { bodyRef, type Json } from './openapi-components.js';
import { parameters } from './openapi-parameters.js';

/** What the document says of an endpoint beyond the API table: its name, summary and answer's prose. */
interface OperationText {
  operationId: string;
  summary: string;
  bodyDescription: string;
}

type Table = typeof endpoints;

const texts: { [S in keyof Table]: { [V in keyof Table[S]]: OperationText } } = {
  journals: {
    list: { operationId: 'listJournals', summary: 'List journals', bodyDescription: 'Every journal.' },
    get: {
      operationId: 'getJournal',
      summary: "Get a journal's full profile",
      bodyDescription: "The journal's profile.",
    },
    papers: {
      operationId: 'listJournalPapers',
      summary: "List a journal's papers, page by page",
      bodyDescription: "One page of the journal's papers.",
    },
    score: {
      operationId: 'getJournalScore',
      summary: "Get a journal's score history",
      bodyDescription: 'The current score and its history, in no promised order.',
    },
  },
  papers: {
    search: {
      operationId: 'searchPapers',
      summary: 'Search papers, page by page',
      bodyDescription: 'One page of matching papers.',
    },
    get: { operationId: 'getPaper', summary: 'Get a paper by DOI', bodyDescription: 'The paper.' },
  },
  authors: {
    list: {
      operationId: 'listAuthors',
      summary: 'List authors, page by page',
      bodyDescription: 'One page of matching authors.',
    },
    get: {
      operationId: 'getAuthor',
      summary: "Get an author's profile",
      bodyDescription: "The author's profile.",
    },
  },
  subjects: {
    list: {
      operationId: 'listSubjects',
      summary: 'List subject areas with their counts',
      bodyDescription: 'Every subject area.',
    },
  },
  countries: {
    list: {
      operationId: 'listCountries',
      summary: 'List countries with their counts',
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
  body: Json;
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

/** Each response shape's name, which is also its zod schema's in `responseSchemas`. */
const shapeNames = new Map<unknown, keyof typeof responseSchemas>(
  Object.entries(shapes).map(([name, shape]) => [shape, name as keyof typeof responseSchemas]),
);

/** The endpoint's answer in the document: the component of the zod schema its shape checks with. */
function answerOf(endpoint: Endpoint): Json {
  const name = shapeNames.get(endpoint.shape);
  if (name === undefined)
    throw new Error(`${endpoint.name} answers with a shape not in src/schemas/shapes.ts`);
  return bodyRef(responseSchemas[name]);
}

export const operations: Operation[] = Object.entries(endpoints).flatMap(([namespace, verbs]) =>
  Object.entries(verbs).map(([verb, endpoint]: [string, Endpoint]) => ({
    path: endpoint.path,
    tag: namespace[0]!.toUpperCase() + namespace.slice(1),
    sdk: sdkCall(endpoint),
    params: [...Object.keys(endpoint.pathParams), ...Object.keys(endpoint.query)],
    body: answerOf(endpoint),
    ...(texts as Record<string, Record<string, OperationText>>)[namespace]![verb]!,
  })),
);

/** The operation's answers: its body, the errors every operation has, and 404 where it names a resource. */
function operationResponses(op: Operation): Json {
  // An id in the path, or one a filter names (`country_id`): an unknown one is a 404 (API §4 rule 2).
  const takesId = op.params.some((p) => parameters[p]?.in === 'path' || p.endsWith('_id'));
  const responses: Json = {
    '200': {
      description: op.bodyDescription,
      content: { 'application/json': { schema: op.body } },
    },
  };
  // Every operation: an invalid parameter is a 400 (API §4), an unknown one included.
  responses['400'] = { $ref: '#/components/responses/BadRequest' };
  responses['401'] = { $ref: '#/components/responses/Unauthorized' };
  responses['403'] = { $ref: '#/components/responses/Forbidden' };
  if (takesId) responses['404'] = { $ref: '#/components/responses/NotFound' };
  responses['429'] = { $ref: '#/components/responses/RateLimited' };
  responses['500'] = { $ref: '#/components/responses/ServerError' };
  return responses;
}

export function pathItem(op: Operation): Json {
  return {
    get: {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      description: `SDK: \`${op.sdk}\`.`,
      ...(op.params.length > 0
        ? { parameters: op.params.map((p) => ({ $ref: `#/components/parameters/${p}` })) }
        : {}),
      responses: operationResponses(op),
      'x-sdk-method': op.sdk,
    },
  };
}

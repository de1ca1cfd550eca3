/**
 * Writes openapi/openapi.json: an OpenAPI 3.1 description of the Scholarly Metrics REST API v1, for
 * other tools (code generators, API explorers, contract tests). Shipped in the package as
 * `scholarly-metrics/openapi.json`.
 *
 * The body schemas are generated from the SDK's own zod schemas (src/schemas) with zod's
 * `toJSONSchema`, so the document accepts what the SDK accepts (scripts/openapi-components.ts), but
 * for one bound JSON Schema cannot state: the SDK refuses a body nested more than 64 levels deep;
 * paths, parameters and responses follow the API document (api-v1.md §4, §5, §7) through the SDK's
 * API table (src/api/endpoints.ts) and its local parameter rules (scripts/openapi-operations.ts,
 * scripts/openapi-parameters.ts); the webhook is in scripts/openapi-webhooks.ts.
 *
 * Run: npm run openapi. test/package/openapi.test.ts fails when the committed file is stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { componentSchemas, type Json } from './openapi-components.js';
import { operations, pathItem } from './openapi-operations.js';
import { parameters, responses } from './openapi-parameters.js';
import { webhooks } from './openapi-webhooks.js';

export const outputPath = new URL('../openapi/openapi.json', import.meta.url);

const info: Json = {
  title: 'Scholarly Metrics REST API',
  version: 'v1',
  summary: 'Journals, papers, authors, subjects and countries, and the score_updated webhook.',
  description:
    'A read-only JSON interface over indexed scholarly journals, papers, authors, subject areas and ' +
    "countries, plus an outbound webhook when a journal's score changes. Generated from the zod " +
    'schemas of the `scholarly-metrics` SDK (scripts/generate-openapi.ts); where the API document is ' +
    'silent (error bodies, quartile values, the paper search element shape), the schemas say so and ' +
    'accept what a reasonable server may send. One bound the schemas cannot state: the SDK refuses a ' +
    'response body nested more than 64 levels deep.',
  license: { name: 'MIT', identifier: 'MIT' },
};

const servers: Json[] = [
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
];

const tags: Json[] = [
  { name: 'Journals', description: 'Journals with their score, quartile and score history.' },
  { name: 'Papers', description: 'Paper search and lookup by DOI.' },
  { name: 'Authors', description: 'Authors and their profiles.' },
  { name: 'Subjects', description: 'Subject areas with aggregate counts.' },
  { name: 'Countries', description: 'Countries with aggregate counts.' },
];

const bearerAuth: Json = {
  type: 'http',
  scheme: 'bearer',
  description:
    '`Authorization: Bearer <API_KEY>` on every request. Keys are issued (and regenerated) in the ' +
    'publisher dashboard; API access is part of the Professional and Elite plans only.',
};

export function generate(): Json {
  return {
    openapi: '3.1.0',
    info,
    servers,
    security: [{ bearerAuth: [] }],
    tags,
    paths: Object.fromEntries(operations.map((op) => [op.path, pathItem(op)])),
    webhooks,
    components: {
      securitySchemes: { bearerAuth },
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

/**
 * The OpenAPI document's component schemas (scripts/generate-openapi.ts), generated from the SDK's
 * zod schemas with zod's `toJSONSchema`, and the `$ref` that names each response body.
 */
import * as z from 'zod/mini';
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
import {
  paperSchema,
  paperSummaryFields,
  paperSummaryPageSchema,
  paperSummarySchema,
} from '../src/schemas/papers.js';
import { subjectSchema } from '../src/schemas/subjects.js';
import { scoreUpdatedEventSchema } from '../src/schemas/webhook-event.js';

export type Json = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

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
      'value is accepted; a paper is expected to carry some of the fields listed; none is checked.',
  ],
  ['PaperSummaryPage', paperSummaryPageSchema, 'One page of paper search results.'],
  ['Author', authorSchema, 'An author, as the author list returns it.'],
  ['AuthorPage', authorPageSchema, 'One page of authors.'],
  ['AuthorProfile', authorProfileSchema, "An author's profile."],
  ['Subject', subjectSchema, 'A subject area with its aggregate counts.'],
  ['Country', countrySchema, 'A country with its aggregate counts.'],
  ['ScoreUpdatedEvent', scoreUpdatedEventSchema, 'The `score_updated` webhook event (API §6).'],
];

const pageTotal = 'Matching items across all pages, not only this one.';

/** Descriptions of fields whose names do not say it all, by component and field. */
const fieldNotes: Record<string, Record<string, string>> = {
  '*': {
    quartile:
      'A quartile label such as `Q1`. The API document shows no other value, so any string is accepted.',
    metric_score: "The journal's score.",
  },
  Journal: { country_id: "Id of the journal's country.", field_id: "Id of the journal's field." },
  JournalProfile: { oa: 'Open access.' },
  JournalPaperPage: { total: pageTotal },
  PaperSummaryPage: { total: pageTotal },
  AuthorPage: { total: pageTotal },
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

/**
 * The error body, whose shape the API document leaves open: any JSON value. Its properties have no
 * type, so they describe the places the SDK reads a message from (src/core/status-message.ts)
 * without refusing a body that puts something else there.
 */
const errorSchema: Json = {
  description:
    'An error body. The API document does not publish its shape, so any JSON value is accepted, and ' +
    'the SDK keeps whatever arrives in `APIError.body`. Servers are expected to send an object such as ' +
    '`{ "error": "not_found", "message": "…" }`; the SDK quotes the first explanation among ' +
    '`error.message`, `error`, `message`, `detail` and `title`.',
  properties: {
    error: { description: 'A short error code such as `not_found`, or an object with its `message`.' },
    message: { description: 'What went wrong, for people.' },
    detail: { description: 'What went wrong, or a list of issues each with its `msg` (as FastAPI sends).' },
    title: { description: 'A short summary of the problem.' },
  },
};

/** zod's JSON Schema of every body, by component name, with `$ref`s between them. */
function jsonSchemas(): Record<string, Json> {
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
  return schemas;
}

/** Puts each field's note first in its property, where it has one. */
function describeFields(id: string, properties: Record<string, Json>): void {
  for (const [field, property] of Object.entries(properties)) {
    const note = fieldNotes[id]?.[field] ?? fieldNotes['*']?.[field];
    if (note !== undefined) properties[field] = { description: note, ...property };
  }
}

/**
 * The fields a paper summary is expected to carry, each as a schema that accepts anything: the
 * document names them (the command line's `--fields` reads them) and checks none.
 */
const expectedFields = { PaperSummary: paperSummaryFields };

export function componentSchemas(): Record<string, Json> {
  const schemas = jsonSchemas();
  for (const [id, names] of Object.entries(expectedFields)) {
    schemas[id] = { ...schemas[id], properties: Object.fromEntries(names.map((name) => [name, {}])) };
  }
  const out: Record<string, Json> = {};
  for (const [id, , description] of bodies) {
    const { $schema: _dialect, $id: _id, ...schema } = schemas[id] as Json;
    if (schema.properties) describeFields(id, schema.properties as Record<string, Json>);
    out[id] = { description, ...schema };
  }
  out.Error = errorSchema;
  return out;
}

const componentOf = new Map<z.core.$ZodType, string>(bodies.map(([name, schema]) => [schema, name]));

/** A body's schema in the document: its component's `$ref`, or an array of one. */
export function bodyRef(schema: z.core.$ZodType): Json {
  const name = componentOf.get(schema);
  if (name !== undefined) return ref(name);
  const def = schema._zod.def;
  if (def.type === 'array') return { type: 'array', items: bodyRef((def as z.core.$ZodArrayDef).element) };
  throw new Error(`no component schema describes a ${def.type} body`);
}

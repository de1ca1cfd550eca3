/**
 * The fields of each command's records, for `--fields`: known before any request, so a misspelt
 * field is refused with the list of valid ones, and an empty csv or tsv still gets its header. Read
 * by endpoint from the package's published OpenAPI document (`scholarly-metrics/openapi.json`,
 * generated from the SDK's response schemas): the answer the document gives the endpoint's path,
 * unwrapped to its record (a list's item, a page's `data` item), each field that holds records of
 * a published shape nested as the tree of their fields. Where the API publishes no shape (the
 * paper summary) the document lists the fields a record is expected to carry.
 */
import { components, paths } from '../../openapi/openapi.json';
import type { FieldTree } from './output/fields.js';

/** The part of a JSON Schema this file reads. */
interface Schema {
  readonly description?: string;
  readonly $ref?: string;
  readonly type?: string;
  readonly items?: Schema;
  readonly properties?: Readonly<Record<string, Schema>>;
}

/** The part of the document's paths this file reads. */
type Paths = Readonly<
  Record<string, { get?: { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> } }>
>;

const schemas: Readonly<Record<string, Schema>> = components.schemas;

/** The schema `schema` names through its `$ref`, else itself. */
function resolved(schema: Schema | undefined): Schema | undefined {
  const name = schema?.$ref?.replace('#/components/schemas/', '');
  return name === undefined ? schema : schemas[name];
}

/** The record of an answer: the answer itself, a list's item, or a page's `data` item. */
function recordOf(answer: Schema | undefined): Schema | undefined {
  const schema = resolved(answer);
  if (schema?.type === 'array') return resolved(schema.items);
  const data = schema?.properties?.data;
  if (data?.type === 'array' && schema?.properties?.total !== undefined) return resolved(data.items);
  return schema;
}

/** A record's fields; one holding a record (or a list of them) of a published shape, as its tree. */
function treeOf(record: Schema): FieldTree {
  const tree: Record<string, FieldTree | null> = {};
  for (const [name, field] of Object.entries(record.properties ?? {})) {
    const nested = resolved(field.type === 'array' ? field.items : field);
    tree[name] = nested?.properties === undefined ? null : treeOf(nested);
  }
  return tree;
}

/** What an endpoint of the API table shows this file: the path the document lists it by. */
export interface PublishedEndpoint {
  readonly path: string;
}

/**
 * The fields of the records `endpoint` answers with, as the document publishes them; `undefined` for
 * an endpoint the document does not list.
 */
export function fieldsOf(endpoint: PublishedEndpoint): FieldTree | undefined {
  const answer = (paths as Paths)[endpoint.path]?.get?.responses?.['200']?.content?.['application/json'];
  const record = recordOf(answer?.schema);
  return record === undefined ? undefined : treeOf(record);
}

/** The top-level fields of `tree`: the header of an empty list. */
export function topFields(tree: FieldTree): string[] {
  return Object.keys(tree);
}

import type * as z from 'zod/mini';
import { describeValue, quote } from '../core/describe-value.js';
import { onDemand } from '../core/on-demand.js';
import type { ResponseShape } from '../core/validate.js';
import type { CheckedSchema } from '../core/zod-check.js';
import { parsers } from './parsers.generated.js';
import type { responseSchemas } from './response-schemas.js';

type Schemas = typeof responseSchemas;
type Output<K extends keyof Schemas> = z.output<Schemas[K]>;

// A browser offline when a body first needs zod: a ConnectionError, retried, and loaded again next time.
const loadSchemas = onDemand(() => import('./response-schemas.js'));

/**
 * A response's build-time parser, with its zod schema loaded on the first body that parser leaves
 * to zod: a body the parser takes never needs zod's runtime, so it stays out of the first load.
 */
function shape<K extends keyof Schemas>(name: K, label: string): ResponseShape<Output<K>> {
  return {
    label,
    parse: parsers[name],
    zod: () =>
      loadSchemas().then(({ responseSchemas, checkWithZod }) => {
        // Typed by name, so that a generic name picks its own schema rather than the union of them.
        const byName: { [N in keyof Schemas]: CheckedSchema<Output<N>> } = responseSchemas;
        const schema = byName[name];
        return (value: unknown, hide?: (value: unknown) => unknown) =>
          checkWithZod(schema, value, { describeValue, quote }, hide);
      }),
  };
}

/** How messages name each response the client checks. */
const labels: { readonly [K in keyof Schemas]: string } = {
  journalList: 'a journal list',
  journalProfile: 'a journal profile',
  journalPaperPage: 'a page of journal papers',
  scoreHistory: 'a score history',
  paperSummaryPage: 'a page of papers',
  paper: 'a paper',
  authorPage: 'a page of authors',
  authorProfile: 'an author profile',
  subjectList: 'a subject list',
  countryList: 'a country list',
};

/** Every response the client checks, by name. */
export const shapes = Object.fromEntries(
  Object.entries(labels).map(([name, label]) => [name, shape(name as keyof Schemas, label)]),
) as { readonly [K in keyof Schemas]: ResponseShape<Output<K>> };

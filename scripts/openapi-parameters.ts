/**
 * The OpenAPI document's shared parameters and error responses (scripts/generate-openapi.ts), as the
 * API document (api-v1.md §4, §7) and the SDK's local parameter rules describe them.
 */
import { SHOW_VALUES } from '../src/api/params.js';
import { unsafeCharacters } from '../src/core/escape.js';
import { doiForm } from '../src/core/params.js';
import { type Json, ref } from './openapi-components.js';

const safeMax = Number.MAX_SAFE_INTEGER;
/**
 * The SDK's DOI rule as one ECMA-262 pattern: its form, with none of the characters a terminal may
 * act on. (A lone surrogate, which the SDK refuses too, no pattern can name portably.)
 */
const doiPattern = `^(?!.*${unsafeCharacters.source})${doiForm.source.slice(1)}`;
/** Any safe integer: the document says no more of an id or a year. */
const safeInteger = { type: 'integer', minimum: -safeMax, maximum: safeMax };

/** Every parameter of the table's endpoints, by name: operations refer to them. */
export const parameters: Record<string, Json> = {
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
    schema: { type: 'string', pattern: doiPattern },
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

/** An error answer: its description, an Error body and what else it carries (headers). */
const errorResponse = (description: string, extra: Json = {}) => ({
  description,
  ...extra,
  content: { 'application/json': { schema: ref('Error') } },
});

/** The error answers every operation shares, by name. */
export const responses: Record<string, Json> = {
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

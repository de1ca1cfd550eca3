import type { INVALID as ZodInvalid } from 'zod/v4/core';

/**
 * zod's `INVALID` (a registered symbol): what a generated parser returns where zod's runtime must
 * decide. Named here rather than imported, because the module of zod/v4/core that exports it
 * imports zod's whole runtime, which a body the parser takes never needs.
 */
export const INVALID = Symbol.for('zod.compile.invalid') as typeof ZodInvalid;

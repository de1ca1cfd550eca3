export { INVALID } from 'zod/v4/core';

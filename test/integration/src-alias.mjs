// `node --import tsx --import ./test/integration/src-alias.mjs file.ts`: see src-alias-hooks.mjs.
import { register } from 'node:module';

register('./src-alias-hooks.mjs', import.meta.url);

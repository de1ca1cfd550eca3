// Run before every test file of the Node projects (vitest.config.ts, setupFiles).
import { afterEach } from 'vitest';
import { runCleanups } from './cleanup.js';

afterEach(runCleanups);

/**
 * This package's version; test/package/version.test.ts keeps it equal to package.json's. A module of
 * its own: the webhooks' telemetry and the cache's entries stamp it without taking the User-Agent code,
 * so that no on-demand chunk shares that code with the client's first load.
 */
export const VERSION = '0.4.0';

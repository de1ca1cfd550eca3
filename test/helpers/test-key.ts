// A file of its own, importing nothing: the child-process scripts (run with tsx, outside vitest)
// use the key too.

/**
 * The key of every test client that is not talking to the mock (whose keys name plans). Long and
 * distinctive, so that a leak of it cannot go unseen; `OTHER_TEST_KEY` is a second, different one.
 */
export const TEST_KEY = 'sk_test_7f3a9c1e5b2d4086';

/** A second key, for what a key partitions (quotas, cache entries, identities). */
export const OTHER_TEST_KEY = `${TEST_KEY}_other`;

/**
 * A key the mock does not know: shaped as its keys are, so that only being unknown gets it a 401.
 * Distinctive too, for the checks that a refused key is never echoed.
 */
export const UNKNOWN_KEY = 'sm_unknown_5e1b7d3a9c0f2468';

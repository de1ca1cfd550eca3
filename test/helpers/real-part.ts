// The tests' one rule for the real programs users have (Redis, squid, Chromium, tmux, fish, zsh): present,
// they run for real; missing, the tests that need one are a loud skip locally and a failure with
// CI=true, where .ci/run installs them all.

const inCi = process.env.CI === 'true' || process.env.CI === '1';

/** A program the tests run for real: whether it is here, and how to install it. */
export interface RealPart {
  readonly name: string;
  readonly present: boolean;
  readonly install: string;
}

/**
 * Whether the tests of `file` that need `part` skip: only when it is missing and this is not CI. Call
 * it at the top of the file; it says why on stderr, so the skip is never silent.
 */
export function skipWithout(part: RealPart, file: string): boolean {
  const skip = !part.present && !inCi;
  if (skip) {
    console.warn(
      `\n*** ${file} SKIPPED: ${part.name} is not installed (${part.install}). ` +
        'With CI=true this is a failure, not a skip. ***\n',
    );
  }
  return skip;
}

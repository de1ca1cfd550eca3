// What the parameter checks' tests share: the refusal a check throws.
import { expect } from 'vitest';
import { InvalidParameterError, MetricError } from '../../src/index.js';

/** The InvalidParameterError `run` throws; fails the test when it throws nothing or something else. */
export function refusal(run: () => unknown): InvalidParameterError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error).toBeInstanceOf(MetricError);
    return error as InvalidParameterError;
  }
  throw new Error('expected an InvalidParameterError, nothing was thrown');
}

// What the parameter checks' tests share: the refusal a check throws.
import { expect } from 'vitest';
import { InvalidParameterError, MetricError } from '../../src/index.js';
import { thrown } from '../helpers/calls.js';

/** The InvalidParameterError `run` throws; fails the test when it throws nothing or something else. */
export function refusal(run: () => unknown): InvalidParameterError {
  const error = thrown(run, InvalidParameterError);
  expect(error).toBeInstanceOf(MetricError);
  return error;
}

// The mock's constants go by MOCK_ names; the names they had stay, for one minor, as the same values.
import { describe, expect, it } from 'vitest';
import * as testing from '../../src/testing/index.js';
import {
  AUTHOR_SORTS,
  createMockApi,
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  MOCK_AUTHOR_SORTS,
  MOCK_DEFAULT_PER_PAGE,
  MOCK_MAX_PER_PAGE,
  MOCK_PAPER_SORTS,
  MOCK_SHOW_VALUES,
  PAPER_SORTS,
  SHOW_VALUES,
} from '../../src/testing/index.js';
import { testClient } from '../support.js';

describe('the mock’s constants', () => {
  it.each([
    ['DEFAULT_PER_PAGE', DEFAULT_PER_PAGE, MOCK_DEFAULT_PER_PAGE],
    ['MAX_PER_PAGE', MAX_PER_PAGE, MOCK_MAX_PER_PAGE],
    ['SHOW_VALUES', SHOW_VALUES, MOCK_SHOW_VALUES],
    ['PAPER_SORTS', PAPER_SORTS, MOCK_PAPER_SORTS],
    ['AUTHOR_SORTS', AUTHOR_SORTS, MOCK_AUTHOR_SORTS],
  ])('the deprecated %s is its MOCK_ name’s value', (_, old, current) => {
    expect(current).toBeDefined();
    expect(old).toBe(current);
  });

  it('are all MOCK_-prefixed but for the deprecated names', () => {
    const deprecated = ['AUTHOR_SORTS', 'DEFAULT_PER_PAGE', 'MAX_PER_PAGE', 'PAPER_SORTS', 'SHOW_VALUES'];
    const constants = Object.keys(testing).filter((name) => /^[A-Z][A-Z0-9_]*$/.test(name));
    expect(constants.filter((name) => !name.startsWith('MOCK_')).sort()).toEqual(deprecated);
  });

  it('MOCK_DEFAULT_PER_PAGE is the page size the mock serves', async () => {
    const client = testClient({}, createMockApi());
    expect((await client.papers.search({ q: 'a' })).data).toHaveLength(MOCK_DEFAULT_PER_PAGE);
  });
});

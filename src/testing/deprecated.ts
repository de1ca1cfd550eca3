import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import { MOCK_SHOW_VALUES } from './constants.js';
import { MOCK_DEFAULT_PER_PAGE, MOCK_MAX_PER_PAGE } from './params.js';
import { MOCK_AUTHOR_SORTS, MOCK_PAPER_SORTS } from './search.js';

/*
 * The mock's earlier names, kept for one minor release so that tests written against them still
 * compile: each is the value or type under its new name.
 */

/**
 * The mock's default page size, by its earlier name.
 *
 * @deprecated use {@link MOCK_DEFAULT_PER_PAGE}.
 *
 * @example
 * ```ts
 * import { MOCK_DEFAULT_PER_PAGE } from 'scholarly-metrics/testing'; // in place of DEFAULT_PER_PAGE
 * ```
 */
export const DEFAULT_PER_PAGE = MOCK_DEFAULT_PER_PAGE;

/**
 * The mock's largest `per_page`, by its earlier name.
 *
 * @deprecated use {@link MOCK_MAX_PER_PAGE}.
 *
 * @example
 * ```ts
 * import { MOCK_MAX_PER_PAGE } from 'scholarly-metrics/testing'; // in place of MAX_PER_PAGE
 * ```
 */
export const MAX_PER_PAGE = MOCK_MAX_PER_PAGE;

/**
 * The accepted values of `show`, by their earlier name.
 *
 * @deprecated use {@link MOCK_SHOW_VALUES}.
 *
 * @example
 * ```ts
 * import { MOCK_SHOW_VALUES } from 'scholarly-metrics/testing'; // in place of SHOW_VALUES
 * ```
 */
export const SHOW_VALUES = MOCK_SHOW_VALUES;

/**
 * The accepted `sort` values of `GET /papers`, by their earlier name.
 *
 * @deprecated use {@link MOCK_PAPER_SORTS}.
 *
 * @example
 * ```ts
 * import { MOCK_PAPER_SORTS } from 'scholarly-metrics/testing'; // in place of PAPER_SORTS
 * ```
 */
export const PAPER_SORTS = MOCK_PAPER_SORTS;

/**
 * The accepted `sort` values of `GET /authors`, by their earlier name.
 *
 * @deprecated use {@link MOCK_AUTHOR_SORTS}.
 *
 * @example
 * ```ts
 * import { MOCK_AUTHOR_SORTS } from 'scholarly-metrics/testing'; // in place of AUTHOR_SORTS
 * ```
 */
export const AUTHOR_SORTS = MOCK_AUTHOR_SORTS;

/**
 * The `score_updated` event the mock sends, by its earlier name.
 *
 * @deprecated use `ScoreUpdatedEvent` from `scholarly-metrics/webhooks` (or `scholarly-metrics`):
 * the one name of the `score_updated` event, which the mock sends.
 *
 * @example
 * ```ts
 * import type { ScoreUpdatedEvent } from 'scholarly-metrics/webhooks'; // in place of MockScoreUpdatedEvent
 * const received: ScoreUpdatedEvent[] = [(await api.updateScore(7, 81)).event];
 * ```
 */
export type MockScoreUpdatedEvent = ScoreUpdatedEvent;

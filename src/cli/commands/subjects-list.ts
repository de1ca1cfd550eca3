import { endpoints } from '../../api/endpoints.js';
import { listCommand } from '../endpoint-command.js';

/** `subjects list`: every subject area. */
export const subjectsList = listCommand(endpoints.subjects.list, {
  description: 'every subject area',
  unit: 'subjects',
  fetch: (context, _, __, request) => context.client.subjects.list(request),
  examples: ['scholarly-metrics subjects list'],
});

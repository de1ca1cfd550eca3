import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { type OutputOptions, outputOptions } from '../options.js';
import { runList } from '../run.js';

/** `subjects list`: every subject area (`GET /subjects`). */
export function subjectsList(parent: Command): void {
  const command = parent.command('list').description('every subject area');
  outputOptions(command).action(
    act<OutputOptions>((context, options) =>
      runList(context, options, 'subjects', () => context.client.subjects.list()),
    ),
  );
  examples(command, 'scholarly-metrics subjects list');
}

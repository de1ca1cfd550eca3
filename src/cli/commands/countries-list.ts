import { type Command, Option } from 'commander';
import { act, examples } from '../action.js';
import { type OutputOptions, outputOptions } from '../options.js';
import { runList } from '../run.js';

interface CountryOptions extends OutputOptions {
  show?: 'active' | 'all';
}

/** `countries list`: countries (`GET /countries`). */
export function countriesList(parent: Command): void {
  const command = parent
    .command('list')
    .description('countries')
    .addOption(
      new Option(
        '--show <which>',
        "active: countries with journals; all: every country (default: the server's)",
      ).choices(['active', 'all']),
    );
  outputOptions(command).action(
    act<CountryOptions>((context, options) =>
      runList(context, options, 'countries', () => context.client.countries.list({ show: options.show })),
    ),
  );
  examples(command, 'scholarly-metrics countries list --show all');
}

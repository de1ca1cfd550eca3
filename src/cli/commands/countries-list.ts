import { Option } from 'commander';
import { endpoints } from '../../api/endpoints.js';
import { listCommand } from '../endpoint-command.js';
import type { OutputOptions } from '../options.js';

interface CountryOptions extends OutputOptions {
  show?: 'active' | 'all';
}

/** `countries list`: countries, with journals or all of them. */
export const countriesList = listCommand<CountryOptions>(endpoints.countries.list, {
  description: 'countries',
  unit: 'countries',
  options: (command) =>
    command.addOption(
      new Option(
        '--show <which>',
        "active: countries with journals; all: every country (default: the server's)",
      ).choices(['active', 'all']),
    ),
  fetch: (context, _, options, request) => context.client.countries.list({ show: options.show }, request),
  examples: ['scholarly-metrics countries list --show all'],
});

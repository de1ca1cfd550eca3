/**
 * Commands made from the endpoints of the API table: a command is named by its endpoint's verb and
 * listed under its namespace (`journals.get` is `journals get`), takes an argument for each path
 * parameter, says in its help the request it sends (`GET` and the endpoint's path), and offers `--fields`
 * from the fields the published document gives the endpoint's records. An endpoint that pages gets
 * the paging options (`--per-page` only where it takes `per_page`). What is left to each command is
 * what the table cannot know: its words, its examples, the client method it calls.
 */
import type { Command, OptionValues } from 'commander';
import type { RequestOptions } from '../index.js';
import { act, examples } from './action.js';
import { pathArgumentParsers } from './arguments.js';
import { offerFields } from './completion.js';
import type { Context } from './context.js';
import { type OutputOptions, outputOptions, type PagingOptions, pagingOptions } from './options.js';
import type { Row } from './output/cells.js';
import { type FieldTree, fieldPaths } from './output/fields.js';
import { fieldsOf, topFields } from './record-fields.js';
import { type RecordViews, runList, runRecord } from './run.js';
import { runRecords } from './run-many.js';
import { type Lister, runWalk, type SaidAs } from './walk.js';

/** What a command reads of an endpoint of the API table. */
export interface CommandEndpoint {
  /** `journals.get`: the group the command is listed under, and its name. */
  readonly name: string;
  /** The path template: the request its help names, and where the document lists its records. */
  readonly path: string;
  /** An argument for each. */
  readonly pathParams: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly paged: boolean;
}

/** A command of the program: the group it is listed under, and how it adds itself there. */
export interface CliCommand {
  /** The group: the endpoint's namespace (`journals`). */
  readonly group: string;
  /** Adds the command under `parent`, the group's command. */
  readonly add: (parent: Command) => void;
}

/** The words of an endpoint's command. */
export interface EndpointCommandSpec {
  /** One line: in the group's list of commands and at the top of the command's help. */
  readonly description: string;
  /** What each path parameter is (`{ id: 'the journal id' }`), in the argument's help. */
  readonly args?: Readonly<Record<string, string>>;
  /** The last path parameter takes one value or more (`<id...>`), each checked as one would be. */
  readonly variadic?: boolean;
  readonly examples: readonly string[];
}

/** The group and the name of the command of `endpoint`. */
export function commandName(endpoint: CommandEndpoint): { group: string; name: string } {
  const [group = endpoint.name, name = endpoint.name] = endpoint.name.split('.');
  return { group, name };
}

/** The command as it was run: its group, its name and its arguments. */
function invocation(endpoint: CommandEndpoint, args: readonly string[]): string[] {
  const { group, name } = commandName(endpoint);
  return [group, name, ...args];
}

/** The line of a command's help that names the request it sends. */
export function requestLine(endpoint: CommandEndpoint, suffix = ''): string {
  return `\nEndpoint: GET ${endpoint.path}${suffix}`;
}

/**
 * The command of `endpoint` under `parent`: its name, description and path arguments, and in its
 * help the request it sends. Its options, action and examples are the caller's to add.
 */
export function endpointCommand(
  parent: Command,
  endpoint: CommandEndpoint,
  spec: EndpointCommandSpec,
): Command {
  const command = parent.command(commandName(endpoint).name).description(spec.description);
  const names = Object.keys(endpoint.pathParams);
  for (const [index, name] of names.entries()) {
    const parse = pathArgumentParsers[name];
    const description = spec.args?.[name] ?? name;
    if (spec.variadic && index === names.length - 1) {
      // Commander hands a variadic argument's parser each value with those parsed before it.
      const each = (raw: string, previous: string[] | undefined) => [
        ...(previous ?? []),
        parse?.(raw) ?? raw,
      ];
      command.argument(`<${name}...>`, description, each);
    } else if (parse === undefined) command.argument(`<${name}>`, description);
    else command.argument(`<${name}>`, description, parse);
  }
  return command.addHelpText('after', requestLine(endpoint));
}

/** What a command of any kind adds to the words of {@link EndpointCommandSpec}. */
interface CommandSpec extends EndpointCommandSpec {
  /** Its records' fields: by default, those the document publishes for the endpoint (if any). */
  readonly fields?: FieldTree;
  /** Options of its own, listed before the output options. */
  readonly options?: (command: Command) => void;
}

/** A command whose endpoint answers with one record. */
export interface RecordCommandSpec<O extends OptionValues> extends CommandSpec {
  /** The request: `request` carries the run's signal, so Ctrl-C aborts it. */
  readonly fetch: (
    context: Context,
    args: readonly string[],
    options: O,
    request: RequestOptions,
  ) => Promise<Row>;
  /** How it shows its record beyond the default views, for these arguments. */
  readonly views?: (args: readonly string[]) => RecordViews;
  /**
   * With `variadic`, the field holding each record's id when several are given (`id`,
   * `journal_id`): the records are then written as one list, each fetched as for one id.
   */
  readonly key?: string;
}

/** A command whose endpoint answers with one whole list. */
export interface ListCommandSpec<O extends OptionValues> extends CommandSpec {
  /** What its records are (plural), for the last word. */
  readonly unit: string;
  /** The request: `request` carries the run's signal, so Ctrl-C aborts it. */
  readonly fetch: (
    context: Context,
    args: readonly string[],
    options: O,
    request: RequestOptions,
  ) => Promise<readonly Row[]>;
}

/** A command whose endpoint pages: one page, `--limit` records or `--all`. */
export interface WalkCommandSpec<O extends PagingOptions> extends CommandSpec {
  readonly unit: string;
  /** The request of each page, for these arguments and options. */
  readonly lister: (args: readonly string[], options: O) => Lister;
  /** The arguments and options in the one form a checkpoint records, when several spellings say the same. */
  readonly saidAs?: (args: readonly string[], options: O) => SaidAs;
}

/** The command of an endpoint that answers with one record. */
export function recordCommand<O extends OutputOptions = OutputOptions>(
  endpoint: CommandEndpoint,
  spec: RecordCommandSpec<O>,
): CliCommand {
  return made(endpoint, spec, (command, fields) =>
    outputOptions(command, fields).action(
      act<O>((context, options, args) => {
        if (!spec.variadic || args.length === 1)
          return runRecord(
            context,
            options,
            () => spec.fetch(context, args, options, { signal: context.signal }),
            spec.views?.(args),
            invocation(endpoint, args),
          );
        const { views } = spec;
        return runRecords(context, options, args, {
          key: spec.key ?? 'id',
          fetch: (id) => spec.fetch(context, [id], options, { signal: context.signal }),
          views: views && ((id) => views([id])),
          command: invocation(endpoint, args),
          columns: fields && topFields(fields),
        });
      }),
    ),
  );
}

/** The command of an endpoint that answers with one whole list. */
export function listCommand<O extends OutputOptions = OutputOptions>(
  endpoint: CommandEndpoint,
  spec: ListCommandSpec<O>,
): CliCommand {
  return made(endpoint, spec, (command, fields) =>
    outputOptions(command, fields).action(
      act<O>((context, options, args) =>
        runList(
          context,
          options,
          spec.unit,
          () => spec.fetch(context, args, options, { signal: context.signal }),
          {
            columns: fields && topFields(fields),
            command: invocation(endpoint, args),
          },
        ),
      ),
    ),
  );
}

/** The command of an endpoint that pages. */
export function walkCommand<O extends PagingOptions = PagingOptions>(
  endpoint: CommandEndpoint,
  spec: WalkCommandSpec<O>,
): CliCommand {
  const perPage = Object.hasOwn(endpoint.query, 'per_page');
  return made(endpoint, spec, (command, fields) =>
    pagingOptions(command, { perPage, fields }).action(
      act<O>((context, options, args, self) => {
        const columns = fields && topFields(fields);
        const said = spec.saidAs?.(args, options);
        return runWalk(context, self, options, spec.unit, spec.lister(args, options), columns, said);
      }),
    ),
  );
}

/** The command of `endpoint`, its options and action added by `finish`, then its examples. */
function made(
  endpoint: CommandEndpoint,
  spec: CommandSpec,
  finish: (command: Command, fields: FieldTree | undefined) => Command,
): CliCommand {
  return {
    group: commandName(endpoint).group,
    add(parent) {
      const command = endpointCommand(parent, endpoint, spec);
      spec.options?.(command);
      const fields = spec.fields ?? fieldsOf(endpoint);
      finish(command, fields);
      if (fields !== undefined) offerFields(command, fieldPaths(fields));
      examples(command, ...spec.examples);
    },
  };
}

import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import { endpoints } from '../../api/endpoints.js';
import { act, examples } from '../action.js';
import { offerFields } from '../completion.js';
import type { Context } from '../context.js';
import { countOf, grouped, unitFor } from '../counts.js';
import type { DoiEntry, DoiList } from '../doi-input.js';
import { type CliCommand, commandName, requestLine } from '../endpoint-command.js';
import { concernsOne, failureLine, PartialFailureError, UsageError, whereTold } from '../errors.js';
import { type Harvest, openHarvest } from '../harvest.js';
import { sayLastWord } from '../last-word.js';
import { harvestOptions, integer, type OutputOptions, outputOptions } from '../options.js';
import type { Row } from '../output/cells.js';
import { terminalSafe } from '../output/escape.js';
import { fieldPaths } from '../output/fields.js';
import { chooseFormat } from '../output/formats.js';
import { recordKindOf } from '../output/record-kinds.js';
import { fieldsOf, topFields } from '../record-fields.js';
import { maxGetManyConcurrency } from '../sdk-bounds.js';
import { identityOf } from '../walk.js';
import {
  appendFailed,
  checkFailedPath,
  checkInputApart,
  type FailedFile,
  failedLine,
  openFailed,
  refuseDatabaseAsFailed,
} from './failed-file.js';

interface GetManyOptions extends OutputOptions {
  input?: string;
  keepInput?: boolean;
  inputColumn?: string;
  failed?: string;
  concurrency: number;
  resume?: boolean;
  overwrite?: boolean;
}

/** DOIs looked up per batch, times the concurrency: a checkpoint at a batch's end, and no lookup idles long. */
const batchFactor = 4;

/** Thrown when some DOIs were not found or failed: the others are written, the exit code is 3. */
export class LookupsFailedError extends PartialFailureError {
  override readonly name = 'LookupsFailedError';
}

/** The endpoint of each lookup, and the fields of the papers it answers with. */
const lookup = endpoints.papers.get;
const paperFields = fieldsOf(lookup);
/** What `--fields` may name: a paper's fields, and `input` (written with `--keep-input`). */
const shownFields = paperFields && { input: null, ...paperFields };
/** The columns of a Parquet file of papers when no `--fields` names them. */
const paperColumns = Object.keys(recordKindOf(['papers', 'get-many'])?.columns ?? {});

/**
 * `papers get-many`: many papers by DOI, from the arguments or a file of one DOI a line (`-` for
 * stdin). Papers are written in the order of their DOIs; a DOI not found, or that failed after its
 * retries, is reported on stderr and the command exits 3 once the others are written.
 */
export const papersGetMany: CliCommand = { group: commandName(lookup).group, add: addGetMany };

function addGetMany(parent: Command): void {
  const command = parent
    .command('get-many')
    .description('many papers by DOI')
    .argument('[dois...]', 'DOIs; or give --input')
    .option(
      '--input <file>',
      'DOIs from a file (- for standard input): one a line (a first line doi is a header), or the doi column of a csv, tsv or jsonl file',
    )
    .option(
      '--input-column <name>',
      'with --input: the column (csv, tsv with a header) or field (jsonl) holding the DOIs',
    )
    .option('--keep-input', 'write beside each paper, in a column input, its DOI as the input gave it')
    .option(
      '--failed <file>',
      'write each DOI that failed, with its error class and message, to this tsv file',
    )
    .option(
      '--concurrency <n>',
      `lookups in flight at once (1 to ${maxGetManyConcurrency})`,
      integer(1, maxGetManyConcurrency),
      4,
    );
  if (shownFields !== undefined) offerFields(command, fieldPaths(shownFields));
  harvestOptions(outputOptions(command, shownFields)).action(
    act<GetManyOptions>((context, options, args, self) => getMany(context, options, args, self)),
  );
  command.addHelpText('after', requestLine(lookup, ' for each DOI'));
  examples(
    command,
    "scholarly-metrics papers get-many 10.1000/abc/def https://doi.org/10.5555/üñí-ç 'doi:10.1000/a?b#c%d&e=f'",
    'scholarly-metrics papers get-many --input dois.txt --format csv',
    'scholarly-metrics papers get-many --input reefs.tsv --input-column doi --failed failed.tsv -o papers.jsonl',
    'scholarly-metrics papers search coral --limit 50 --format csv | scholarly-metrics papers get-many --input - -o papers.jsonl --resume',
  );
}

async function getMany(
  context: Context,
  options: GetManyOptions,
  args: string[],
  command: Command,
): Promise<void> {
  checkFailedPath(options.failed, options.output);
  checkInputApart(options.input, options.output, options.failed);
  await refuseDatabaseAsFailed(options.failed);
  const shown = withInputColumn(options);
  const list = await doiList(context, options, args);
  const dois = list.entries.map((entry) => entry.doi);
  // The list itself is part of the identity: stdin or a rewritten file cannot resume another list.
  const digest = createHash('sha256').update(dois.join('\n')).digest('hex').slice(0, 16);
  // Where the DOIs came from and where failures go do not change what is written: the digest does.
  const fromElsewhere = /^--(input|inputColumn|failed)=/;
  const identity = [
    ...identityOf(command, context.client.baseUrl).filter((part) => !fromElsewhere.test(part)),
    `dois=${digest}`,
  ];
  const harvest = await openHarvest(
    context,
    identity,
    shown,
    'DOIs',
    { positions: { min: 0, max: dois.length }, counts: 'positions' },
    paperFields && [...(options.keepInput ? ['input'] : []), ...topFields(paperFields)],
  );
  const quiet = context.options.quiet;
  // A finished run's failures were listed by that run: this one exits as that one did.
  if ('finished' in harvest) {
    const earlier = harvest.finished.failures ?? 0;
    if (earlier > 0)
      throw lookupsFailed(earlier, dois.length, whereTold(quiet, 'listed by the run that finished the file'));
    return;
  }
  const failures = await lookUp(context, options, list.entries, harvest);
  sayLastWord(context, {
    count: harvest.count,
    total: dois.length,
    unit: 'papers',
    output: options.output,
    notes: skippedNotes(list),
  });
  const total = failures.earlier + failures.listed;
  if (total > 0) throw lookupsFailed(total, dois.length, whereTold(quiet, whereListed(failures)));
}

/** `3 of 12 DOIs failed (listed above)`. */
function lookupsFailed(failed: number, of: number, where: string): LookupsFailedError {
  return new LookupsFailedError(`${countOf(failed, of, 'DOIs')} failed${where}`);
}

/** `listed above`, `2 listed above, 1 by the stopped run`: where a resumed run's failures were told. */
function whereListed({ earlier, listed }: { earlier: number; listed: number }): string {
  if (earlier === 0) return 'listed above';
  return listed === 0 ? 'listed by the stopped run' : `${listed} listed above, ${earlier} by the stopped run`;
}

/** The DOIs of the arguments or of `--input`, each once. */
async function doiList(context: Context, options: GetManyOptions, args: string[]): Promise<DoiList> {
  if (args.length > 0 && options.input !== undefined)
    throw new UsageError('give DOIs as arguments or --input, not both');
  if (options.resume && options.output === undefined) throw new UsageError('--resume needs --output <file>');
  if (options.inputColumn !== undefined && options.input === undefined)
    throw new UsageError('--input-column needs --input <file>');
  // Loaded here, not with the bin: its csv parser is start-up that every other command would pay.
  const { doiListOf, readDois, readInput } = await import('../doi-input.js');
  const list =
    options.input === undefined
      ? doiListOf(args, 'argument')
      : readDois(
          await readInput(options.input, { stdin: context.io.stdin, signal: context.signal }),
          options.input,
          options.inputColumn,
        );
  if (list.entries.length === 0 && options.input !== undefined)
    throw new UsageError(terminalSafe(`--input ${options.input} holds no DOIs`));
  if (list.entries.length === 0)
    throw new UsageError('no DOIs: give them as arguments, or --input <file> (- for stdin)');
  return list;
}

/**
 * With `--keep-input`, the `input` column is one of the fields asked for, the first. Parquet's columns
 * are the paper's unless `--fields` names them, so they are named here. SQLite refuses it: its
 * `papers` table, shared by every run and command that writes papers, holds one row per paper.
 */
function withInputColumn(options: GetManyOptions): GetManyOptions {
  if (!options.keepInput && options.fields?.includes('input'))
    throw new UsageError('--fields input needs --keep-input');
  if (!options.keepInput) return options;
  const format = chooseFormat(options.format, false, true, options.output);
  if (format === 'sqlite')
    throw new UsageError(
      '--keep-input does not go with --format sqlite: its papers table holds one row per paper, upserted by id, not one per input cell; write parquet, csv, tsv or jsonl',
    );
  const fields = options.fields ?? (format === 'parquet' ? paperColumns : undefined);
  if (fields === undefined) return options;
  return { ...options, fields: ['input', ...fields.filter((field) => field !== 'input')] };
}

/** `skipped 3 blank lines, 2 repeated DOIs`: what the list held that was not looked up. */
function skippedNotes({ blank, repeated, noun }: DoiList): string[] {
  const parts: string[] = [];
  const plural = { line: 'lines', entry: 'entries', argument: 'arguments' } as const;
  if (blank > 0) parts.push(`${grouped(blank)} blank ${blank === 1 ? noun : plural[noun]}`);
  if (repeated > 0) parts.push(`${grouped(repeated)} repeated ${unitFor(repeated, 'DOIs')}`);
  return parts.length === 0 ? [] : [`skipped ${parts.join(', ')}`];
}

/**
 * Looks up `entries` batch by batch, writing each batch's papers (and, with `--failed`, its failures)
 * before the next: the DOIs that failed before a resume, and those listed on stderr at the end
 * (unless `--quiet`).
 */
async function lookUp(
  context: Context,
  options: GetManyOptions,
  entries: readonly DoiEntry[],
  harvest: Harvest,
): Promise<{ earlier: number; listed: number }> {
  const saved = harvest.resumed;
  // A checkpoint that kept no count still tells it: each DOI done wrote a paper or failed.
  const earlier = saved?.failures ?? Math.max(0, (harvest.position ?? 0) - harvest.count);
  const failures: string[] = [];
  let failed: FailedFile | undefined;
  // Taken when the harvest notes a checkpoint, after a batch's papers and failures are written.
  harvest.keep(() => ({
    failures: earlier + failures.length,
    failed: failed === undefined ? saved?.failed : { path: failed.path, bytes: failed.bytes },
  }));
  let done = harvest.position ?? 0;
  try {
    // Opened within the try: a --failed it cannot write ends the run, the harvest closed below.
    if (options.failed !== undefined) failed = await openFailed(options.failed, saved);
    const size = options.concurrency * batchFactor;
    while (done < entries.length) {
      const batch = entries.slice(done, done + size);
      const results = await context.client.papers.getMany(
        batch.map((entry) => entry.doi),
        { concurrency: options.concurrency, signal: context.signal },
      );
      // The network (or anything else no DOI's own) would fail every DOI after it too: the run ends,
      // its checkpoint at the last whole batch, for --resume to ask again, and none is called failed.
      const ending = results.find((result) => result.error !== undefined && !concernsOne(result.error));
      if (ending !== undefined) throw ending.error;
      const papers: Row[] = [];
      let failedLines = '';
      for (const [index, result] of results.entries()) {
        if (result.error === undefined)
          papers.push(options.keepInput ? { input: batch[index]?.input, ...result.paper } : result.paper);
        else {
          failures.push(failureLine(result.doi, result.error));
          failedLines += failedLine(result.doi, result.error, options.rawCells === true);
        }
      }
      if (failed !== undefined) await appendFailed(failed, failedLines);
      done += batch.length;
      await harvest.write(papers, done, { done, total: entries.length, requests: context.requests() });
    }
    await harvest.finish();
  } finally {
    await harvest.close();
    await failed?.handle.close();
    if (!context.options.quiet) for (const failure of failures) context.io.stderr.write(`${failure}\n`);
  }
  return { earlier, listed: failures.length };
}

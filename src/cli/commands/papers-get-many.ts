import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { MetricError } from '../../core/errors.js';
import { act, examples } from '../action.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { openHarvest } from '../harvest.js';
import { sayLastWord } from '../last-word.js';
import { harvestOptions, integer, type OutputOptions, outputOptions } from '../options.js';
import type { Row } from '../output/cells.js';
import { identityOf } from '../walk.js';

interface GetManyOptions extends OutputOptions {
  input?: string;
  concurrency: number;
  resume?: boolean;
  overwrite?: boolean;
}

/** DOIs looked up per batch, times the concurrency: a checkpoint per batch, and no lookup idles long. */
const batchFactor = 4;

/** Thrown when some DOIs were not found or failed: the others are written, the exit code is 1. */
export class LookupsFailedError extends Error {
  override readonly name = 'LookupsFailedError';
}

/**
 * `papers get-many`: many papers by DOI, from the arguments or a file of one DOI a line (`-` for
 * stdin). Papers are written in the order of their DOIs; a DOI not found, or that failed after its
 * retries, is reported on stderr and the command exits 1 once the others are written.
 */
export function papersGetMany(parent: Command): void {
  const command = parent
    .command('get-many')
    .description('many papers by DOI')
    .argument('[dois...]', 'DOIs; or give --input')
    .option('--input <file>', 'a file of DOIs, one a line; - for standard input')
    .option('--concurrency <n>', 'lookups in flight at once (1 to 16)', integer(1, 16), 4);
  harvestOptions(outputOptions(command)).action(
    act<GetManyOptions>((context, options, args, self) => getMany(context, options, args, self)),
  );
  examples(
    command,
    'scholarly-metrics papers get-many 10.1000/a 10.1000/b',
    'scholarly-metrics papers get-many --input dois.txt --format csv',
    'cut -d, -f1 list.csv | scholarly-metrics papers get-many --input - --output papers.jsonl --resume',
  );
}

async function getMany(
  context: Context,
  options: GetManyOptions,
  args: string[],
  command: Command,
): Promise<void> {
  if (args.length > 0 && options.input !== undefined)
    throw new UsageError('give DOIs as arguments or --input, not both');
  if (options.resume && options.output === undefined) throw new UsageError('--resume needs --output <file>');
  const dois = options.input === undefined ? args : await readDois(options.input, context.io.stdin);
  if (dois.length === 0)
    throw new UsageError('no DOIs: give them as arguments, or --input <file> (- for stdin)');
  // The list itself is part of the identity: stdin or a rewritten file cannot resume another list.
  const digest = createHash('sha256').update(dois.join('\n')).digest('hex').slice(0, 16);
  const identity = [...identityOf(command).filter((part) => !part.startsWith('--input=')), `dois=${digest}`];
  const harvest = await openHarvest(context, identity, options, 'DOIs', {
    positions: { min: 0, max: dois.length },
    counts: 'positions',
  });
  if (harvest === undefined) return;
  const failures: string[] = [];
  let done = harvest.position ?? 0;
  try {
    const size = options.concurrency * batchFactor;
    while (done < dois.length) {
      const batch = dois.slice(done, done + size);
      const results = await context.client.papers.getMany(batch, {
        concurrency: options.concurrency,
        signal: context.signal,
      });
      const papers: Row[] = [];
      for (const result of results) {
        if (result.error === undefined) papers.push(result.paper);
        else failures.push(describeFailure(result.doi, result.error));
      }
      done += batch.length;
      await harvest.write(papers, done, { done, total: dois.length, requests: context.requests() });
    }
    await harvest.finish();
  } finally {
    await harvest.close();
    for (const failure of failures) context.io.stderr.write(`${failure}\n`);
  }
  sayLastWord(context, { count: harvest.count, total: dois.length, unit: 'papers', output: options.output });
  if (failures.length > 0)
    throw new LookupsFailedError(`${failures.length} of ${dois.length} DOIs failed (listed above)`);
}

function describeFailure(doi: string, error: MetricError): string {
  return `${doi}: ${error.name}: ${error.message}`;
}

async function readDois(input: string, stdin: NodeJS.ReadableStream): Promise<string[]> {
  let text: string;
  if (input === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    text = Buffer.concat(chunks).toString('utf8');
  } else {
    try {
      text = await readFile(input, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read --input ${input}: ${(error as Error).message}`);
    }
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

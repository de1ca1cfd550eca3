// `npm run api-report`: the public surface of each entry, as @microsoft/api-extractor reads it from
// the built declarations, written to api-report/<entry>.api.md. With `--check` (npm test) a report
// that differs from the committed one fails the run, so every public change is a reviewed diff:
// run `npm run build && npm run api-report` and commit the reports.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = fileURLToPath(new URL('..', import.meta.url));
const entries = ['index', 'webhooks', 'redis', 'testing', 'query'];
const check = process.argv.includes('--check');
const reportFolder = join(root, 'api-report');
const scratch = mkdtempSync(join(tmpdir(), 'api-report-'));

function configFor(entry) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: join(root, 'dist', `${entry}.d.ts`),
      compiler: { tsconfigFilePath: join(root, 'tsconfig.json') },
      apiReport: {
        enabled: true,
        reportFileName: `${entry}.api.md`,
        reportFolder: join(scratch, 'reports'),
        reportTempFolder: join(scratch, 'temp'),
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // The report is the point; TSDoc style and release tags are not checked here. A type named in
        // a public signature but exported by no entry is written into the report, so that making one
        // internal, or a new one appearing, is a reviewed diff too.
        extractorMessageReporting: {
          default: { logLevel: 'none' },
          'ae-missing-release-tag': { logLevel: 'none' },
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
        compilerMessageReporting: { default: { logLevel: 'warning' } },
      },
    },
    configObjectFullPath: join(root, 'api-extractor.json'),
    packageJsonFullPath: join(root, 'package.json'),
  });
}

/**
 * The report without where in the built declarations a warning points: their file names carry a
 * build hash and their lines move with any doc comment, while the warning itself is the surface.
 */
const withoutLocations = (report) => report.replace(/^\/\/ \S+\.d\.ts:\d+:\d+ - /gm, '// ');

mkdirSync(reportFolder, { recursive: true });
mkdirSync(join(scratch, 'reports'));
const changed = [];
try {
  const configs = entries.map(configFor);
  // One TypeScript program for every entry: the entries' declarations share most of their files.
  const compilerState = CompilerState.create(configs[0], {
    additionalEntryPoints: configs.slice(1).map((config) => config.mainEntryPointFilePath),
  });
  for (const [i, entry] of entries.entries()) {
    const options = { localBuild: true, showVerboseMessages: false, compilerState };
    const result = Extractor.invoke(configs[i], options);
    if (result.errorCount > 0) throw new Error(`api-extractor: ${result.errorCount} errors in ${entry}`);
    const report = withoutLocations(readFileSync(join(scratch, 'reports', `${entry}.api.md`), 'utf8'));
    const committed = join(reportFolder, `${entry}.api.md`);
    if (existsSync(committed) && readFileSync(committed, 'utf8') === report) continue;
    changed.push(entry);
    if (!check) writeFileSync(committed, report);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (check && changed.length > 0) {
  console.error(
    `The public API changed (${changed.join(', ')}): run \`npm run build && npm run api-report\`, review api-report/ and commit it.`,
  );
  process.exit(1);
}
console.log(changed.length > 0 ? `api-report/ updated: ${changed.join(', ')}` : 'api-report/: no change');

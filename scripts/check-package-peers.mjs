// Part of `npm run test:package` (scripts/check-package.mjs calls it): the optional peers the bin's
// telemetry declares must not keep an app from installing the package. npm refuses a tree where an
// optional peer is present at a version outside its range, and an app that traces with
// OpenTelemetry's Node SDK (docs/observability.md) holds its 3.x packages; and the line the docs and
// the bin give for the bin's own export must install. Resolved by
// `npm install --dry-run` in an empty project: the registry's metadata, no package downloaded.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Node SDK of OpenTelemetry's 3.x packages (resources, sdk-metrics, context-async-hooks 3.1). */
const nodeSdk = '@opentelemetry/sdk-node@0.301.0';

/**
 * The bin's own install line for its OTLP export, as docs/observability.md writes it (and the bin's
 * message when the packages are missing; test/docs/claims.test.ts holds the two together).
 */
export function documentedExportInstall(root) {
  const text = readFileSync(join(root, 'docs/observability.md'), 'utf8');
  const start = text.indexOf('npm install', text.indexOf('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'));
  const line = text.slice(start, text.indexOf('\nOTEL_', start)).replaceAll('\\\n', ' ');
  return line.split(/\s+/).filter((word) => word.startsWith('@opentelemetry/'));
}

/** `npm install --dry-run` of `specs` in an empty project: npm's first errors, or none when it resolves. */
function dryRunErrors(npm, specs) {
  const project = mkdtempSync(join(tmpdir(), 'scholarly-metrics-otel-'));
  try {
    writeFileSync(join(project, 'package.json'), '{ "name": "otel-app", "private": true }\n');
    const resolved = npm(['install', '--dry-run', '--no-audit', '--no-fund', '--no-package-lock', ...specs], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (resolved.status === 0) return undefined;
    return resolved.stderr
      .split('\n')
      .filter((line) => line.startsWith('npm error'))
      .slice(0, 12);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/**
 * Resolves the tarball beside `nodeSdk`, and beside the bin's documented install line for its export;
 * reports with `pass` or `fail`.
 */
export function checkBesideOpenTelemetry({ tarball, npm, pass, fail, root }) {
  const besideSdk = dryRunErrors(npm, [nodeSdk, tarball]);
  if (besideSdk) fail(`npm cannot install the package beside ${nodeSdk}:\n${besideSdk.join('\n')}`);
  else pass(`installs beside ${nodeSdk} (OpenTelemetry's 3.x packages)`);
  const exportLine = documentedExportInstall(root);
  const withExport = dryRunErrors(npm, [...exportLine, tarball]);
  if (withExport) fail(`the bin's documented export install does not resolve:\n${withExport.join('\n')}`);
  else pass(`installs with the bin's documented export packages (${exportLine.length} of them)`);
}

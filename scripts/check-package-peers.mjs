// Part of `npm run test:package` (scripts/check-package.mjs calls it): the optional peers the bin's
// telemetry declares must not keep an app from installing the package. npm refuses a tree where an
// optional peer is present at a version outside its range, and an app that traces with
// OpenTelemetry's Node SDK (docs/observability.md) holds its 3.x packages. Resolved by
// `npm install --dry-run` in an empty project: the registry's metadata, no package downloaded.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Node SDK of OpenTelemetry's 3.x packages (resources, sdk-metrics, context-async-hooks 3.1). */
const nodeSdk = '@opentelemetry/sdk-node@0.301.0';

/** Resolves the tarball beside `nodeSdk` with `npm` (check-package.mjs's runner); reports with `pass` or `fail`. */
export function checkBesideOpenTelemetry({ tarball, npm, pass, fail }) {
  const project = mkdtempSync(join(tmpdir(), 'scholarly-metrics-otel-'));
  try {
    writeFileSync(join(project, 'package.json'), '{ "name": "otel-app", "private": true }\n');
    const resolved = npm(
      ['install', '--dry-run', '--no-audit', '--no-fund', '--no-package-lock', nodeSdk, tarball],
      { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const errors = resolved.stderr
      .split('\n')
      .filter((line) => line.startsWith('npm error'))
      .slice(0, 12);
    if (resolved.status !== 0)
      fail(`npm cannot install the package beside ${nodeSdk}:\n${errors.join('\n')}`);
    else pass(`installs beside ${nodeSdk} (OpenTelemetry's 3.x packages)`);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

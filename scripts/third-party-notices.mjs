// The notices of the third-party code bundled into dist/ (the CommonJS build bundles ky and p-retry,
// the bin its own packages): their licenses (MIT, ISC…) ask that each copyright and permission notice
// ship with every copy. Run after the build (`npm run build`); scripts/check-package.mjs checks that
// every bundled package has its notice.
//
//   node scripts/third-party-notices.mjs   writes dist/THIRD-PARTY-NOTICES.md
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const noticesFile = 'dist/THIRD-PARTY-NOTICES.md';

/**
 * The packages bundled into the built files, as `sources` of `maps` (file name → source map text)
 * name them: `node_modules/ky`, `node_modules/hyparquet-writer/node_modules/hyparquet`.
 */
export function bundledPackages(maps) {
  const found = new Set();
  for (const text of maps.values()) {
    for (const source of JSON.parse(text).sources ?? []) {
      const at = source.lastIndexOf('node_modules/');
      if (at < 0) continue;
      const [scope, name] = source.slice(at + 'node_modules/'.length).split('/');
      const folder = `${source.slice(0, at).replace(/^(\.\.\/)+/, '')}node_modules/`;
      found.add(`${folder}${scope.startsWith('@') ? `${scope}/${name}` : scope}`);
    }
  }
  return [...found].sort();
}

/** The source maps of dist/ (and the bin's chunks), by name. */
function distMaps() {
  const maps = new Map();
  for (const folder of ['dist', 'dist/cli-chunks']) {
    for (const file of readdirSync(join(root, folder)).filter((name) => name.endsWith('.map')))
      maps.set(`${folder}/${file}`, readFileSync(join(root, folder, file), 'utf8'));
  }
  return maps;
}

/** A package's name, version, license and license text (its LICENSE file, whatever its case). */
function noticeOf(folder) {
  const pkg = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
  const file = readdirSync(join(root, folder)).find((name) =>
    /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name),
  );
  if (file === undefined) throw new Error(`${folder} has no license file to ship`);
  const text = readFileSync(join(root, folder, file), 'utf8').trim();
  return `## ${pkg.name} ${pkg.version} (${pkg.license})\n\n\`\`\`\n${text}\n\`\`\``;
}

export function writeNotices() {
  const packages = bundledPackages(distMaps());
  const intro =
    "# Third-party notices\n\nCode of these packages is bundled into this package's files (the CommonJS " +
    'build and the `scholarly-metrics` bin). Their licenses follow.';
  writeFileSync(join(root, noticesFile), `${[intro, ...packages.map(noticeOf)].join('\n\n')}\n`);
  return packages;
}

// Run, not imported (by scripts/check-package.mjs): compared as URLs, so that a path with a space or
// through a link is the script's own.
if (import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href && existsSync(join(root, 'dist'))) {
  const packages = writeNotices();
  process.stdout.write(`${noticesFile}: ${packages.length} packages\n`);
}

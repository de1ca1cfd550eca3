// The packages only the `scholarly-metrics` bin uses: devDependencies bundled into dist/cli.js and its
// chunks (tsup.config.ts), so that an app installing the SDK installs none of them; and what
// scripts/check-package.mjs checks, that no library file imports or bundles one.
export const cliPackageNames = [
  'commander',
  'csv-parse',
  'string-width',
  'asciichart',
  'hyparquet-writer',
  'hyparquet',
];

/** A bare import of one of them, or of a module path below one (`csv-parse/sync`). */
export const cliPackagePattern = new RegExp(`^(${cliPackageNames.join('|')})(/|$)`);

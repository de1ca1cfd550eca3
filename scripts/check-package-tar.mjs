// Part of `npm run test:package` (scripts/check-package.mjs): reading the packed tarball, its files,
// its exports map and the imports of its built files.
import { posix } from 'node:path';

export function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Every file target of an `exports` map, with its subpath. */
export function exportTargets(exports, subpath = '.') {
  if (typeof exports === 'string') return [[subpath, exports]];
  return Object.entries(exports).flatMap(([key, value]) =>
    exportTargets(value, key.startsWith('.') ? key : subpath),
  );
}

/** Files of a POSIX tar archive (npm's), without the leading `package/`. */
export function untar(buffer) {
  const out = new Map();
  let offset = 0;
  while (offset + 512 <= buffer.length) {
    const header = buffer.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start, length) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const name = field(0, 100);
    const prefix = field(345, 155);
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const path = (prefix ? `${prefix}/${name}` : name).replace(/^package\//, '');
    if (type === '0' || type === '')
      out.set(path, buffer.subarray(offset + 512, offset + 512 + size).toString('utf8'));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/**
 * The packages a file of the bin imports, by its import statements and `import()` calls alone: the
 * packages bundled into it bring text (commander's help, for one) that the loose pattern of
 * `importGraph` would take for imports.
 */
export function bareImportsOf(code) {
  const statements = /^(?:import|export)\b[^'"]*?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
  return [...code.matchAll(statements)]
    .map((m) => m[1] ?? m[2])
    .filter((specifier) => !specifier.startsWith('.'));
}

/** Static and dynamic imports and requires reachable from `entry`, among the tarball's files. */
export function importGraph(files, entry) {
  const modules = new Set();
  const bare = new Set();
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"]+)\1/g;
  const visit = (path) => {
    if (modules.has(path)) return;
    const source = files.get(path);
    if (source === undefined) throw new Error(`${path} (imported) is not in the tarball`);
    modules.add(path);
    // Bundled dependencies bring their doc comments, whose examples show imports that are not code.
    // Only comments that open a line are dropped: a string such as '*/*' cannot start one.
    const code = source.replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
    for (const match of code.matchAll(pattern)) {
      const specifier = match[2];
      if (specifier.startsWith('.')) visit(posix.join(posix.dirname(path), specifier));
      else bare.add(specifier);
    }
  };
  visit(entry);
  return { modules, bare };
}

// Run by `npm run docs` after TypeDoc: which public symbols lack a TSDoc `@example`, read from
// TypeDoc's JSON output (docs/api.json). Public: every export of the three entry points, and the
// public methods and accessors of exported classes (the Promise and iterator protocol members of
// PagePromise excepted: `then`, `catch`, `finally`, `Symbol.*`). Re-exports count once, where declared.
// A class of a family (an error per status) may share its family's example: a class without one of its
// own is covered when a class it extends has an example that uses it by name.
//
// Prints the coverage and the missing ones. Exits 1 on a gap only with --strict (npm run docs:check).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const strict = process.argv.includes('--strict');
const project = JSON.parse(readFileSync(fileURLToPath(new URL('../docs/api.json', import.meta.url)), 'utf8'));

const Kind = { Class: 128, Method: 2048, Accessor: 262144, Reference: 4194304, Constructor: 512 };
const protocol = new Set(['then', 'catch', 'finally']);

function examples(reflection) {
  const comments = [
    reflection.comment,
    ...(reflection.signatures ?? []).map((s) => s.comment),
    reflection.getSignature?.comment,
  ];
  return comments.flatMap((c) => c?.blockTags?.filter((tag) => tag.tag === '@example') ?? []);
}

const byId = new Map();
const index = (reflection) => {
  byId.set(reflection.id, reflection);
  for (const child of reflection.children ?? []) index(child);
};
index(project);

/** Whether a class this one extends, however far up, has an example that names it. */
function familyExample(reflection) {
  const uses = new RegExp(`\\b${reflection.name}\\b`);
  const seen = new Set();
  let parents = reflection.extendedTypes ?? [];
  while (parents.length > 0) {
    const parent = byId.get(parents[0].target);
    if (parent === undefined || seen.has(parent.id)) return false;
    seen.add(parent.id);
    const text = examples(parent)
      .flatMap((tag) => tag.content.map((part) => part.text))
      .join('');
    if (uses.test(text)) return true;
    parents = parent.extendedTypes ?? [];
  }
  return false;
}

function hasExample(reflection) {
  return examples(reflection).length > 0 || (reflection.kind === Kind.Class && familyExample(reflection));
}

const checked = [];
const missing = [];
const see = (name, reflection) => {
  checked.push(name);
  if (!hasExample(reflection)) missing.push(name);
};
for (const module of project.children ?? []) {
  for (const symbol of module.children ?? []) {
    if (symbol.kind === Kind.Reference) continue;
    see(`${module.name}: ${symbol.name}`, symbol);
    if (symbol.kind !== Kind.Class) continue;
    for (const member of symbol.children ?? []) {
      if (member.kind !== Kind.Method && member.kind !== Kind.Accessor) continue;
      if (member.flags?.isPrivate || member.flags?.isProtected || member.flags?.isExternal) continue;
      if (protocol.has(member.name) || member.name.startsWith('[')) continue;
      see(`${module.name}: ${symbol.name}.${member.name}`, member);
    }
  }
}

const covered = checked.length - missing.length;
process.stdout.write(`docs: ${covered} of ${checked.length} public symbols have an @example\n`);
if (missing.length > 0) {
  process.stdout.write(`docs: without an @example:\n${missing.map((name) => `  - ${name}`).join('\n')}\n`);
  if (strict) process.exit(1);
}

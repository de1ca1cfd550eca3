/**
 * The completion scripts keep their fixed text in constants, each part computed from the command tree
 * written as `{{name}}` where it goes.
 */

/**
 * `template` with each `{{name}}` replaced by `parts[name]`, in one pass: a part's own text is not
 * searched again, so a part may hold anything.
 */
export function fillTemplate(template: string, parts: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const part = parts[name];
    if (part === undefined) throw new Error(`The completion script has no part named ${name}`);
    return part;
  });
}

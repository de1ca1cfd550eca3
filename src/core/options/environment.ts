/**
 * The one place the SDK reads environment variables: from the environment a caller hands in (a
 * command line's, a test's), else from the process's.
 */

/** Variables by name, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The variable `name` of `env` (of the process's environment when `env` is left out), or `undefined`
 * when it is unset, empty or unreadable: Deno without `--allow-env` throws on any read, and a client
 * given its options must still construct there.
 */
export function readVariable(env: Environment | undefined, name: string): string | undefined {
  try {
    const variables = env ?? (globalThis as { process?: { env?: Environment } }).process?.env;
    return variables?.[name] || undefined;
  } catch {
    return undefined;
  }
}

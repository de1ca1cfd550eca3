/**
 * Programs the tests start (redis-server, squid, Node children) die with the test process that
 * started them: a run killed outright (a second Ctrl-C, a CI job's time limit, `kill -9`) runs no
 * after-hook, and would leave servers on their ports. Where util-linux's `setpriv` is present (every
 * Debian), it sets the child's parent-death signal to SIGKILL and then execs the program, so the
 * PID the tests stop it by stays the program's own. Elsewhere the program runs as given.
 */
import { spawnSync } from 'node:child_process';

let setpriv: boolean | undefined;

/** `[command, args]` to spawn so that `command args` is killed when this process dies. */
export function tiedToThisProcess(command: string, args: readonly string[]): [string, string[]] {
  setpriv ??= spawnSync('setpriv', ['--pdeathsig', 'KILL', 'true']).status === 0;
  return setpriv ? ['setpriv', ['--pdeathsig', 'KILL', command, ...args]] : [command, [...args]];
}

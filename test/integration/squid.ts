// Debian's squid for proxy.test.ts: two loopback ports, one open and one that asks for Basic
// credentials, with its config, logs and pid file in a directory the test gives it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmod, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.js';
import { tiedToThisProcess } from '../helpers/tied.js';

/** The squid program, when this machine has one. */
export const squidBinary = ['squid', '/usr/sbin/squid'].find((bin) => spawnSync(bin, ['-v']).status === 0);

/** The user of squid's second port, which asks for Basic credentials: `s3cret-PW`, hashed for htpasswd. */
export const proxyUser = 'alice';
export const proxyPassword = 's3cret-PW';
const htpasswd = `${proxyUser}:$apr1$exdmJTI5$phG0x.swBgPLv9dJX4A3i.\n`;

/** A running squid. */
export interface Squid {
  readonly proxyUrl: string;
  /** squid's port that asks for credentials (407 without them). */
  readonly authProxyUrl: string;
  /** Stops squid and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `binary` with its files in `dir`. The ports are free when picked but only bound when squid
 * starts: something else may take one in between (another test, a connection's own port), so a start
 * that finds one taken picks again.
 */
export async function startSquid(binary: string, dir: string): Promise<Squid> {
  // Started as root (as in CI), squid drops to cache_effective_user, which must write its logs here.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chmod(dir, 0o777);
  await writeFile(join(dir, 'htpasswd'), htpasswd, { mode: 0o644 });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const authPort = await freePort();
    await writeFile(join(dir, 'squid.conf'), squidConf(dir, port, authPort, asRoot));
    const started = spawnSquid(binary, join(dir, 'squid.conf'));
    try {
      // A guard against a hang, wide enough for a loaded machine.
      await waitForPort(port, started.child, started.output, 90_000);
      await waitForPort(authPort, started.child, started.output, 90_000);
      return {
        proxyUrl: `http://127.0.0.1:${port}`,
        authProxyUrl: `http://127.0.0.1:${authPort}`,
        stop: () => stop(started.child),
      };
    } catch (error) {
      await stop(started.child);
      if (attempt === 3 || !/address already in use/i.test(started.output())) throw error;
    }
  }
}

/** squid in the foreground on `conf`, and what it has written to stdout and stderr so far. */
function spawnSquid(binary: string, conf: string) {
  let output = '';
  const child = spawn(...tiedToThisProcess(binary, ['-N', '-f', conf]), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: string) => {
    output += chunk;
  };
  child.stdout?.setEncoding('utf8').on('data', collect);
  child.stderr?.setEncoding('utf8').on('data', collect);
  return { child, output: () => output };
}

async function stop(squid: ChildProcess): Promise<void> {
  if (squid.exitCode !== null || squid.signalCode !== null) return;
  const exited = once(squid, 'exit');
  squid.kill('SIGTERM'); // shutdown_lifetime 0: squid stops at once
  const timer = setTimeout(() => squid.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * squid's stock config refuses `to_localhost`; this one serves loopback only, caches nothing, keeps
 * every file in `dir`, starts no helper process but the Basic authenticator of `authPort` (where
 * requests need `alice`'s credentials), and logs each answer's X-Request-Id.
 */
function squidConf(dir: string, port: number, authPort: number, asRoot: boolean): string {
  return [
    `http_port 127.0.0.1:${port}`,
    `http_port 127.0.0.1:${authPort} name=with_auth`,
    `auth_param basic program /usr/lib/squid/basic_ncsa_auth ${dir}/htpasswd`,
    'auth_param basic children 1 startup=1 idle=1',
    'auth_param basic realm corp',
    'acl on_auth_port myportname with_auth',
    'acl logged_in proxy_auth REQUIRED',
    'http_access deny on_auth_port !logged_in',
    'acl from_loopback src 127.0.0.1/32',
    'acl to_loopback dst 127.0.0.1/32',
    'http_access allow from_loopback to_loopback',
    'http_access deny all',
    'cache deny all',
    'cache_mem 8 MB',
    'logformat with_id %ts.%03tu %6tr %>a %Ss/%03>Hs %<st %rm %ru %un %Sh/%<a %mt %{X-Request-Id}<h',
    `access_log stdio:${dir}/access.log squid`, // squid's stock format, as a proxy's admin reads it
    `access_log stdio:${dir}/with-ids.log with_id`,
    `cache_log ${dir}/cache.log`,
    'cache_store_log none',
    `pid_filename ${dir}/squid.pid`,
    `coredump_dir ${dir}`,
    'netdb_filename none',
    'pinger_enable off',
    'icp_port 0',
    'htcp_port 0',
    'dns_nameservers 127.0.0.1', // never asked (every host is an IP), and never anyone but loopback
    'logfile_rotate 0',
    'shutdown_lifetime 0 seconds',
    ...(asRoot ? ['cache_effective_user proxy'] : []),
    '',
  ].join('\n');
}

/** Resolves once something accepts on the port; rejects if `child` exits first or time runs out. */
async function waitForPort(port: number, child: ChildProcess, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`squid exited (${child.exitCode ?? child.signalCode}) before listening:\n${output()}`);
    }
    if (await canConnect(port)) return;
    if (Date.now() > deadline) throw new Error(`squid is not listening on ${port} yet:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

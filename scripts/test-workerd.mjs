// `npm run test:workerd`: the packed package on workerd, Cloudflare's Workers runtime, installed from
// the npm registry into node_modules/.cache/scholarly-metrics/workerd. The tarball is installed into a
// project of its own and test/runtimes/workerd-worker.ts is bundled from it with esbuild, with the
// conditions Workers tools use (workerd, worker, browser) and no Node built-in available. In workerd the
// Worker runs the checks of test/runtimes/smoke.ts against the mock API (served here, in Node, on
// 127.0.0.1), then the mock delivers a real `score_updated` webhook to the Worker's receiver over HTTP,
// and a page opening the Worker's event relay is greeted and told what it missed.
//
// workerd is required where the registry has it: if it cannot be installed, CI (CI=true) fails;
// elsewhere this says so loudly and exits 0.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ensureWorkerd, prepareRuntimeProject, root } from './runtimes.mjs';

const LIMIT_MS = 30_000;

const { bin: workerd, project, install } = prepareRuntimeProject('test:workerd', 'workerd', ensureWorkerd());
const failures = [];
let child;
try {
  const tarball = install();
  const bundled = performance.now();
  await build({
    entryPoints: [join(project, 'workerd-worker.ts')],
    absWorkingDir: project,
    outfile: join(project, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  process.stdout.write(
    `test:workerd: ${tarball} installed in ${project}, Worker bundled in ${Math.round(performance.now() - bundled)} ms\n`,
  );

  const { startMockServer, MOCK_API_KEY } = await import(
    pathToFileURL(join(root, 'dist', 'testing.js')).href
  );
  const server = await startMockServer({ port: 0, host: '127.0.0.1', control: true });
  try {
    writeFileSync(
      join(project, 'config.capnp'),
      workerdConfig({ baseUrl: server.url, apiKey: MOCK_API_KEY }),
    );
    const started = performance.now();
    child = spawn(workerd, ['serve', 'config.capnp', '--control-fd=3'], {
      cwd: project,
      stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
    });
    // Never leave workerd serving if this script dies on the way.
    process.once('exit', () => child.kill('SIGKILL'));
    const killer = setTimeout(() => {
      failures.push(`workerd run killed after ${LIMIT_MS / 1000} s`);
      child.kill('SIGKILL');
    }, LIMIT_MS);
    try {
      const worker = `http://127.0.0.1:${await listeningPort(child)}`;
      await smoke(worker);
      await webhookDelivery(worker, server.api);
      await relayGreeting(worker);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(killer);
      child.kill('SIGKILL');
      process.stdout.write(
        `test:workerd: workerd ran for ${((performance.now() - started) / 1000).toFixed(2)} s (wall time)\n`,
      );
    }
  } finally {
    await server.close();
  }
} finally {
  child?.kill('SIGKILL');
  rmSync(project, { recursive: true, force: true });
}
for (const failure of failures) process.stderr.write(`  ✗ ${failure}\n`);
process.stdout.write(`test:workerd: ${failures.length === 0 ? 'passed' : 'FAILED'}\n`);
process.exit(failures.length === 0 ? 0 : 1);

/**
 * One Worker on a socket of a free loopback port. Its fetch() reaches only loopback: workerd sends a
 * Worker's subrequests to its `globalOutbound`, and by default that network allows public addresses only.
 */
function workerdConfig({ baseUrl, apiKey }) {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "smoke", worker = .smokeWorker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "smoke")],
);

const smokeWorker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-01-01",
  globalOutbound = "loopback",
  bindings = [
    (name = "MOCK_BASE_URL", text = ${JSON.stringify(baseUrl)}),
    (name = "MOCK_API_KEY", text = ${JSON.stringify(apiKey)}),
  ],
);
`;
}

/** The port workerd reports on its control descriptor once the socket listens. */
function listeningPort(workerdProcess) {
  return new Promise((resolve, reject) => {
    workerdProcess.once('exit', (code) => reject(new Error(`workerd exited (${code}) before listening`)));
    workerdProcess.once('error', reject);
    createInterface({ input: workerdProcess.stdio[3] }).on('line', (line) => {
      try {
        const message = JSON.parse(line);
        if (message.event === 'listen' && message.socket === 'http') resolve(message.port);
      } catch {
        reject(new Error(`workerd wrote an unexpected control message: ${line}`));
      }
    });
  });
}

async function smoke(worker) {
  const response = await fetch(`${worker}/smoke`);
  const result = await response.json();
  if (response.status !== 200) throw new Error(`the checks failed in workerd:\n${result.error}`);
  process.stdout.write(`workerd:\n  ✓ ${result.passed.join('\n  ✓ ')}\n`);
}

/** The mock delivers a real score_updated POST to the Worker's receiver; the Worker must have parsed it. */
async function webhookDelivery(worker, api) {
  const journal = api.dataset.journal(7);
  const newScore = journal.metric_score === 100 ? 99 : journal.metric_score + 1;
  api.webhooks.subscribe(`${worker}/webhook`);
  const { event, deliveries } = await api.updateScore(7, newScore);
  const [delivery] = deliveries;
  if (deliveries.length !== 1 || !delivery.ok || delivery.status !== 200) {
    throw new Error(`the webhook delivery to the Worker failed: ${JSON.stringify(deliveries)}`);
  }
  const refused = await fetch(`${worker}/webhook`, { method: 'POST', body: '{"event":"journal_deleted"}' });
  const refusal = await refused.json();
  if (refused.status !== 400 || refusal.error !== 'invalid_payload') {
    throw new Error(
      `the Worker's receiver should answer 400 invalid_payload, got ${refused.status} ${JSON.stringify(refusal)}`,
    );
  }
  const received = await (await fetch(`${worker}/received`)).json();
  if (JSON.stringify(received) !== JSON.stringify([event])) {
    throw new Error(
      `the Worker received ${JSON.stringify(received)}, the mock sent ${JSON.stringify(event)}`,
    );
  }
  process.stdout.write(
    `  ✓ webhooks: createWebhookHandler received the mock's delivery (journal 7: ${event.old_score} → ${event.new_score}) and refused a bad body with 400\n`,
  );
}

/**
 * What a stream from the Worker's event relay holds once `until` says so, or what it held after `ms`:
 * workerd holds back a chunk queued with a size of 0, and the greeting and the replay must come at once.
 */
async function relayStream(worker, headers, until, ms = 5_000) {
  const stopped = new AbortController();
  const timer = setTimeout(() => stopped.abort(), ms);
  let text = '';
  try {
    const response = await fetch(`${worker}/events`, { headers, signal: stopped.signal });
    const reader = response.body.getReader();
    while (!until(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
  } catch {
    // Aborted after `ms`: what came is the answer.
  } finally {
    clearTimeout(timer);
    stopped.abort();
  }
  return text;
}

/** A page opening the relay is greeted with the latest id; one reconnecting from an unknown id is told it missed events. */
async function relayGreeting(worker) {
  const greeting = await relayStream(worker, {}, (text) => text.includes('\n\n'));
  if (!/^: connected\nid: \S+\n\n/.test(greeting))
    throw new Error(`the relay's greeting in workerd: ${JSON.stringify(greeting)}`);
  const missed = await relayStream(worker, { 'last-event-id': 'gone' }, (text) =>
    text.includes('event: missed'),
  );
  if (!missed.includes('event: missed'))
    throw new Error(`the relay's replay in workerd: ${JSON.stringify(missed)}`);
  process.stdout.write('  ✓ relay: a page is greeted at once, and one reconnecting is told what it missed\n');
  // workerd logs each such stream it then cancels: its request has nothing of its own left to wait on.
  process.stdout.write(
    '    (workerd\'s "code had hung" lines are those streams, cancelled once greeted: docs/relay.md)\n',
  );
}

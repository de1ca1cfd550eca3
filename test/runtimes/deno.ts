// Deno's program (scripts/test-deno.mjs): the packed package, installed into a project of its own, under
// `--allow-net=127.0.0.1` and no other permission. Arguments: the mock's base URL and an API key.
import { runSmoke } from './smoke.js';

type PermissionName = 'env' | 'read' | 'write' | 'run' | 'ffi' | 'sys' | 'net';
declare const Deno: {
  args: string[];
  version: { deno: string };
  permissions: { querySync(descriptor: { name: PermissionName; host?: string }): { state: string } };
};

// The SDK must need no more than the network: prove the run really had nothing else.
for (const name of ['env', 'read', 'write', 'run', 'ffi', 'sys'] as const) {
  const { state } = Deno.permissions.querySync({ name });
  if (state === 'granted') throw new Error(`run this with --allow-net=127.0.0.1 only: ${name} is granted`);
}

const [baseUrl, apiKey] = Deno.args;
if (baseUrl === undefined || apiKey === undefined) throw new Error('usage: deno.ts <baseUrl> <apiKey>');
const passed = await runSmoke({ baseUrl, apiKey });
console.log(`Deno ${Deno.version.deno}, --allow-net=127.0.0.1 only:\n  ✓ ${passed.join('\n  ✓ ')}`);

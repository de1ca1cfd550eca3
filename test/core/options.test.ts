import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError, MetricClient } from '../../src/index.js';
import { thrown } from '../helpers/calls.js';
import { BASE, TEST_KEY, testClient, useMsw } from '../support.js';
import { fromNoEnvironment, journal42On } from './options-setup.js';

const server = useMsw();
const journal42 = journal42On(server);
fromNoEnvironment();

describe('environment variables', () => {
  it('METRIC_API_KEY is used when apiKey is omitted', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_env_key_1');
    const seen = journal42();
    await new MetricClient({ baseUrl: BASE }).journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer sk_env_key_1');
  });

  it('a malformed METRIC_API_KEY is named as the variable, an apiKey as the option; neither quoted', () => {
    const key = 'sk_env_key_4\r';
    vi.stubEnv('METRIC_API_KEY', key);
    const fromEnvironment = thrown(() => new MetricClient({ baseUrl: BASE }));
    expect(fromEnvironment).toBeInstanceOf(ConfigurationError);
    expect((fromEnvironment as ConfigurationError).option).toBe('METRIC_API_KEY');
    expect(fromEnvironment.message).toMatch(/^METRIC_API_KEY must be /);
    const given = thrown(() => new MetricClient({ baseUrl: BASE, apiKey: key }));
    expect((given as ConfigurationError).option).toBe('apiKey');
    expect(given.message).toMatch(/^`apiKey` must be /);
    for (const error of [fromEnvironment, given]) expect(error.message).not.toContain('sk_env_key_4');
  });

  it('METRIC_BASE_URL is used when baseUrl is omitted', async () => {
    vi.stubEnv('METRIC_BASE_URL', BASE);
    const seen = journal42();
    await new MetricClient({ apiKey: TEST_KEY }).journals.get(42);
    expect(new URL(seen[0]!.url).pathname).toBe('/api/v1/journals/42');
  });

  it('both come from the environment with no options at all', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_env_key_2');
    vi.stubEnv('METRIC_BASE_URL', `${BASE}/`);
    const seen = journal42();
    await new MetricClient().journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer sk_env_key_2');
  });

  it('options win over the environment', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_env_key_3');
    vi.stubEnv('METRIC_BASE_URL', 'https://elsewhere.example.test/api/v1');
    const seen = journal42();
    await testClient().journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
    expect(new URL(seen[0]!.url).host).toBe('api.example.test');
  });

  it('a runtime that refuses to read the environment (Deno without --allow-env) counts it as unset', async () => {
    // Only the SDK's own variables refuse: msw, under the client in this test, reads others.
    const env = new Proxy(process.env, {
      get(target, name) {
        if (typeof name === 'string' && name.startsWith('METRIC_')) {
          throw new Error(`NotCapable: Requires env access to "${name}"`);
        }
        return target[name as string];
      },
    });
    vi.stubGlobal('process', { ...process, env });
    const seen = journal42();
    await testClient({ apiKey: TEST_KEY, baseUrl: BASE }).journals.get(42);
    expect(seen).toHaveLength(1);
    const missing = thrown(() => new MetricClient({ baseUrl: BASE }));
    expect(missing).toBeInstanceOf(ConfigurationError);
    expect(missing.message).toContain('METRIC_API_KEY');
  });

  it('apiKey: null sends no Authorization even when METRIC_API_KEY is set', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_env_key_4');
    const seen = journal42();
    await testClient({ apiKey: null }).journals.get(42);
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });
});

describe('the env option', () => {
  it('is read in place of the process environment', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_process_key');
    vi.stubEnv('METRIC_BASE_URL', 'https://elsewhere.example.test/api/v1');
    const seen = journal42();
    await new MetricClient({ env: { METRIC_API_KEY: 'sk_handed_key', METRIC_BASE_URL: BASE } }).journals.get(
      42,
    );
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer sk_handed_key');
    expect(new URL(seen[0]!.url).host).toBe('api.example.test');
  });

  it('{} reads no variable, not even the process ones', () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_process_key');
    const missing = thrown(() => new MetricClient({ baseUrl: BASE, env: {} }));
    expect(missing).toBeInstanceOf(ConfigurationError);
    expect((missing as ConfigurationError).option).toBe('apiKey');
    expect(missing.message).toBe(
      'Missing API key: pass `apiKey` to new MetricClient() or set METRIC_API_KEY ' +
        '(use apiKey: null when a proxy adds the Authorization header)',
    );
  });

  it('its METRIC_LOG and METRIC_BASE_URL are named as the process ones are', () => {
    const log = thrown(() => testClient({ env: { METRIC_LOG: 'loud' } }));
    expect((log as ConfigurationError).option).toBe('METRIC_LOG');
    expect(log.message).toBe('METRIC_LOG must be one of off, error, warn, info, debug');
    const url = thrown(() => new MetricClient({ apiKey: TEST_KEY, env: { METRIC_BASE_URL: 'not a url' } }));
    expect((url as ConfigurationError).option).toBe('METRIC_BASE_URL');
  });

  it('an empty variable counts as unset, and the options win over it', async () => {
    const missing = thrown(() => new MetricClient({ env: { METRIC_API_KEY: '', METRIC_BASE_URL: BASE } }));
    expect((missing as ConfigurationError).option).toBe('apiKey');
    const seen = journal42();
    await testClient({
      env: { METRIC_API_KEY: 'sk_handed_key', METRIC_LOG: 'loud' },
      logLevel: 'off',
    }).journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
  });

  it('a child of withOptions reads its own env, keeping its parent key and base URL', async () => {
    const parent = new MetricClient({ env: { METRIC_API_KEY: TEST_KEY, METRIC_BASE_URL: BASE } });
    const refused = thrown(() => parent.withOptions({ env: { METRIC_LOG: 'loud' } }));
    expect((refused as ConfigurationError).option).toBe('METRIC_LOG');
    const seen = journal42();
    await parent.withOptions({ env: {} }).journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
  });
});

// Module resolution hooks: the package's own names resolve to its sources, so the examples run
// against the code under test instead of a possibly stale dist/.
const root = new URL('../../', import.meta.url);
const targets = {
  'scholarly-metrics': 'src/index.ts',
  'scholarly-metrics/webhooks': 'src/webhooks/index.ts',
  'scholarly-metrics/testing': 'src/testing/index.ts',
  'scholarly-metrics/redis': 'src/redis/index.ts',
};

export async function resolve(specifier, context, nextResolve) {
  const target = targets[specifier];
  return nextResolve(target === undefined ? specifier : new URL(target, root).href, context);
}

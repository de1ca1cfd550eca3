/**
 * The client and the errors it throws, as a command loads them when it runs: through the package's
 * public entry alone, in a module of its own imported only then. Imported by the bin's first module,
 * the entry would bring the whole client into every start-up, `--version` included (esbuild loads
 * with an entry every module it reaches that any chunk uses); a dynamic import of the entry itself
 * would load every name it exports.
 */
export { ConfigurationError, MetricClient, MetricError, QuotaUnavailableError } from '../index.js';

/**
 * docs/deployment.md's undici redaction runs as written: its block is written out as a module, and its
 * instrumentation records the HTTP spans of a client's calls to the mock served on 127.0.0.1, with the
 * real OpenTelemetry SDK. No search term and no DOI may be left in `url.full`, `url.path` or
 * `url.query`. The same calls through a plain instrumentation show that they would be.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_DOIS } from '../../src/testing/index.js';
import { useMockServer } from '../support.js';
import { blocks, root } from './markdown.js';

const marker = /test\/docs\/url-redaction\.test\.ts runs this block/;
const [block] = blocks('docs/deployment.md').filter((found) => marker.test(found.marker ?? ''));
const term = 'bleaching';
const doi = MOCK_DOIS[0]!;

const mock = useMockServer();
let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'sm-redaction-'));
  symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir');
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The HTTP spans' URL attributes of a search and a DOI lookup made with `instrumentation` on. */
async function recorded(instrumentation: UndiciInstrumentation): Promise<string[]> {
  const exporter = new InMemorySpanExporter();
  instrumentation.setTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  instrumentation.enable();
  try {
    const client = mock.client({ maxRetries: 0 });
    await client.papers.search({ q: `coral ${term}`, page: 1 });
    await client.papers.get(doi);
  } finally {
    instrumentation.disable();
  }
  const spans = exporter
    .getFinishedSpans()
    .filter((span) => span.instrumentationScope.name.includes('undici'));
  expect(spans).toHaveLength(2);
  return spans.flatMap((span) =>
    ['url.full', 'url.path', 'url.query'].map((name) => String(span.attributes[name])),
  );
}

/** What of the search term or the DOI a text holds, however the URL encoded it. */
const leaks = (text: string) =>
  [term, doi, encodeURIComponent(doi), doi.split('/')[1]!].filter((secret) => text.includes(secret));

describe("docs/deployment.md's url.full redaction", () => {
  it('is on the page, marked for this test', () => {
    expect(block?.lang).toBe('ts');
  });

  it('leaves no search term and no DOI in the HTTP spans, and keeps the rest of the URL', async () => {
    const file = join(folder, 'redaction.ts');
    writeFileSync(file, block!.code);
    const { undici, redactedUrl } = (await import(/* @vite-ignore */ file)) as {
      undici: UndiciInstrumentation;
      redactedUrl: (url: URL) => Record<string, string>;
    };
    const values = await recorded(undici);
    expect(values.flatMap(leaks)).toEqual([]);
    const host = new URL(mock.server.url).host;
    expect(values).toContain(`http://${host}/api/v1/papers?q=REDACTED&page=REDACTED`);
    expect(values).toContain(`http://${host}/api/v1/papers/REDACTED`);
    expect(redactedUrl(new URL('https://api.example/api/v1/journals/42?x=1'))['url.full']).toBe(
      'https://api.example/api/v1/journals/42?x=REDACTED',
    );
  });

  it('without it, the undici instrumentation records both', async () => {
    const { UndiciInstrumentation } = await import('@opentelemetry/instrumentation-undici');
    const values = await recorded(new UndiciInstrumentation());
    expect(values.flatMap(leaks)).not.toEqual([]);
    expect(values.join(' ')).toContain(term);
  });
});

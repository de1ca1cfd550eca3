/** An OTLP/HTTP (JSON) receiver on 127.0.0.1 for the command line's exports: the spans and headers it got. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

type Value = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type Attributes = Array<{ key: string; value: Value }>;

export interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  status?: { code?: number };
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  readonly url: string;
  /** Every span exported so far, with its resource's attributes. */
  spans(): ExportedSpan[];
  /** The headers of each export request. */
  headers(): IncomingHttpHeaders[];
  reset(): void;
  close(): Promise<void>;
}

const plain = (attributes: Attributes | undefined) =>
  Object.fromEntries(
    (attributes ?? []).map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue]),
  );

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  let spans: ExportedSpan[] = [];
  let headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      headers.push(req.headers);
      const body = JSON.parse(text);
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = plain(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans)
          for (const span of scope.spans)
            spans.push({ ...span, attributes: plain(span.attributes), resource } as ExportedSpan);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    headers: () => headers,
    reset() {
      spans = [];
      headers = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

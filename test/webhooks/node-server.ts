import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 with a free port; `close` also drops kept-alive connections. */
export async function startServer(listener: Listener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/metric`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Middleware = (
  req: IncomingMessage & { body?: unknown },
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** Express's middleware chain in miniature: each middleware gets `next`; an error ends in a 599. */
export function chain(...middlewares: Middleware[]): Listener {
  return (req, res) => {
    let index = 0;
    const next = (error?: unknown) => {
      if (error !== undefined) {
        res.statusCode = 599;
        res.end('next(error) was called');
        return;
      }
      const middleware = middlewares[index++];
      if (middleware) middleware(req, res, next);
      else {
        res.statusCode = 404;
        res.end('fell through');
      }
    };
    next();
  };
}

/** Reads the whole body as express.json()/raw()/text() do before calling next. */
function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Like express.json(): the stream is consumed and req.body is the parsed object. */
export const jsonParser: Middleware = (req, _res, next) => {
  readAll(req).then((buffer) => {
    req.body = JSON.parse(buffer.toString('utf8'));
    next();
  }, next);
};

/** Like express.raw(): req.body is a Buffer. */
export const rawParser: Middleware = (req, _res, next) => {
  readAll(req).then((buffer) => {
    req.body = buffer;
    next();
  }, next);
};

/** Like express.text(): req.body is a string. */
export const textParser: Middleware = (req, _res, next) => {
  readAll(req).then((buffer) => {
    req.body = buffer.toString('utf8');
    next();
  }, next);
};

/** Like body-parser 1.x for a Content-Type it does not handle: `req.body = {}`, stream left unread. */
export const skippingParser: Middleware = (req, _res, next) => {
  req.body = {};
  next();
};

/** A middleware that reads the body and keeps it to itself. */
export const swallowingReader: Middleware = (req, _res, next) => {
  readAll(req).then(() => next(), next);
};

/**
 * POSTs `chunkCount` chunks with chunked transfer encoding (no Content-Length), as fast as the
 * socket takes them, and reports the answer (or the connection error) and how much was written.
 */
export function postChunked(
  url: string,
  chunk: Uint8Array,
  chunkCount: number,
  headers: Record<string, string> = {},
): Promise<{ status?: number; body?: string; error?: string; written: number }> {
  return new Promise((resolve) => {
    let written = 0;
    const req = request(
      url,
      { method: 'POST', headers: { 'transfer-encoding': 'chunked', ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (part: string) => {
          body += part;
        });
        res.on('end', () => resolve({ status: res.statusCode, body, written }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message, written }),
    );
    const pump = () => {
      while (written < chunkCount * chunk.byteLength) {
        written += chunk.byteLength;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

/**
 * The same API on node:http: the reference the server benchmark measures uWebSockets.js against (same
 * handler, same bodies), and a fallback for platforms without a uWS binary.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyLimit, type Api, type ApiRequest, type ApiResponse } from '../api/api.js';
import { BATCH_PATHS } from '../http/limits.js';
import { LazyAbort } from './lazy-abort.js';
import { drain, lastResort, listenAddress, runningServer, type RunningServer } from './running-server.js';

/** Starts `api` on node:http and resolves once listening. */
export async function startNodeHttpServer(api: Api, options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const { host, port: requested } = listenAddress(options);
  let draining = false;
  const write = (res: ServerResponse, out: ApiResponse) => {
    const headers: Record<string, string | number> = { 'Content-Type': out.contentType, ...out.headers, ...(draining ? { Connection: 'close' } : {}) };
    const body = out.body;
    if (out.stream && !out.omitBody) {
      // Streamed: chunked, a chunk at a time, waiting for 'drain' when the socket's buffer is full.
      res.writeHead(out.status, headers);
      const chunks = out.stream();
      const pump = (): void => {
        for (;;) {
          if (res.destroyed) return;
          let step: IteratorResult<Buffer> | Promise<IteratorResult<Buffer>>;
          try {
            step = chunks.next();
          } catch {
            res.destroy();
            return;
          }
          if (step instanceof Promise) {
            // An asynchronous stream: continue when the chunk comes.
            step.then((n) => {
              if (res.destroyed) return;
              if (n.done) return void res.end();
              if (res.write(n.value)) pump();
              else res.once('drain', pump);
            }, () => res.destroy());
            return;
          }
          const next = step;
          if (next.done) {
            res.end();
            return;
          }
          if (!res.write(next.value)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
      return;
    }
    if (out.omitBody) {
      // HEAD: node:http sends no body for a HEAD request; the length says what GET would send.
      const n = typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : body.reduce((s, p) => s + p.length, 0);
      res.writeHead(out.status, out.stream || out.lengthUnknown ? headers : { ...headers, 'Content-Length': n });
      res.end();
      return;
    }
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      // A Content-Length, as uWS sends: no chunked framing, and the same bytes on both transports.
      res.writeHead(out.status, { ...headers, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    // Parts: a Content-Length (so no chunked encoding) and one corked write of them all.
    let n = 0;
    for (const p of body) n += p.length;
    headers['Content-Length'] = n;
    res.writeHead(out.status, headers);
    res.cork();
    for (let i = 0; i < body.length - 1; i++) res.write(body[i]);
    res.end(body[body.length - 1]);
    res.uncork();
  };
  // Headers up to 64 KiB are read (node's default is 16 KiB), so a long request target gets the API's 414
  // with its error body rather than node's bare 431.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
    const request: ApiRequest = {
      method: req.method ?? 'GET',
      path: q < 0 ? url : url.slice(0, q),
      query: q < 0 ? '' : url.slice(q + 1),
      authorization: header(req.headers.authorization),
      authorizationCount: req.headersDistinct.authorization?.length ?? 0,
      requestId: header(req.headers['x-request-id']),
      acceptEncoding: header(req.headers['accept-encoding']),
      ifNoneMatch: header(req.headers['if-none-match']),
      host: header(req.headers.host),
      remoteAddress: () => req.socket.remoteAddress ?? '',
      realIp: header(req.headers['x-real-ip']),
    };
    const abort = new LazyAbort();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      // A request that may carry a body: read it all (up to its path's bodyLimit) before answering.
      request.contentType = header(req.headers['content-type']);
      request.accept = header(req.headers.accept);
      request.mcpProtocolVersion = header(req.headers['mcp-protocol-version']);
      const read = (limit: number) => {
        const chunks: Buffer[] = [];
        let size = 0;
        req.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= limit) chunks.push(chunk);
        });
        req.on('end', () => {
          if (size > limit) request.bodyTooLarge = true;
          else request.body = Buffer.concat(chunks);
          answer();
        });
      };
      // As on uWS: a batch upload past the ordinary 1 MiB is read only for a good key. Credentials that are
      // not one (made up, revoked) are answered 401 at once, the body drained unread and the connection closed.
      const refuse = () => {
        req.resume();
        res.shouldKeepAlive = false;
        answer();
      };
      req.on('error', () => abort.abort());
      const batchUpload = !!request.authorization && BATCH_PATHS.includes(request.path);
      const large = batchUpload ? api.largeBodyAllowed(request) : false;
      if (large === true) read(bodyLimit(request.path, true));
      else if (large instanceof Promise) void large.then((ok) => (ok ? read(bodyLimit(request.path, true)) : refuse()));
      else if (batchUpload) refuse();
      else read(bodyLimit(request.path, false));
      return;
    }
    answer();

    function answer(): void {
      const out = api.handle(request, abort);
      if (!(out instanceof Promise)) {
        write(res, out);
        return;
      }
      out.then(
        (o) => {
          if (abort.aborted || o.status === 499) return;
          write(res, o);
        },
        (err: unknown) => {
          // Api.handle never rejects; this is the last line of defence.
          if (!res.headersSent) write(res, lastResort(err));
        },
      );
    }
  });
  server.keepAliveTimeout = 10_000;
  api.transport = 'node:http';
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(requested, host, () => {
      server.off('error', reject);
      resolve(
        runningServer(host, (server.address() as AddressInfo).port, async (graceMs) => {
          draining = true;
          const stopped = new Promise<void>((r) => server.close(() => r()));
          server.closeIdleConnections();
          await drain(() => api.inFlight, graceMs);
          server.closeAllConnections();
          await stopped;
        }),
      );
    });
  });
}

/**
 * The API on uWebSockets.js (STYLE.md): the request is read synchronously inside the callback (HttpRequest
 * is stack-allocated), `onAborted` is attached before anything is awaited and wired to the lookup's
 * AbortController, the whole response is written inside one `cork`, and no exception reaches uWS.
 */
import type { HttpRequest, HttpResponse, us_listen_socket } from 'uWebSockets.js';
import { bodyLimit, type Api, type ApiRequest, type ApiResponse } from '../api/api.js';
import { BATCH_PATHS } from '../http/limits.js';
import { STATUS_TEXT } from '../http/api-error.js';
import { uws } from '../uws.js';
import { LazyAbort } from './lazy-abort.js';
import { drain, lastResort, listenAddress, runningServer, type RunningServer } from './running-server.js';

const statusLines = new Map<number, string>();
const statusLine = (s: number) => {
  let l = statusLines.get(s);
  if (!l) statusLines.set(s, (l = `${s} ${STATUS_TEXT[s] ?? ''}`.trim()));
  return l;
};

/** How many times header `name` (lower case) appears: getHeader returns only the first. */
function countHeader(req: HttpRequest, name: string): number {
  let n = 0;
  req.forEach((k) => {
    if (k === name) n++;
  });
  return n;
}

let scratch = Buffer.allocUnsafeSlow(256 * 1024);

/**
 * A body in one piece. Parts are copied into one reused buffer: `end` copies the body before it returns
 * (uWS docs: "Ends this response by copying the contents of body"), so the buffer is free again at once and
 * a response costs no allocation.
 */
function onePiece(body: ApiResponse['body']): string | Buffer {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
  let n = 0;
  for (const p of body) n += p.length;
  if (n > scratch.length) scratch = Buffer.allocUnsafeSlow(Math.max(n, scratch.length * 2));
  let o = 0;
  for (const p of body) o += p.copy(scratch, o);
  return scratch.subarray(0, n);
}

/** Starts `api` on uWebSockets.js and resolves once listening. */
export async function startUwsServer(api: Api, options: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const { host, port: requested } = listenAddress(options);
  let draining = false;
  /** Streams `out.stream` with backpressure: a chunk at a time, waiting for the socket when uWS buffers. */
  const stream = (res: HttpResponse, out: ApiResponse) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const chunks = out.stream!();
    res.cork(() => {
      res.writeStatus(statusLine(out.status)).writeHeader('Content-Type', out.contentType);
      for (const k in out.headers) res.writeHeader(k, out.headers[k]);
    });
    const cut = () => {
      // The response has started: the client sees a cut-off body rather than a wrong one.
      if (!aborted) res.cork(() => res.close());
    };
    const pump = (): void => {
      for (;;) {
        if (aborted) return;
        let step: IteratorResult<Buffer> | Promise<IteratorResult<Buffer>>;
        try {
          step = chunks.next();
        } catch {
          cut();
          return;
        }
        if (step instanceof Promise) {
          // An asynchronous stream (rows read from a database): continue when the chunk comes.
          step.then((n) => {
            if (aborted) return;
            if (n.done) return res.cork(() => res.end());
            let ok = true;
            res.cork(() => {
              ok = res.write(n.value);
            });
            if (ok) pump();
            else
              res.onWritable(() => {
                setImmediate(pump);
                return true;
              });
          }, cut);
          return;
        }
        const next = step;
        if (next.done) {
          res.cork(() => res.end());
          return;
        }
        let ok = true;
        res.cork(() => {
          ok = res.write(next.value);
        });
        if (!ok) {
          res.onWritable(() => {
            setImmediate(pump);
            return true;
          });
          return;
        }
      }
    };
    pump();
  };
  const write = (res: HttpResponse, out: ApiResponse) => {
    if (out.stream && !out.omitBody) return stream(res, out);
    res.cork(() => {
      res.writeStatus(statusLine(out.status)).writeHeader('Content-Type', out.contentType);
      for (const k in out.headers) res.writeHeader(k, out.headers[k]);
      const body = onePiece(out.body);
      if (out.omitBody) {
        // HEAD: the length GET would send, and no body. This build's endWithoutBody(length) never ends the
        // response (uWS then aborts the process), so the header is written here and the no-argument form used
        // (it writes no length of its own).
        if (!out.stream && !out.lengthUnknown) res.writeHeader('Content-Length', String(Buffer.byteLength(body)));
        res.endWithoutBody();
      } else res.end(body, draining);
    });
  };
  const app = uws.App();
  app.any('/*', (res, req) => {
    const method = req.getMethod().toUpperCase();
    const request: ApiRequest = {
      method,
      path: req.getUrl(),
      query: req.getQuery() ?? '',
      authorization: req.getHeader('authorization'),
      authorizationCount: countHeader(req, 'authorization'),
      requestId: req.getHeader('x-request-id'),
      acceptEncoding: req.getHeader('accept-encoding'),
      ifNoneMatch: req.getHeader('if-none-match'),
      host: req.getHeader('host'),
      remoteAddress: () => Buffer.from(res.getRemoteAddressAsText()).toString(),
      realIp: req.getHeader('x-real-ip'),
    };
    const abort = new LazyAbort();
    let done = false;
    if (method !== 'GET' && method !== 'HEAD') {
      // A request that may carry a body: read it all (up to its path's bodyLimit) before answering. uWS lends each
      // chunk only for the callback, so it is copied.
      request.contentType = req.getHeader('content-type');
      request.accept = req.getHeader('accept');
      request.mcpProtocolVersion = req.getHeader('mcp-protocol-version');
      res.onAborted(() => {
        done = true;
        abort.abort();
      });
      let chunks: Buffer[] = [];
      let size = 0;
      // With a Content-Length the body is copied into one buffer of that size as it comes (not kept as chunks and
      // joined after: a 128 MiB upload would be held twice).
      const declared = Number(req.getHeader('content-length'));
      let whole: Buffer | null = null;
      // A batch upload may run to 128 MiB, but only once its key is known good: until then (a store round trip
      // at most) it is read as far as that, and a key that is not (made up, revoked) is answered 401 at once, its
      // body dropped, never held (bodyLimit is the ordinary 1 MiB without credentials).
      let limit = bodyLimit(request.path, false);
      const large = api.largeBodyAllowed(request);
      let refused = false;
      const refuse = () => {
        chunks = [];
        if (done || refused) return;
        refused = true;
        const out = api.handle(request, abort);
        if (out instanceof Promise) answer(out);
        else {
          done = true;
          res.cork(() => write(res, out));
        }
      };
      res.onData((chunk, isLast) => {
        if (done || refused) return;
        const at = size;
        size += chunk.byteLength;
        if (size <= limit) {
          if (!whole && !chunks.length && Number.isInteger(declared) && declared >= size && declared <= limit) whole = Buffer.allocUnsafe(declared);
          if (whole && size <= whole.length) whole.set(new Uint8Array(chunk), at);
          else {
            // More than it declared: kept as chunks from here.
            if (whole) chunks = [whole.subarray(0, at)];
            whole = null;
            chunks.push(Buffer.from(chunk.slice(0)));
          }
        } else if (chunks.length || whole) {
          chunks = [];
          whole = null;
        }
        if (!isLast) return;
        if (size > limit) request.bodyTooLarge = true;
        else request.body = whole ? (size === whole.length ? whole : whole.subarray(0, size)) : Buffer.concat(chunks);
        chunks = [];
        whole = null;
        const out = api.handle(request, abort);
        if (!(out instanceof Promise)) {
          done = true;
          res.cork(() => write(res, out));
          return;
        }
        answer(out);
      });
      // Decided after onData is registered: a refusal answers at once, and uWS must see the handler first.
      if (large === true) limit = bodyLimit(request.path, true);
      else if (large instanceof Promise) {
        limit = bodyLimit(request.path, true);
        void large.then((ok) => {
          if (!ok) {
            limit = bodyLimit(request.path, false);
            refuse();
          }
        });
      } else if (request.authorization && BATCH_PATHS.includes(request.path)) {
        // Credentials that are not a good key on a batch path: answered now (401), whatever follows.
        refuse();
      }
      return;
    }
    const out = api.handle(request, abort);
    // Answered without waiting: written here, inside the callback (corked by uWS already).
    if (!(out instanceof Promise)) {
      write(res, out);
      return;
    }
    res.onAborted(() => {
      done = true;
      abort.abort();
    });
    answer(out);

    function answer(out: Promise<ApiResponse>): void {
      out.then(
        (o) => {
          if (done || o.status === 499) return;
          done = true;
          write(res, o);
        },
        (err: unknown) => {
          // Api.handle never rejects; this is the last line of defence, so uWS never sees an exception.
          if (done) return;
          done = true;
          write(res, lastResort(err));
        },
      );
    }
  });
  api.transport = 'uWebSockets.js';
  return new Promise((resolve, reject) => {
    app.listen(host, requested, (socket: us_listen_socket | false) => {
      if (!socket) {
        reject(new Error(`could not listen on ${host}:${requested} (port in use or not permitted)`));
        return;
      }
      const port = uws.us_socket_local_port(socket as unknown as Parameters<typeof uws.us_socket_local_port>[0]);
      resolve(
        runningServer(host, port, async (graceMs) => {
          draining = true;
          uws.us_listen_socket_close(socket);
          await drain(() => api.inFlight, graceMs);
        }),
      );
    });
  });
}

/**
 * The HTTP server on uWebSockets.js. This is the foundation's placeholder: it answers `/healthz` and a JSON
 * 404 for everything else; the property endpoints arrive with their own issue.
 */
import type { HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { VERSION } from '../engine/version.js';
import { uws, uwsNative } from './uws.js';

/** Options for {@link startServer}. */
export interface ServerOptions {
  /** TCP port; 0 picks a free one (default 8080). */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
}

/** A running server. */
export interface RunningServer {
  /** The port actually bound. */
  port: number;
  host: string;
  /** Base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Stops listening. */
  close(): Promise<void>;
}

function sendJson(res: HttpResponse, status: string, body: unknown): void {
  const text = JSON.stringify(body);
  res.cork(() => {
    res.writeStatus(status).writeHeader('Content-Type', 'application/json; charset=utf-8').end(text);
  });
}

function routes(app: TemplatedApp): void {
  app.get('/healthz', (res) => {
    sendJson(res, '200 OK', { status: 'ok', version: VERSION, server: uwsNative ? 'uWebSockets.js' : 'uWebSockets.js-fallback' });
  });
  app.any('/*', (res, req) => {
    const url = req.getUrl();
    sendJson(res, '404 Not Found', { error: 'not_found', message: `no endpoint at ${url}` });
  });
}

/** Starts the server and resolves once it is listening. */
export function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const requested = options.port ?? 8080;
  if (!Number.isInteger(requested) || requested < 0 || requested > 65535) {
    return Promise.reject(new RangeError(`port must be an integer from 0 to 65535, got ${requested}`));
  }
  const app = uws.App();
  routes(app);
  return new Promise((resolve, reject) => {
    app.listen(host, requested, (socket: us_listen_socket | false) => {
      if (!socket) {
        reject(new Error(`could not listen on ${host}:${requested} (port in use or not permitted)`));
        return;
      }
      const port = uws.us_socket_local_port(socket as unknown as Parameters<typeof uws.us_socket_local_port>[0]);
      let closed = false;
      resolve({
        port,
        host,
        url: `http://${host}:${port}`,
        close: async () => {
          if (closed) return;
          closed = true;
          uws.us_listen_socket_close(socket);
        },
      });
    });
  });
}

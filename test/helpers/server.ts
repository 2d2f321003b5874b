/**
 * A real server for contract tests: the engine on the sample world, a store (in memory unless a file is
 * given), the uWebSockets.js transport on port 0, and helpers to make keys and send requests over HTTP.
 */
import { defaultDataDir } from '../../datasets/sample-world.js';
import { startServer, type StartedServer } from '../../server/http-server.js';
import { createKey, type KeySpec } from '../../server/keys/key-admin.js';
import { openStack, type Stack } from '../../server/stack.js';
import type { ApiOptions } from '../../server/api/api.js';

/** A running test server. */
export interface TestServer {
  stack: Stack;
  server: StartedServer;
  url: string;
  /** Makes a key and returns its secret. */
  key(spec?: KeySpec): Promise<string>;
  /** GET `path` (with query) with an optional key; resolves to status, headers and parsed JSON body. */
  get(path: string, key?: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/** Starts a test server. */
export async function startTestServer(options: { db?: string; replicaDir?: string; threads?: number; compute?: 'here' | 'threads'; clock?: () => Date; transport?: 'uws' | 'node' } & Partial<Pick<ApiOptions, 'responseCacheBytes' | 'trustProxy' | 'reportConcurrency' | 'batch' | 'routes'>> = {}): Promise<TestServer> {
  const stack = await openStack({ datasets: defaultDataDir(), db: options.db ?? ':memory:', threads: options.threads ?? 2, compute: options.compute, replicaDir: options.replicaDir });
  const server = await startServer({ ...stack.serverOptions, service: stack.engine, store: stack.store, port: 0, clock: options.clock, transport: options.transport, responseCacheBytes: options.responseCacheBytes, trustProxy: options.trustProxy, reportConcurrency: options.reportConcurrency, batch: options.batch, routes: options.routes });
  return {
    stack,
    server,
    url: server.url,
    key: async (spec = {}) => (await createKey(stack.store, { components: 'all', geometry: true, ...spec })).key,
    get: async (path, key, headers = {}) => {
      const res = await fetch(`${server.url}${path}`, { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
      const text = await res.text();
      let body: unknown = text;
      if ((res.headers.get('content-type') ?? '').startsWith('application/json')) body = JSON.parse(text);
      return { status: res.status, headers: res.headers, body };
    },
    close: async () => {
      await server.close(5_000);
      await stack.close();
    },
  };
}

/** `address=...` for a query string. */
export const q = (params: Record<string, string | number | boolean>) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

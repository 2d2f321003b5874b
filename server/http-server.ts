/**
 * The HTTP server: the API (server/api/) on uWebSockets.js, or on node:http for comparison. See
 * ../shared/spec/property-service.md sections 4, 5, 7 and 8 for the contract it serves.
 */
import { Api, type ApiOptions } from './api/api.js';
import { startNodeHttpServer } from './transport/node-http-transport.js';
import type { RunningServer } from './transport/running-server.js';
import { startUwsServer } from './transport/uws-transport.js';

export type { RunningServer } from './transport/running-server.js';

/** Options of {@link startServer}. */
export interface ServerOptions extends ApiOptions {
  /** TCP port; 0 picks a free one (default 8080). */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** `uws` (default) or `node` (node:http: the benchmark's reference). */
  transport?: 'uws' | 'node';
}

/** A running server and its API. */
export interface StartedServer extends RunningServer {
  api: Api;
}

/** Starts the server and resolves once it is listening. Closing it does not close the service or store. */
export async function startServer(options: ServerOptions): Promise<StartedServer> {
  const { port, host, transport, ...apiOptions } = options;
  const api = new Api(apiOptions);
  const running = await (transport === 'node' ? startNodeHttpServer : startUwsServer)(api, { port, host });
  return {
    ...running,
    api,
    close: async (graceMs) => {
      await running.close(graceMs);
      api.close();
    },
  };
}

/**
 * The HTTP server: the API (server/api/) on uWebSockets.js, or on node:http for comparison. See
 * ../shared/spec/property-service.md sections 4, 5, 7 and 8 for the contract it serves.
 */
import { Api, type ApiOptions } from './api/api.js';
import type { ApiDocuments } from './api/api-types.js';
import type { AnyRoute } from './api/route-value.js';
import { childcareGuidePage, childcareOpenApi } from './childcare/childcare-pages.js';
import { renderDocsPage } from './openapi/docs-page.js';
import { guideTitles, renderGuidePage } from './openapi/guide-pages.js';
import { documentationStamp, openApiDocument } from './openapi/openapi.js';
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

/**
 * The documents an API serves, made from its routes (every route unless it is given a list of its own): the
 * OpenAPI documents, their reference pages, the guides, and the stamp its payloads carry (made once).
 */
export function apiDocuments(routes?: readonly AnyRoute[]): ApiDocuments {
  const openApi = () => openApiDocument(routes);
  let stamp: { version: string; hash: string } | undefined;
  return {
    openApi,
    stamp: () => (stamp ??= documentationStamp(openApi())),
    childcareOpenApi,
    childcareGuide: childcareGuidePage,
    docsPage: () => renderDocsPage(openApi(), undefined, guideTitles()),
    childcareDocsPage: () => renderDocsPage(childcareOpenApi(), '/api/v1/childcare/openapi.json'),
    guidePage: (name) => renderGuidePage(name),
  };
}

/** Starts the server and resolves once it is listening. Closing it does not close the service or store. */
export async function startServer(options: ServerOptions): Promise<StartedServer> {
  const { port, host, transport, ...apiOptions } = options;
  const api = new Api({ ...apiOptions, documents: apiDocuments(apiOptions.routes) });
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

/**
 * Every endpoint the server answers, in one list, in the order of spec section 4 and then the service's own:
 * each product module exports its routes as values (route-value.ts), and this list puts them in the
 * document's order. The router (api.ts) dispatches on it and the OpenAPI document (server/openapi/) is
 * generated from it, so the two cannot drift apart. A new product module adds its routes with one line here.
 */
import { BATCH_ROUTES } from './batch-routes.js';
import { CHILDCARE_ROUTES } from './childcare-routes.js';
import { DA_ROUTES, WEBHOOK_ROUTES } from './da-routes.js';
import { CHILDCARE_PAGE_ROUTES, MAP_ASSET_ROUTES, MAP_PAGE_ROUTES, PLAYGROUND_ROUTES, SAMPLE_ROUTES, SERVICE_ROUTES } from './ops-routes.js';
import { PROPERTY_ROUTES } from './property-routes.js';
import type { AnyRoute } from './route-value.js';
import { MCP_ROUTES, SQL_ROUTES } from './sql-mcp-routes.js';
import { MAP_POINT_ROUTES, TILE_ROUTES } from './tile-routes.js';

export type { AnyRoute, RouteValue } from './route-value.js';

/** The endpoints, in the document's order. */
export const ROUTES: readonly AnyRoute[] = [
  ...PROPERTY_ROUTES,
  ...SAMPLE_ROUTES,
  ...DA_ROUTES,
  ...WEBHOOK_ROUTES,
  ...BATCH_ROUTES,
  ...SQL_ROUTES,
  ...CHILDCARE_ROUTES,
  ...CHILDCARE_PAGE_ROUTES,
  ...MCP_ROUTES,
  ...PLAYGROUND_ROUTES,
  ...TILE_ROUTES,
  ...MAP_PAGE_ROUTES,
  ...MAP_POINT_ROUTES,
  ...MAP_ASSET_ROUTES,
  ...SERVICE_ROUTES,
];

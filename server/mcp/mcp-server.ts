/**
 * The DA listing as a Model Context Protocol server (the official TypeScript SDK): seven tools, each calling
 * the same library function as its HTTP endpoint (server/api/da-handlers.ts), so an agent gets the same
 * answers and the same error messages a client of /v1/das does.
 *
 * Tools: search_das, nearby_das, get_da, list_councils, list_categories, get_stats and sql_query (the names
 * and parameters of the original service's tools). All are read-only (`readOnlyHint`, `openWorldHint:
 * false`). A result carries the endpoint's JSON document both as `structuredContent` and as text (for older
 * clients). Bad arguments and refused queries come back as tool results with `isError: true` and the API's
 * error body (code, message, the parameter at fault), so the model can correct itself; protocol errors are
 * kept for malformed protocol messages.
 *
 * Transports: stdio (`propintel mcp`, cli/commands/mcp.ts) and Streamable HTTP at `POST /mcp` on the main
 * server (server/api/api.ts), stateless: a fresh server and transport per request.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DA_CATEGORIES } from '../../engine/da/categories.js';
import type { DaStore } from '../../engine/da/da-store.js';
import type { SqlRunner } from '../../engine/da/sql/sql-runner.js';
import { STATUS_GROUPS } from '../../engine/da/status-rules.js';
import { STATES } from '../../engine/catalogue/states.js';
import { VERSION } from '../../engine/version.js';
import { ApiError, toApiError } from '../api/api-error.js';
import { daDocument } from '../api/da-handlers.js';
import type { DaOperation } from '../api/routes.js';
import { runSql } from '../api/sql-handler.js';

/** What the tools need. */
export interface McpContext {
  das: () => DaStore;
  /** The SQL runner for sql_query; its absence (or `sqlAllowed: false`) makes sql_query answer not_licensed. */
  sql?: () => SqlRunner;
  /** Whether the caller may run SQL (the key's entitlement over HTTP; true over stdio). */
  sqlAllowed: boolean;
  /** Runs before each tool call: the DA daily limit over HTTP (throws ApiError 429 when used up). */
  beforeCall?: () => Promise<void> | void;
}

/** The seven tools' names. */
export const MCP_TOOLS = ['search_das', 'nearby_das', 'get_da', 'list_councils', 'list_categories', 'get_stats', 'sql_query'] as const;

const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const state = z.enum(STATES).describe('State or territory code');
const category = z.string().describe(`The primary category: a slug (${DA_CATEGORIES.join(', ')}) or its display name`);
const statusGroup = z.enum(STATUS_GROUPS).describe('The council status, grouped: pending, advertised, approved, rejected or other');
const date = (what: string) => z.string().describe(`${what} (YYYY-MM-DD)`);
const paging = {
  page: z.number().int().min(1).optional().describe('Page number (default 1)'),
  per_page: z.number().int().min(1).max(100).optional().describe('Records per page (default 20, at most 100)'),
  cursor: z.string().optional().describe('Continue after the last record of a page: the cursor in the previous answer\'s meta.pages.next'),
};

/** The arguments as the endpoint's query parameters (strings), dropping the ones not given. */
function params(args: Record<string, unknown>): Map<string, string> {
  const m = new Map<string, string>();
  for (const [k, v] of Object.entries(args)) if (v !== undefined && v !== null) m.set(k, String(v));
  return m;
}

function result(doc: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(doc) }], structuredContent: doc as Record<string, unknown> };
}

function failure(err: unknown): CallToolResult {
  const e = toApiError(err);
  const body = e.body();
  return { isError: true, content: [{ type: 'text', text: `${body.error}: ${body.message}${body.parameter ? ` (argument: ${String(body.parameter)})` : ''}\n${JSON.stringify(body)}` }] };
}

/** A new MCP server with the seven tools over `ctx`. */
export function createMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer({ name: 'propintel-da', version: VERSION }, { instructions: 'Australian development applications (DAs): search and filter them, find them near a point, read one in full, list councils and categories, get totals, or run read-only SQL over the das table. Dates are YYYY-MM-DD; coordinates WGS84.' });

  const listing = (op: DaOperation, path: (args: Record<string, unknown>) => string, id?: (args: Record<string, unknown>) => string) => async (args: Record<string, unknown>): Promise<CallToolResult> => {
    try {
      await ctx.beforeCall?.();
      const rest = { ...args };
      if (id) delete rest.id;
      return result(daDocument(ctx.das, op, params(rest), path(args), id ? id(args) : ''));
    } catch (err) {
      return failure(err);
    }
  };

  server.registerTool(
    'search_das',
    {
      title: 'Search development applications',
      description: 'List DAs newest lodged first, filtered by any of state, council, category, suburb, postcode, lodgement dates, status group and the residential flag (combined with AND). Returns records and meta.pages (total, and next with a cursor to continue).',
      inputSchema: {
        state: state.optional(),
        council: z.string().optional().describe('Exact council name as list_councils gives it (case ignored)'),
        category: category.optional(),
        suburb: z.string().optional().describe('Exact suburb name (case ignored)'),
        postcode: z.string().optional().describe('Four-digit postcode'),
        since: date('Lodged on or after').optional(),
        until: date('Lodged on or before').optional(),
        status_group: statusGroup.optional(),
        is_residential: z.boolean().optional().describe('Residential applications only (true) or non-residential only (false)'),
        ...paging,
      },
      annotations,
    },
    listing('list', () => '/v1/das'),
  );
  server.registerTool(
    'nearby_das',
    {
      title: 'DAs near a point',
      description: 'Geocoded DAs within radius_km (default 5, at most 50) of lat/lng, nearest first, each with distance_km; optionally filtered by category, lodged since, status group.',
      inputSchema: {
        lat: z.number().min(-90).max(90).describe('Latitude of the centre (WGS84)'),
        lng: z.number().min(-180).max(180).describe('Longitude of the centre (WGS84)'),
        radius_km: z.number().optional().describe('Search radius in km, above 0, at most 50 (default 5)'),
        category: category.optional(),
        since: date('Lodged on or after').optional(),
        status_group: statusGroup.optional(),
        ...paging,
      },
      annotations,
    },
    listing('nearby', () => '/v1/das/nearby'),
  );
  server.registerTool(
    'get_da',
    {
      title: 'One development application',
      description: 'Every field of one DA by its id, with a plain-English summary made by a fixed template.',
      inputSchema: { id: z.number().int().min(1).describe('The DA id (as search_das and nearby_das give it)') },
      annotations,
    },
    listing('get', (a) => `/v1/das/${a.id}`, (a) => String(a.id)),
  );
  server.registerTool(
    'list_councils',
    { title: 'Councils', description: 'Every council holding DAs: state, record count, last update, geocoded and status shares; optionally one state.', inputSchema: { state: state.optional() }, annotations },
    listing('councils', () => '/v1/councils'),
  );
  server.registerTool(
    'list_categories',
    { title: 'Categories', description: 'The 21 DA categories with slug, name and record count (zero included); optionally one state.', inputSchema: { state: state.optional() }, annotations },
    listing('categories', () => '/v1/categories'),
  );
  server.registerTool(
    'get_stats',
    { title: 'Totals', description: 'Total DAs and councils, geocoded share, counts by state, category and status group, the lodgement date range and the latest fetch.', inputSchema: {}, annotations },
    listing('stats', () => '/v1/stats'),
  );
  server.registerTool(
    'sql_query',
    {
      title: 'Read-only SQL over DAs',
      description:
        'One SELECT (or WITH ... SELECT) over the table das (id, address, address_suburb, address_postcode, council_name, council_reference, state, trade_category, sub_category, application_type, is_residential, lodgement_date, status, cost_of_development, decision_date, decision_status, on_notice_from, on_notice_to, number_of_dwellings, lot_count, land_use, building_type, storeys, latitude, longitude, data_source, date_fetched, info_url). Positional ? parameters in params. At most 1,000 rows (truncated says when cut) and 10 s. Example: SELECT state, count(*) AS n FROM das GROUP BY state ORDER BY n DESC',
      inputSchema: {
        query: z.string().describe('The SQL query'),
        params: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).optional().describe('Values for the ? placeholders, in order'),
      },
      annotations,
    },
    async (args): Promise<CallToolResult> => {
      try {
        if (!ctx.sqlAllowed || !ctx.sql) throw new ApiError('not_licensed', 'this key does not include the SQL endpoint; a key made with `propintel keys create --da-daily-limit N --sql` does', { requested: ['sql'] });
        await ctx.beforeCall?.();
        return result(await runSql(ctx.sql(), args.query, args.params));
      } catch (err) {
        return failure(err);
      }
    },
  );
  return server;
}

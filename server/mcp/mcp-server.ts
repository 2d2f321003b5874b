/**
 * The DA listing as a Model Context Protocol server (the official TypeScript SDK): seven tools, each calling
 * the same library function as its HTTP endpoint (server/api/da-handlers.ts), so an agent gets the same
 * answers and the same error bodies a client of /v1/das does.
 *
 * Tools: search_das, nearby_das, get_da, list_councils, list_categories, get_stats and sql_query (the names
 * and parameters of the original service's tools). All are read-only (`readOnlyHint`, `openWorldHint:
 * false`), and each declares an `outputSchema`: the JSON Schema of its endpoint's document (the same one the
 * OpenAPI document publishes), which every result's `structuredContent` satisfies; the text content carries
 * the same JSON for older clients.
 *
 * Arguments are checked here, not by the SDK, so that arguments breaking a tool's input schema come back as
 * the API does: a tool result with `isError: true` whose text is the API's error body (`{error, message,
 * parameter}`: `invalid_parameter`, or `unknown_parameter` for an argument the tool does not take), which the
 * model can act on. Protocol errors are kept for malformed protocol messages (and an unknown tool name).
 *
 * The tool list is per caller: sql_query is listed only for a caller allowed to run SQL (a key with the SQL
 * entitlement over HTTP; stdio without `--no-sql`), and calling it otherwise answers `not_licensed`.
 *
 * Transports: stdio (`propintel mcp`, cli/commands/mcp.ts, through ./stdio-transport.ts) and Streamable HTTP
 * at `POST /mcp` on the main server (server/api/api.ts), stateless: a fresh server and transport per request.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { STATES } from '../../engine/entry/data.js';
import { DA_CATEGORIES, DA_CATEGORIES_SCHEMA, DA_COUNCILS_SCHEMA, DA_DETAIL_SCHEMA, DA_LIST_SCHEMA, DA_NEARBY_SCHEMA, DA_STATS_SCHEMA, STATUS_GROUPS } from '../../engine/entry/das.js';
import type { DaReader, SqlRunner } from '../../engine/entry/das.js';
import { VERSION } from '../../engine/index.js';
import { ApiError, toApiError } from '../http/api-error.js';
import { daDocument } from '../api/da-handlers.js';
import type { DaOperation } from '../api/da-handlers.js';
import { runSql, SQL_DOCUMENT_SCHEMA } from '../api/sql-handler.js';

/** What the tools need. */
export interface McpContext {
  das: () => DaReader;
  /** The SQL runner for sql_query; its absence (or `sqlAllowed: false`) leaves sql_query unlisted and not_licensed. */
  sql?: () => SqlRunner;
  /** Whether the caller may run SQL (the key's entitlement over HTTP; stdio unless `--no-sql`). */
  sqlAllowed: boolean;
  /** Who the caller is for the SQL runner's fair share (a key's id; stdio: one tenant). */
  tenant?: string;
  /** Runs before each tool call: the DA daily limit over HTTP (throws ApiError 429 when used up). */
  beforeCall?: () => Promise<void> | void;
}

/** The seven tools' names. */
export const MCP_TOOLS = ['search_das', 'nearby_das', 'get_da', 'list_councils', 'list_categories', 'get_stats', 'sql_query'] as const;
/** A tool's name. */
export type McpToolName = (typeof MCP_TOOLS)[number];

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

/** One tool: what it is listed as, and what a call runs. */
interface ToolSpec {
  name: McpToolName;
  title: string;
  description: string;
  input: z.ZodObject;
  output: Record<string, unknown>;
  run: (args: Record<string, unknown>, ctx: McpContext) => unknown;
}

/** The arguments as the endpoint's query parameters (strings), dropping the ones not given. */
function params(args: Record<string, unknown>): Map<string, string> {
  const m = new Map<string, string>();
  for (const [k, v] of Object.entries(args)) if (v !== undefined && v !== null) m.set(k, String(v));
  return m;
}

/** A listing tool: its endpoint's document, from the same function the endpoint calls. */
const listing = (op: DaOperation, path: (args: Record<string, unknown>) => string) => (args: Record<string, unknown>, ctx: McpContext) => {
  const { id, ...rest } = args;
  return daDocument(ctx.das, op, params(op === 'get' ? rest : args), path(args), op === 'get' ? String(id) : '');
};

const TOOLS: readonly ToolSpec[] = [
  {
    name: 'search_das',
    title: 'Search development applications',
    description: 'List DAs newest lodged first, filtered by any of state, council, category, suburb, postcode, lodgement dates, status group and the residential flag (combined with AND). Returns records and meta.pages (total, and next with a cursor to continue).',
    input: z.strictObject({
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
    }),
    output: DA_LIST_SCHEMA,
    run: listing('list', () => '/v1/das'),
  },
  {
    name: 'nearby_das',
    title: 'DAs near a point',
    description: 'Geocoded DAs within radius_km (default 5, at most 50) of lat/lng, nearest first, each with distance_km; optionally filtered by category, lodged since, status group.',
    input: z.strictObject({
      lat: z.number().min(-90).max(90).describe('Latitude of the centre (WGS84)'),
      lng: z.number().min(-180).max(180).describe('Longitude of the centre (WGS84)'),
      radius_km: z.number().optional().describe('Search radius in km, above 0, at most 50 (default 5)'),
      category: category.optional(),
      since: date('Lodged on or after').optional(),
      status_group: statusGroup.optional(),
      ...paging,
    }),
    output: DA_NEARBY_SCHEMA,
    run: listing('nearby', () => '/v1/das/nearby'),
  },
  {
    name: 'get_da',
    title: 'One development application',
    description: 'Every field of one DA by its id, with a plain-English summary made by a fixed template.',
    input: z.strictObject({ id: z.number().int().min(1).describe('The DA id (as search_das and nearby_das give it)') }),
    output: DA_DETAIL_SCHEMA,
    run: listing('get', (a) => `/v1/das/${a.id}`),
  },
  {
    name: 'list_councils',
    title: 'Councils',
    description: 'Every council holding DAs: state, record count, last update, geocoded and status shares; optionally one state.',
    input: z.strictObject({ state: state.optional() }),
    output: DA_COUNCILS_SCHEMA,
    run: listing('councils', () => '/v1/councils'),
  },
  {
    name: 'list_categories',
    title: 'Categories',
    description: 'The 21 DA categories with slug, name and record count (zero included); optionally one state.',
    input: z.strictObject({ state: state.optional() }),
    output: DA_CATEGORIES_SCHEMA,
    run: listing('categories', () => '/v1/categories'),
  },
  {
    name: 'get_stats',
    title: 'Totals',
    description: 'Total DAs and councils, geocoded share, counts by state, category and status group, the lodgement date range and the latest fetch.',
    input: z.strictObject({}),
    output: DA_STATS_SCHEMA,
    run: listing('stats', () => '/v1/stats'),
  },
  {
    name: 'sql_query',
    title: 'Read-only SQL over DAs',
    description:
      'One SELECT (or WITH ... SELECT) over the table das (id, address, address_suburb, address_postcode, council_name, council_reference, state, trade_category, sub_category, application_type, is_residential, lodgement_date, status, cost_of_development, decision_date, decision_status, on_notice_from, on_notice_to, number_of_dwellings, lot_count, land_use, building_type, storeys, latitude, longitude, data_source, date_fetched, info_url). Positional ? parameters in params. At most 1,000 rows (truncated says when cut) and 10 s. Example: SELECT state, count(*) AS n FROM das GROUP BY state ORDER BY n DESC',
    input: z.strictObject({
      query: z.string().describe('The SQL query'),
      params: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).optional().describe('Values for the ? placeholders, in order'),
    }),
    output: SQL_DOCUMENT_SCHEMA,
    run: (args, ctx) => runSql(ctx.sql!(), args.query, args.params, ctx.tenant ?? ''),
  },
];

/** A tool as `tools/list` gives it: its input schema from its zod definition, its output schema from the API's. */
function listed(t: ToolSpec): Tool {
  const { $schema: _drop, ...inputSchema } = z.toJSONSchema(t.input, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  return { name: t.name, title: t.title, description: t.description, inputSchema: inputSchema as Tool['inputSchema'], outputSchema: t.output as Tool['outputSchema'], annotations };
}
const LISTED = new Map(TOOLS.map((t) => [t.name, listed(t)]));

/** The API's error body as a tool result (`isError`), its text the JSON body. */
function failure(err: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(toApiError(err).body()) }] };
}

/** The first problem of arguments that break `input`, as the API's error: the argument named. */
function argumentError(tool: ToolSpec, error: z.ZodError): ApiError {
  const issue = error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const name = String(issue.keys[0]);
    const takes = Object.keys(tool.input.shape);
    return new ApiError('unknown_parameter', `${JSON.stringify(name.slice(0, 60))} is not an argument of ${tool.name}; ${takes.length ? `it takes ${takes.join(', ')}` : 'it takes none'}`, { parameter: name.slice(0, 60) });
  }
  const name = issue.path.length ? issue.path.map(String).join('.') : 'arguments';
  return new ApiError('invalid_parameter', `${name}: ${issue.message}`, { parameter: name });
}

/**
 * `tools/call` as the protocol defines it, but with any `arguments`: arguments that are not an object reach the
 * tool and are refused as the API refuses a bad parameter, naming `arguments`.
 */
const LOOSE_CALL_TOOL = CallToolRequestSchema.extend({ params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }) });

/** The tools a caller is offered. */
function offered(ctx: McpContext): ToolSpec[] {
  return TOOLS.filter((t) => t.name !== 'sql_query' || (ctx.sqlAllowed && ctx.sql));
}

/** A new MCP server with the tools over `ctx`. */
export function createMcpServer(ctx: McpContext): Server {
  const server = new Server(
    { name: 'propintel-da', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions: 'Australian development applications (DAs): search and filter them, find them near a point, read one in full, list councils and categories, get totals, or run read-only SQL over the das table. Dates are YYYY-MM-DD; coordinates WGS84.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: offered(ctx).map((t) => LISTED.get(t.name)!) }));
  // Registered past Server's own tools/call wrapper, which would answer arguments that are not an object with a
  // -32602 validation dump before any tool saw them (Protocol's method, which the wrapper itself calls).
  const register = Object.getPrototypeOf(Server.prototype).setRequestHandler as Server['setRequestHandler'];
  register.call(server, LOOSE_CALL_TOOL, async (request): Promise<CallToolResult> => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    // A protocol error (-32602, as MCP says of an unknown tool), thrown as an Error with that code rather than an
    // McpError: McpError writes "MCP error -32602: " into its message, and a client's SDK adds it again.
    if (!tool) throw Object.assign(new Error(`no tool ${JSON.stringify(request.params.name.slice(0, 60))}; the tools are ${offered(ctx).map((t) => t.name).join(', ')}`), { code: ErrorCode.InvalidParams });
    try {
      if (tool.name === 'sql_query' && !(ctx.sqlAllowed && ctx.sql)) throw new ApiError('not_licensed', 'this key does not include the SQL endpoint; a key made with `propintel keys create --da-daily-limit N --sql` does', { requested: ['sql'] });
      // Counted before the arguments are checked, as a request to the endpoint is (a refused one counts too).
      await ctx.beforeCall?.();
      const args = request.params.arguments ?? {};
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new ApiError('invalid_parameter', `arguments must be an object of ${tool.name}'s arguments, not ${Array.isArray(args) ? 'a list' : JSON.stringify(args).slice(0, 40)}`, { parameter: 'arguments' });
      const parsed = tool.input.safeParse(args);
      if (!parsed.success) throw argumentError(tool, parsed.error);
      const doc = (await tool.run(parsed.data as Record<string, unknown>, ctx)) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(doc) }], structuredContent: doc };
    } catch (err) {
      return failure(err);
    }
  });
  return server;
}

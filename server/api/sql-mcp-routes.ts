/**
 * The read-only SQL endpoint (`POST /v1/sql`) and the MCP server (`POST /mcp`, Streamable HTTP, stateless),
 * both over the DA store's SQL mirror, on a key with the DA listing (and the SQL entitlement for SQL).
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlRunner, type DaReader } from '../../engine/entry/das.js';
import { hasDaListing, limitDaRequest } from '../metering/request-limits.js';
import type { ApiKeyRecord } from '../store/store.js';
import { ApiError, badParameter, toApiError } from '../http/api-error.js';
import { JSON_TYPE, refuseLargeBody, refusePlayground, requireDas, type ApiContext, type ApiRequest, type ApiResponse } from './api-types.js';
import { SMALL_BODY } from '../http/limits.js';
import { decodeQuery, rejectUnknown } from './query.js';
import { runSql } from './sql-handler.js';
import { jsonBody } from './webhook-handlers.js';
import { mcpDoc, sqlDoc } from './operation-docs.js';
import type { RouteValue } from './route-value.js';

/** The SQL and MCP routes of one API. */
export class SqlMcpRoutes {
  private ownSqlRunner: SqlRunner | undefined;

  constructor(
    private readonly ctx: ApiContext,
    private sqlRunner: SqlRunner | undefined,
  ) {}

  /** The SQL runner, made on first use when the server was given none (its mirror a scratch file). */
  sqlRunnerFor(das: () => DaReader): SqlRunner {
    return (this.sqlRunner ??= this.ownSqlRunner = new SqlRunner({ mirror: join(tmpdir(), `propintel-sql-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`), das, temporary: true }));
  }

  /** Releases what the API made for itself (the SQL runner and its scratch mirror); the server calls it when it stops. */
  close(): void {
    this.ownSqlRunner?.close();
    this.ownSqlRunner = undefined;
  }

  /**
   * A read-only SQL request: licence and SQL entitlement (403) -> the DA daily limit (429) -> the body (413,
   * 422) -> the runner, which keeps each key to its share (429 `too_many_queries`; MCP's calls count in the
   * same share) -> 422 for a refused, failed, too large or timed-out query, 503 when busy -> 200.
   */
  async sql(req: ApiRequest, key: ApiKeyRecord, client: string): Promise<ApiResponse> {
    await refusePlayground(this.ctx, key, client, 'the SQL endpoint');
    if (!hasDaListing(key) || !key.sql) {
      throw new ApiError('not_licensed', 'this key does not include the SQL endpoint; a key made with `propintel keys create --da-daily-limit N --sql` does', { requested: ['sql'] });
    }
    const das = requireDas(this.ctx);
    const limits = await limitDaRequest(this.ctx.store, key, client, this.ctx.clock());
    try {
      rejectUnknown(decodeQuery(req.query), [], req.path);
      const body = jsonBody(req.body, req.bodyTooLarge || (req.body?.length ?? 0) > SMALL_BODY, SMALL_BODY);
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw badParameter('body', 'the body must be a JSON object: {"query": "SELECT ...", "params": [...]}');
      for (const k of Object.keys(body)) if (k !== 'query' && k !== 'params') throw badParameter(k, `unknown field ${JSON.stringify(k)}; the fields are query and params`, 'unknown_parameter');
      const { query, params } = body as { query?: unknown; params?: unknown };
      const result = await runSql(this.sqlRunnerFor(das), query, params, key.id);
      return { status: 200, contentType: JSON_TYPE, headers: { ...limits, 'Cache-Control': 'no-store' }, body: JSON.stringify(result) };
    } catch (err) {
      const e = toApiError(err);
      Object.assign(e.headers, limits);
      throw e;
    }
  }

  /**
   * One MCP message over Streamable HTTP, stateless (a fresh server and transport per request, as the SDK
   * requires without sessions) and with JSON responses. Each tool call counts against the key's DA daily
   * limit; over it, the call's result is an error naming daily_limit_exceeded.
   */
  async mcp(req: ApiRequest, key: ApiKeyRecord, client: string): Promise<ApiResponse> {
    await refusePlayground(this.ctx, key, client, 'the MCP server');
    if (!hasDaListing(key)) {
      throw new ApiError('not_licensed', 'the MCP server serves the DA listing; a key made with `propintel keys create --da-daily-limit N` has it', { requested: ['da_listing'] });
    }
    const das = requireDas(this.ctx);
    refuseLargeBody(req);
    // JSON-RPC 2.0: an empty batch is an invalid request (the SDK's transport would accept it with 202).
    if (req.body && /^\s*\[\s*\]\s*$/.test(req.body.toString('utf8'))) {
      return { status: 400, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } }) };
    }
    // A batch with invalid members: each answered -32600 here, the rest handed on, as the stdio server does
    // (the SDK's HTTP transport refuses the whole batch with -32700 for one bad member).
    let body = req.body ? req.body.toString('utf8') : '';
    const invalid: object[] = [];
    let withInvalid = false;
    if (/^\s*\[/.test(body)) {
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        value = null;
      }
      if (Array.isArray(value)) {
        const { JSONRPCMessageSchema } = await import('@modelcontextprotocol/sdk/types.js');
        const { errorMessage, idInUse, idOf, MAX_BATCH } = await import('../mcp/stdio-transport.js');
        if (value.length > MAX_BATCH) return { status: 400, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify(errorMessage(null, -32600, `Invalid Request: a batch of ${value.length} messages; at most ${MAX_BATCH}`)) };
        const good: unknown[] = [];
        const ids = new Set<string | number>();
        for (const item of value) {
          const parsed = JSONRPCMessageSchema.safeParse(item);
          if (!parsed.success) invalid.push(errorMessage(idOf(item), -32600, 'Invalid Request: not a JSON-RPC 2.0 message'));
          else if ('method' in parsed.data && 'id' in parsed.data && ids.has(parsed.data.id)) invalid.push(idInUse(parsed.data.id));
          else {
            if ('method' in parsed.data && 'id' in parsed.data) ids.add(parsed.data.id);
            good.push(item);
          }
        }
        if (invalid.length && !good.length) return { status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify(invalid) };
        if (invalid.length) body = JSON.stringify(good);
        withInvalid = invalid.length > 0;
      }
    }
    const { createMcpServer } = await import('../mcp/mcp-server.js');
    const { WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
    const server = createMcpServer({
      das,
      sql: () => this.sqlRunnerFor(das),
      sqlAllowed: key.sql,
      tenant: key.id,
      beforeCall: async () => {
        await limitDaRequest(this.ctx.store, key, client, this.ctx.clock());
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const headers: Record<string, string> = { 'content-type': req.contentType || 'application/json', accept: req.accept ?? '' };
      if (req.mcpProtocolVersion) headers['mcp-protocol-version'] = req.mcpProtocolVersion;
      const res = await transport.handleRequest(new Request('http://localhost/mcp', { method: 'POST', headers, body }));
      const out: Record<string, string> = { 'Cache-Control': 'no-store' };
      res.headers.forEach((v, k) => {
        if (k !== 'content-type' && k !== 'content-length') out[k] = v;
      });
      let answer = Buffer.from(await res.arrayBuffer());
      if (withInvalid && (res.status === 200 || res.status === 202)) {
        // The invalid members' errors joined to the answers of the rest (none when the rest were notifications).
        const rest = res.status === 200 && answer.length ? (JSON.parse(answer.toString('utf8')) as unknown) : [];
        answer = Buffer.from(JSON.stringify([...(Array.isArray(rest) ? rest : [rest]), ...invalid]));
        return { status: 200, contentType: JSON_TYPE, headers: out, body: answer };
      }
      return { status: res.status, contentType: res.headers.get('content-type') ?? JSON_TYPE, headers: out, body: answer };
    } finally {
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    }
  }
}

/** `POST /v1/sql` at both prefixes. */
export const SQL_ROUTES: readonly RouteValue<{ sqlMcp: SqlMcpRoutes }>[] = ['/v1', '/api/v1'].map((prefix) => ({
  path: `${prefix}/sql`,
  tag: 'SQL and MCP',
      summary: 'Read-only SQL over the DA table',
      description:
        'POST `{"query": "SELECT ...", "params": [...]}`: one SELECT (or WITH ... SELECT) over the table `das` (id, address, address_suburb, address_postcode, council_name, council_reference, state, trade_category, sub_category, application_type, is_residential, lodgement_date, status, cost_of_development, decision_date, decision_status, on_notice_from, on_notice_to, number_of_dwellings, lot_count, land_use, building_type, storeys, latitude, longitude, data_source, date_fetched, info_url), with positional `?` parameters. At most 1,000 rows and 2 MiB of rows (`truncated` says when cut); 10 s from arrival, waiting for a free SQL process included (then 422 `query_timeout`); 512 MiB of memory for the query\'s sorts, temporary tables and values (then 422 `query_too_large`); per key one query running and one waiting, over this endpoint and MCP\'s sql_query together (a third is 429 `too_many_queries` at once), so one key never holds more than one of the 3 SQL processes. ATTACH, PRAGMA, load_extension and anything that is not a query are refused with 422 before running. Needs a key with the DA listing and the SQL entitlement (`propintel keys create --da-daily-limit N --sql`); each query counts against the daily limit.',
  operations: [{ method: 'POST', auth: 'key', doc: sqlDoc, handle: (c) => c.modules.sqlMcp.sql(c.req, c.key, c.client()) }],
}));

/** `POST /mcp`. */
export const MCP_ROUTES: readonly RouteValue<{ sqlMcp: SqlMcpRoutes }>[] = [
  {
    path: '/mcp',
    tag: 'SQL and MCP',
    summary: 'Model Context Protocol server (Streamable HTTP)',
    description:
      'The DA listing as seven MCP tools (search_das, nearby_das, get_da, list_councils, list_categories, get_stats, sql_query) over Streamable HTTP, stateless, JSON responses: POST JSON-RPC with `Accept: application/json, text/event-stream`. The same bearer keys and DA daily limit as the endpoints (a tool call counts as one request); sql_query needs the SQL entitlement. GET and DELETE are 405 (no sessions, no server-sent stream).',
    operations: [{ method: 'POST', auth: 'key', doc: mcpDoc, handle: (c) => c.modules.sqlMcp.mcp(c.req, c.key, c.client()) }],
  },
];

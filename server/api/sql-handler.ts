/**
 * `POST /v1/sql` and the MCP tool `sql_query`: one read-only query through the SQL runner
 * (engine/da/sql/sql-runner.ts), its refusals turned into the API's errors: 422 naming `query` or `params`
 * with the reason as the error code (`invalid_sql`, `not_a_query`, `forbidden_sql`, `invalid_parameter`,
 * `query_failed`, `query_timeout`, `query_too_large`), 429 `too_many_queries` when the key already has its
 * share of queries running and waiting (every path counts: HTTP and each MCP call), 503 when every SQL process
 * is busy and the queue is full.
 */
import { isEngineError } from '../../engine/index.js';
import { SQL_MAX_BYTES, SQL_MAX_ROWS, type SqlRunner } from '../../engine/entry/das.js';
import { ApiError, ERROR_STATUS, isErrorCode } from '../http/api-error.js';


/** The answer document of one query. */
export interface SqlDocument {
  columns: string[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
  truncated_by: 'rows' | 'bytes' | null;
  elapsed_ms: number;
  /** What a query may use: rows, bytes of rows, seconds (waiting included), memory, and a key's queries at once. */
  limits: { max_rows: number; max_bytes: number; timeout_s: number; memory_bytes: number; per_key: number };
}

/** The JSON Schema of {@link SqlDocument}: the OpenAPI 200 of `POST /v1/sql` and the `sql_query` tool's outputSchema. */
export const SQL_DOCUMENT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  required: ['columns', 'rows', 'row_count', 'truncated', 'truncated_by', 'elapsed_ms', 'limits'],
  properties: {
    columns: { type: 'array', items: { type: 'string' } },
    rows: { type: 'array', items: { type: 'object' }, description: 'Objects keyed by column name (duplicate names get _2, _3).' },
    row_count: { type: 'integer', minimum: 0 },
    truncated: { type: 'boolean' },
    truncated_by: { enum: ['rows', 'bytes', null] },
    elapsed_ms: { type: 'number', minimum: 0 },
    limits: {
      type: 'object',
      required: ['max_rows', 'max_bytes', 'timeout_s', 'memory_bytes', 'per_key'],
      properties: { max_rows: { type: 'integer' }, max_bytes: { type: 'integer' }, timeout_s: { type: 'number' }, memory_bytes: { type: 'integer' }, per_key: { type: 'integer' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

/** Runs one query for `tenant` (a key's id); throws ApiError for everything the runner refuses. */
export async function runSql(runner: SqlRunner, query: unknown, params: unknown, tenant: string): Promise<SqlDocument> {
  try {
    const r = await runner.run(query, params, tenant);
    return { columns: r.columns, rows: r.rows, row_count: r.rows.length, truncated: r.truncated, truncated_by: r.truncated_by, elapsed_ms: r.elapsed_ms, limits: { max_rows: SQL_MAX_ROWS, max_bytes: SQL_MAX_BYTES, timeout_s: runner.timeoutMs / 1000, memory_bytes: runner.memoryBytes, per_key: runner.perTenant } };
  } catch (err) {
    if (isEngineError(err)) {
      const d = (err.details ?? {}) as { parameter?: string; reason?: string; retry_after_s?: number; limit_s?: number; limit?: number; limit_bytes?: number };
      const retry = String(d.retry_after_s ?? 2);
      if (err.code === 'UNAVAILABLE' && d.reason === 'too_many_queries') throw new ApiError('too_many_queries', err.message, { limit: d.limit, retry_after_s: d.retry_after_s ?? 1 }, { 'Retry-After': retry });
      if (err.code === 'UNAVAILABLE') throw new ApiError('service_unavailable', err.message, { retry_after_s: d.retry_after_s ?? 2 }, { 'Retry-After': retry });
      if (err.code === 'INVALID_ARGUMENT') throw new ApiError(isErrorCode(d.reason) && ERROR_STATUS[d.reason] === 422 ? d.reason : 'invalid_parameter', err.message, { parameter: d.parameter ?? 'query', ...(d.limit_s ? { limit_s: d.limit_s } : {}), ...(d.limit_bytes ? { limit_bytes: d.limit_bytes } : {}) });
    }
    throw err;
  }
}

// The conformance suite (issue 34): every operation of both served OpenAPI documents, and every status each
// documents, is requested for real over HTTP on the sample world, and the answer (status, content type, body,
// documented headers) is validated against the document with third-party tools: @apidevtools/swagger-parser
// checks the documents themselves, Ajv 2020 with ajv-formats checks each body against the schema the document
// gives for that status and media type. An operation or documented status without a case fails the suite (so
// an endpoint cannot land undocumented or untested), as does a case whose status the document does not list.
// HEAD is checked wherever GET is: the GET's status and headers, and no body.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GUIDES, guidePath } from '../../server/openapi/guide-pages.js';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ajv2020 } from '../helpers/ajv.js';
import type { PropertyService } from '../../engine/property/kit/contract.js';
import { ERROR_STATUS } from '../../server/http/api-error.js';
import { childcareOpenApi } from '../../server/childcare/childcare-pages.js';
import { startServer, type StartedServer } from '../../server/http-server.js';
import { createKey, type KeySpec } from '../../server/keys/key-admin.js';
import { openApiDocument } from '../../server/openapi/openapi.js';
import { WebhookDispatcher } from '../../server/webhooks/webhook-dispatcher.js';
import { jobFromUpload, newBatchId } from '../../server/batch/batch-jobs.js';
import { BatchRunner } from '../../server/batch/batch-runner.js';
import { BATCH_MAX_BODY } from '../../server/http/limits.js';
import { playgroundKey } from '../../server/keys/playground-key.js';
import { StoreUnavailableError } from '../../server/store/store.js';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { openStack, type Stack } from '../../server/stack.js';
import { Receiver } from '../helpers/receiver.js';


type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type DocName = 'main' | 'childcare';
/**
 * Which server answers: the sample world's; one without samples, tiles or playground; one whose tiles need a
 * key (as on real data); one whose shared database does not answer (every keyed operation's 503).
 */
type ServerName = 'main' | 'bare' | 'keyedTiles' | 'storeDown';

/** A request to send. */
interface Req {
  method?: string;
  /** The concrete path, with a query string if any. */
  path: string;
  key?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  server?: ServerName;
}

/** One request and the status the document says it gets. */
interface Case {
  /** `METHOD /templated/path`, as in the document. */
  op: string;
  status: number;
  /** What the case shows (the test's name). */
  what: string;
  request: (c: Ctx) => Req | Promise<Req>;
  /** The documents this answer is checked against (default: every document that describes the operation). */
  docs?: DocName[];
  /** The `error` code expected, for an error answer. */
  code?: string;
}

/** Statuses no case makes, each with the reason (none today); a stale entry fails the suite. */
const EXEMPT: { op: RegExp; status: number; why: string }[] = [];

interface Ctx {
  url: Record<ServerName, string>;
  keys: { full: string; noGeometry: string; da: string; daSql: string; childcare: string; noDa: string; batchBusy: string; batchFull: string };
  /** Street addresses that are not sandbox addresses. */
  address: string;
  otherAddress: string;
  /** The playground's demo key, with this minute's requests from this address used up. */
  spentPlayground(): Promise<string>;
  /** A key made now with `spec`. */
  key(spec: KeySpec): Promise<string>;
  daId: number;
  webhook: string;
  disabledWebhook: string;
  /** A finished batch job of keys.full. */
  batch: string;
  /** A batch job made now (for DELETE). */
  newBatch(prefix: string): Promise<string>;
  /** A subscription made now (for DELETE). */
  newWebhook(prefix: string): Promise<string>;
  receiver: string;
  tile: { z: number; x: number; y: number };
  tileEtag: string;
  terrainEtag: string;
}

const NSW = { lat: -33.8212, lng: 151.008 };
/** The main server's batch limits: room for the cases' own jobs, and a small store to fill. */
const BATCH_LIMITS = { jobs: 32, storedBytes: 256 * 1024 };
const SANDBOX_VIC = '91 Cumberland Grove, Northcote VIC 3070';
const json = (o: unknown) => JSON.stringify(o);
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'conformance', version: '1' } } };
/** A square catchment of `half` degrees around the NSW site. */
const square = (half: number) => ({ type: 'Polygon', coordinates: [[[NSW.lng - half, NSW.lat - half], [NSW.lng + half, NSW.lat - half], [NSW.lng + half, NSW.lat + half], [NSW.lng - half, NSW.lat + half], [NSW.lng - half, NSW.lat - half]]] });
const bowtie = { type: 'Polygon', coordinates: [[[NSW.lng - 0.01, NSW.lat - 0.01], [NSW.lng + 0.01, NSW.lat + 0.01], [NSW.lng + 0.01, NSW.lat - 0.01], [NSW.lng - 0.01, NSW.lat + 0.01], [NSW.lng - 0.01, NSW.lat - 0.01]]] };
const site = `lat=${NSW.lat}&lng=${NSW.lng}&radius_km=2&state=NSW`;

const cases: Case[] = [];
const add = (op: string, status: number, what: string, request: Case['request'], extra: Partial<Case> = {}) => cases.push({ op, status, what, request, ...extra });

// Batch jobs: a CSV of two sandbox addresses (never metered).
const BATCH_CSV = `ref,address\nA,"${SANDBOX_VIC}"\nB,"zzzz qqqq xxxx"\n`;
const csvUpload = { 'content-type': 'text/csv' };
for (const prefix of ['/v1', '/api/v1']) {
  const b = `${prefix}/batch`;
  add(`POST ${b}`, 202, 'a CSV of addresses', (c) => ({ method: 'POST', path: b, key: c.keys.full, headers: csvUpload, body: BATCH_CSV }));
  add(`POST ${b}`, 202, 'JSON lines with a callback', (c) => ({ method: 'POST', path: `${b}?callback_url=${encodeURIComponent(`${c.receiver}/batch`)}&format=geojson`, key: c.keys.full, headers: { 'content-type': 'application/x-ndjson' }, body: `{"address":"${SANDBOX_VIC}"}\n{"lat":-37.8,"lng":"x"}\n` }));
  add(`POST ${b}`, 403, 'include_geometry without the geometry licence', (c) => ({ method: 'POST', path: `${b}?include_geometry=1`, key: c.keys.noGeometry, headers: csvUpload, body: BATCH_CSV }), { code: 'not_licensed' });
  add(`POST ${b}`, 413, 'an upload past 128 MiB', (c) => ({ method: 'POST', path: b, key: c.keys.full, headers: csvUpload, body: Buffer.alloc(BATCH_MAX_BODY + 1, 0x20) }), { code: 'payload_too_large' });
  add(`POST ${b}`, 413, 'a key whose kept jobs hold its stored-bytes limit', (c) => ({ method: 'POST', path: b, key: c.keys.batchFull, headers: csvUpload, body: BATCH_CSV }), { code: 'batch_storage_full' });
  add(`POST ${b}`, 429, 'a key with its limit of jobs queued or running', (c) => ({ method: 'POST', path: b, key: c.keys.batchBusy, headers: csvUpload, body: BATCH_CSV }), { code: 'too_many_batch_jobs' });
  add(`POST ${b}`, 415, 'a JSON body', (c) => ({ method: 'POST', path: b, key: c.keys.full, headers: { 'content-type': 'application/json' }, body: '[]' }), { code: 'unsupported_media_type' });
  add(`POST ${b}`, 422, 'a CSV without an address column', (c) => ({ method: 'POST', path: b, key: c.keys.full, headers: csvUpload, body: 'name,suburb\nx,y\n' }), { code: 'invalid_body' });
  add(`POST ${b}`, 422, 'an unknown format', (c) => ({ method: 'POST', path: `${b}?format=xlsx`, key: c.keys.full, headers: csvUpload, body: BATCH_CSV }), { code: 'invalid_parameter' });
  add(`GET ${b}/{id}`, 200, 'a job', (c) => ({ path: `${b}/${c.batch}`, key: c.keys.full }));
  add(`GET ${b}/{id}`, 404, 'another key\'s job', (c) => ({ path: `${b}/${c.batch}`, key: c.keys.noGeometry }), { code: 'not_found' });
  add(`DELETE ${b}/{id}`, 200, 'a queued job', async (c) => ({ method: 'DELETE', path: `${b}/${await c.newBatch(prefix)}`, key: c.keys.full }));
  add(`DELETE ${b}/{id}`, 404, 'no such job', (c) => ({ method: 'DELETE', path: `${b}/batch_00000000000000000000`, key: c.keys.full }), { code: 'not_found' });
  for (const format of ['csv', 'jsonl', 'geojson']) add(`GET ${b}/{id}/results`, 200, `the results as ${format}`, (c) => ({ path: `${b}/${c.batch}/results?format=${format}`, key: c.keys.full }));
  add(`GET ${b}/{id}/results`, 404, 'no such job', (c) => ({ path: `${b}/batch_doesnotexist/results`, key: c.keys.full }), { code: 'not_found' });
  add(`GET ${b}/{id}/results`, 422, 'an unknown format', (c) => ({ path: `${b}/${c.batch}/results?format=xml`, key: c.keys.full }), { code: 'invalid_parameter' });
}

// The property endpoints (spec 4, 7).
for (const [path, variant] of [['/api/v1/property', 'full'], ['/api/v1/property/core', 'core']] as const) {
  const op = `GET ${path}`;
  add(op, 200, 'a sandbox address', (c) => ({ path: `${path}?address=${encodeURIComponent(SANDBOX_VIC)}`, key: c.keys.full }));
  add(op, 403, 'include_geometry without the geometry licence', (c) => ({ path: `${path}?address=${encodeURIComponent(SANDBOX_VIC)}&include_geometry=1`, key: c.keys.noGeometry }), { code: 'not_licensed' });
  add(op, 422, 'one coordinate only', (c) => ({ path: `${path}?lat=-37.75`, key: c.keys.full }), { code: 'invalid_subject' });
  add(op, 422, 'a point no dataset covers', (c) => ({ path: `${path}?lat=-25&lng=135`, key: c.keys.full }), { code: 'outside_coverage' });
  add(op, 422, 'an address that resolves to nothing', (c) => ({ path: `${path}?address=${encodeURIComponent('zzzz qqqq xxxx')}`, key: c.keys.full }), { code: 'address_unresolvable' });
  add(op, 429, 'a new address past the quota', async (c) => ({ path: `${path}?address=${encodeURIComponent(c.address)}`, key: await c.key({ components: 'all', quota: 0 }) }), { code: 'quota_exceeded' });
  if (variant === 'full') {
    // The noise model's CNOSSOS-EU method (issue 49): the score and the grid, validated as every 200 is.
    add(op, 200, 'noise_method=cnossos with the noise surface', (c) => ({ path: `${path}?address=${encodeURIComponent(SANDBOX_VIC)}&components=scores.noise&include_surfaces=1&surfaces=noise&noise_method=cnossos`, key: c.keys.full }));
    add(op, 422, 'a noise_method that is not one', (c) => ({ path: `${path}?address=${encodeURIComponent(SANDBOX_VIC)}&noise_method=iso9613`, key: c.keys.full }), { code: 'invalid_parameter' });
  }
  void variant;
}

// Samples and the sandbox list (keyless).
for (const name of ['', '/core', '/walkability', '/flood', '/bushfire', '/context', '/contamination']) {
  const path = `/api/v1/property/sample${name}`;
  add(`GET ${path}`, 200, 'the canned sample', () => ({ path }));
  add(`GET ${path}`, 404, 'a server without datasets/samples', () => ({ path, server: 'bare' }), { code: 'sample_unavailable' });
}
add('GET /api/v1/property/sandbox', 200, 'the twelve addresses', () => ({ path: '/api/v1/property/sandbox' }));

// The DA listing at both prefixes (spec 4.1).
for (const prefix of ['/v1', '/api/v1']) {
  const da = (path: string, what: string, query: (c: Ctx) => string) => {
    const op = `GET ${prefix}${path}`;
    const concrete = (c: Ctx) => `${prefix}${path.replace('{id}', String(c.daId))}`;
    add(op, 200, what, (c) => ({ path: `${concrete(c)}${query(c)}`, key: c.keys.da }), { docs: ['main'] });
    add(op, 403, 'a key without the DA listing', (c) => ({ path: concrete(c), key: c.keys.noDa }), { code: 'not_licensed', docs: ['main'] });
    add(op, 429, 'a key whose daily limit is used up', async (c) => ({ path: concrete(c), key: await c.key({ components: 'none', daDailyLimit: 0 }) }), { code: 'daily_limit_exceeded', docs: ['main'] });
  };
  da('/das', 'NSW, five a page', () => '?state=NSW&per_page=5');
  da('/das/nearby', 'within 2 km of a NSW point', () => `?lat=${NSW.lat}&lng=${NSW.lng}&radius_km=2`);
  da('/das/{id}', 'one record', () => '');
  da('/categories', 'VIC counts', () => '?state=VIC');
  da('/councils', 'every council', () => '');
  da('/stats', 'the totals', () => '');
  add(`GET ${prefix}/das`, 422, 'per_page above 100', (c) => ({ path: `${prefix}/das?per_page=101`, key: c.keys.da }), { code: 'invalid_parameter', docs: ['main'] });
  add(`GET ${prefix}/das/nearby`, 422, 'no centre', (c) => ({ path: `${prefix}/das/nearby`, key: c.keys.da }), { code: 'invalid_parameter' });
  add(`GET ${prefix}/das/{id}`, 404, 'an id no record has', (c) => ({ path: `${prefix}/das/999999999`, key: c.keys.da }), { code: 'da_not_found' });
  add(`GET ${prefix}/das/{id}`, 422, 'an id that is not a number', (c) => ({ path: `${prefix}/das/abc`, key: c.keys.da }), { code: 'invalid_parameter' });
}
// On a childcare key, /api/v1/das is the childcare feed (spec 4.1): the childcare document describes it.
add('GET /api/v1/das', 200, 'the childcare feed', (c) => ({ path: '/api/v1/das?state=NSW&per_page=5', key: c.keys.childcare }));
add('GET /api/v1/das', 400, 'the feed with an impossible since', (c) => ({ path: '/api/v1/das?since=2026-02-30', key: c.keys.childcare }), { code: 'invalid_date' });
add('GET /api/v1/das', 403, 'the feed for a state outside the entitlement', (c) => ({ path: '/api/v1/das?state=QLD', key: c.keys.childcare }), { code: 'state_not_entitled', docs: ['childcare'] });
add('GET /api/v1/das', 422, 'the feed with a listing-only filter', (c) => ({ path: '/api/v1/das?council=x', key: c.keys.childcare }), { code: 'unknown_parameter', docs: ['childcare'] });
add('GET /api/v1/das', 429, 'the feed past the childcare daily limit', async (c) => ({ path: '/api/v1/das', key: await c.key({ components: 'none', childcareStates: ['NSW'], childcareAddOn: 'childcare_market_intelligence', childcareDailyLimit: 0 }) }), { code: 'daily_limit_exceeded', docs: ['childcare'] });

// Webhooks at both prefixes.
for (const prefix of ['/v1', '/api/v1']) {
  const w = `${prefix}/webhooks`;
  add(`POST ${w}`, 201, 'a subscription', (c) => ({ method: 'POST', path: w, key: c.keys.da, headers: { 'content-type': 'application/json' }, body: json({ url: `${c.receiver}/hook`, events: ['da.created'], state: 'NSW' }) }));
  add(`POST ${w}`, 422, 'an ftp URL', (c) => ({ method: 'POST', path: w, key: c.keys.da, body: json({ url: 'ftp://example.com/x', events: ['da.created'] }) }), { code: 'invalid_parameter' });
  add(`POST ${w}`, 422, 'a body that is not JSON', (c) => ({ method: 'POST', path: w, key: c.keys.da, body: '{"url": ' }), { code: 'invalid_body' });
  add(`POST ${w}`, 403, 'a key without the DA listing', (c) => ({ method: 'POST', path: w, key: c.keys.noDa, body: json({ url: `${c.receiver}/hook`, events: ['da.created'] }) }), { code: 'not_licensed' });
  add(`GET ${w}`, 200, 'the key\'s subscriptions', (c) => ({ path: w, key: c.keys.da }));
  add(`GET ${w}`, 403, 'a key without the DA listing', (c) => ({ path: w, key: c.keys.noDa }), { code: 'not_licensed' });
  add(`GET ${w}`, 422, 'a query parameter', (c) => ({ path: `${w}?state=NSW`, key: c.keys.da }), { code: 'unknown_parameter' });
  for (const [method, tail, ok] of [['GET', '', 200], ['DELETE', '', 200], ['POST', '/test', 202], ['GET', '/deliveries', 200]] as const) {
    const op = `${method} ${w}/{id}${tail}`;
    add(op, ok, 'an existing subscription', async (c) => ({ method, path: `${w}/${method === 'DELETE' ? await c.newWebhook(prefix) : c.webhook}${tail}`, key: c.keys.da }));
    add(op, 404, 'another key\'s or no subscription', (c) => ({ method, path: `${w}/wh_doesnotexist${tail}`, key: c.keys.da }), { code: 'not_found' });
    add(op, 403, 'a key without the DA listing', (c) => ({ method, path: `${w}/${c.webhook}${tail}`, key: c.keys.noDa }), { code: 'not_licensed' });
    add(op, 422, 'a query parameter', (c) => ({ method, path: `${w}/${c.webhook}${tail}?x=1`, key: c.keys.da }), { code: 'unknown_parameter' });
  }
  add(`POST ${w}/{id}/test`, 409, 'a disabled subscription', (c) => ({ method: 'POST', path: `${w}/${c.disabledWebhook}/test`, key: c.keys.da }), { code: 'subscription_disabled' });
}

// Read-only SQL at both prefixes.
for (const path of ['/v1/sql', '/api/v1/sql']) {
  const op = `POST ${path}`;
  add(op, 200, 'a query', (c) => ({ method: 'POST', path, key: c.keys.daSql, body: json({ query: 'SELECT state, count(*) AS n FROM das GROUP BY state ORDER BY state' }) }));
  add(op, 403, 'a DA key without SQL', (c) => ({ method: 'POST', path, key: c.keys.da, body: json({ query: 'SELECT 1' }) }), { code: 'not_licensed' });
  add(op, 422, 'a statement that is not a query', (c) => ({ method: 'POST', path, key: c.keys.daSql, body: json({ query: 'DELETE FROM das' }) }), { code: 'not_a_query' });
  add(op, 422, 'a body that is not JSON', (c) => ({ method: 'POST', path, key: c.keys.daSql, body: 'SELECT 1' }), { code: 'invalid_body' });
  add(op, 429, 'a key whose daily limit is used up', async (c) => ({ method: 'POST', path, key: await c.key({ components: 'none', daDailyLimit: 0, sql: true }), body: json({ query: 'SELECT 1' }) }), { code: 'daily_limit_exceeded' });
}

// Childcare (spec 4.2, 7).
const cc = '/api/v1/childcare';
const ccLimited = (c: Ctx) => c.key({ components: 'none', childcareStates: ['NSW'], childcareAddOn: 'childcare_market_intelligence', childcareDailyLimit: 0 });
for (const [method, path, query, body] of [
  ['GET', '/schema', '', undefined],
  ['GET', '/analysis', '?state=NSW&since=2025-01-01&feature_limit=10', undefined],
  ['GET', '/site-analysis', `?${site}`, undefined],
  ['POST', '/site-analysis', '', json({ state: 'NSW', catchment: square(0.02) })],
  ['GET', '/report', `?${site}&format=html`, undefined],
  ['POST', '/report', '?format=html', json({ state: 'NSW', catchment: square(0.02) })],
  ['GET', '/export', '?format=csv&state=NSW', undefined],
  ['GET', '/reconciliation-helper', '', undefined],
] as const) {
  const op = `${method} ${cc}${path}`;
  add(op, 200, 'an entitled request', (c) => ({ method, path: `${cc}${path}${query}`, key: c.keys.childcare, body }));
  add(op, 403, 'a DA key without the childcare licence', (c) => ({ method, path: `${cc}${path}${query}`, key: c.keys.da, body }), { code: 'not_licensed' });
  add(op, 429, 'a key whose childcare limit is used up', async (c) => ({ method, path: `${cc}${path}${query}`, key: await ccLimited(c), body }), { code: 'daily_limit_exceeded' });
  add(op, 422, 'an unknown parameter', (c) => ({ method, path: `${cc}${path}${query}${query ? '&' : '?'}colour=red`, key: c.keys.childcare, body }), { code: 'unknown_parameter' });
  add(op, 400, 'include_access=true', (c) => ({ method, path: `${cc}${path}${query}${query ? '&' : '?'}include_access=true`, key: c.keys.childcare, body }), { code: 'unsupported_parameter' });
}
add(`GET ${cc}/report`, 200, 'a PDF', (c) => ({ path: `${cc}/report?${site}&format=pdf`, key: c.keys.childcare }));
add(`GET ${cc}/export`, 200, 'GeoJSON', (c) => ({ path: `${cc}/export?format=geojson&state=NSW`, key: c.keys.childcare }));
add(`GET ${cc}/export`, 422, 'a format that is not offered', (c) => ({ path: `${cc}/export?format=xlsx`, key: c.keys.childcare }), { code: 'invalid_parameter' });
add(`GET ${cc}/analysis`, 400, 'an impossible date', (c) => ({ path: `${cc}/analysis?since=2025-13-01`, key: c.keys.childcare }), { code: 'invalid_date' });
add(`GET ${cc}/analysis`, 403, 'a state outside the entitlement', (c) => ({ path: `${cc}/analysis?state=QLD`, key: c.keys.childcare }), { code: 'state_not_entitled' });
add(`GET ${cc}/analysis`, 422, 'a state that does not exist', (c) => ({ path: `${cc}/analysis?state=XX`, key: c.keys.childcare }), { code: 'invalid_parameter' });
add(`GET ${cc}/site-analysis`, 400, 'a radius over 30 km', (c) => ({ path: `${cc}/site-analysis?lat=${NSW.lat}&lng=${NSW.lng}&radius_km=31&state=NSW`, key: c.keys.childcare }), { code: 'invalid_location' });
add(`GET ${cc}/site-analysis`, 400, 'a point in another state', (c) => ({ path: `${cc}/site-analysis?lat=-37.75&lng=144.98&state=NSW`, key: c.keys.childcare }), { code: 'invalid_location' });
add(`GET ${cc}/site-analysis`, 422, 'no state', (c) => ({ path: `${cc}/site-analysis?lat=${NSW.lat}&lng=${NSW.lng}`, key: c.keys.childcare }), { code: 'missing_parameter' });
add(`GET ${cc}/report`, 422, 'no format', (c) => ({ path: `${cc}/report?${site}`, key: c.keys.childcare }), { code: 'missing_parameter' });
for (const path of ['/site-analysis', '/report']) {
  const query = path === '/report' ? '?format=html' : '';
  add(`POST ${cc}${path}`, 400, 'a polygon that crosses itself', (c) => ({ method: 'POST', path: `${cc}${path}${query}`, key: c.keys.childcare, body: json({ state: 'NSW', catchment: bowtie }) }), { code: 'invalid_polygon' });
  add(`POST ${cc}${path}`, 422, 'a body that is not JSON', (c) => ({ method: 'POST', path: `${cc}${path}${query}`, key: c.keys.childcare, body: '{"state": "NSW",' }), { code: 'invalid_body' });
  add(`POST ${cc}${path}`, 422, 'no catchment', (c) => ({ method: 'POST', path: `${cc}${path}${query}`, key: c.keys.childcare, body: json({ state: 'NSW' }) }), { code: 'missing_parameter' });
}
for (const page of ['docs', 'guide', 'openapi.json']) add(`GET ${cc}/${page}`, 200, 'the page', () => ({ path: `${cc}/${page}` }));

// MCP over Streamable HTTP.
add('POST /mcp', 200, 'initialize', (c) => ({ method: 'POST', path: '/mcp', key: c.keys.da, headers: mcpHeaders, body: json(initialize) }));
add('POST /mcp', 202, 'a notification', (c) => ({ method: 'POST', path: '/mcp', key: c.keys.da, headers: mcpHeaders, body: json({ jsonrpc: '2.0', method: 'notifications/initialized' }) }));
add('POST /mcp', 403, 'a key without the DA listing', (c) => ({ method: 'POST', path: '/mcp', key: c.keys.noDa, headers: mcpHeaders, body: json(initialize) }), { code: 'not_licensed' });
add('POST /mcp', 406, 'an Accept header without text/event-stream', (c) => ({ method: 'POST', path: '/mcp', key: c.keys.da, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: json(initialize) }));
add('POST /mcp', 400, 'a body that is not JSON', (c) => ({ method: 'POST', path: '/mcp', key: c.keys.da, headers: mcpHeaders, body: '{"jsonrpc": "2.0",' }));
add('POST /mcp', 415, 'a body that is not declared JSON', (c) => ({ method: 'POST', path: '/mcp', key: c.keys.da, headers: { ...mcpHeaders, 'content-type': 'text/plain' }, body: json(initialize) }));

// Tiles, the map and the service's own pages.
const tilePath = (c: Ctx, layer = 'das') => `/api/v1/tiles/${layer}/${c.tile.z}/${c.tile.x}/${c.tile.y}.mvt`;
const tileOp = 'GET /api/v1/tiles/{layer}/{z}/{x}/{y}.mvt';
add(tileOp, 200, 'a tile with DAs', (c) => ({ path: tilePath(c) }));
add(tileOp, 204, 'a tile with nothing in it', () => ({ path: '/api/v1/tiles/das/14/0/0.mvt' }));
add(tileOp, 304, 'a matching If-None-Match', (c) => ({ path: tilePath(c), headers: { 'if-none-match': c.tileEtag } }));
add(tileOp, 422, 'a zoom outside the layer', () => ({ path: '/api/v1/tiles/contours/3/1/1.mvt' }), { code: 'invalid_tile' });
add(tileOp, 422, 'a query parameter', (c) => ({ path: `${tilePath(c)}?style=1` }), { code: 'unknown_parameter' });
add(tileOp, 404, 'a layer that does not exist', () => ({ path: '/api/v1/tiles/rivers/14/0/0.mvt' }), { code: 'unknown_layer' });
add(tileOp, 401, 'real data without a key', (c) => ({ path: tilePath(c), server: 'keyedTiles' }), { code: 'missing_key' });
add(tileOp, 403, 'real data with a key without the geometry licence', (c) => ({ path: tilePath(c), server: 'keyedTiles', key: c.keys.noGeometry }), { code: 'geometry_not_licensed' });
add('GET /api/v1/tiles/{layer}.json', 200, 'TileJSON', () => ({ path: '/api/v1/tiles/das.json' }));
add('GET /api/v1/tiles/{layer}.json', 200, 'the terrain layer\'s raster-dem TileJSON', () => ({ path: '/api/v1/tiles/terrain.json' }));
const terrainPath = (c: Ctx) => `/api/v1/tiles/terrain/${c.tile.z}/${c.tile.x}/${c.tile.y}.png`;
const terrainOp = 'GET /api/v1/tiles/terrain/{z}/{x}/{y}.png';
add(terrainOp, 200, 'a Terrarium PNG over a DEM', (c) => ({ path: terrainPath(c) }));
add(terrainOp, 304, 'a matching If-None-Match', (c) => ({ path: terrainPath(c), headers: { 'if-none-match': c.terrainEtag } }));
add(terrainOp, 422, 'a zoom past 15', () => ({ path: '/api/v1/tiles/terrain/16/1/1.png' }), { code: 'invalid_tile' });
add(terrainOp, 422, 'a column off the grid', () => ({ path: '/api/v1/tiles/terrain/12/5000/1.png' }), { code: 'invalid_tile' });
add(terrainOp, 404, 'a server that makes no tiles', (c) => ({ path: terrainPath(c), server: 'bare' }), { code: 'not_found' });
add(terrainOp, 401, 'real data without a key', (c) => ({ path: terrainPath(c), server: 'keyedTiles' }), { code: 'missing_key' });
add(terrainOp, 403, 'real data with a key without the geometry licence', (c) => ({ path: terrainPath(c), server: 'keyedTiles', key: c.keys.noGeometry }), { code: 'geometry_not_licensed' });
add('GET /api/v1/tiles/{layer}.json', 404, 'a layer that does not exist', () => ({ path: '/api/v1/tiles/rivers.json' }), { code: 'unknown_layer' });
for (const path of ['/map', '/map/maplibre-gl.js', '/map/maplibre-gl.css']) {
  add(`GET ${path}`, 200, 'the asset', () => ({ path }));
  add(`GET ${path}`, 404, 'a server that makes no tiles', () => ({ path, server: 'bare' }), { code: 'not_found' });
}
add('GET /map/point', 200, 'a point\'s summary', () => ({ path: '/map/point?lat=-37.7516&lng=144.9874' }));
add('GET /map/point', 422, 'a latitude past 90', () => ({ path: '/map/point?lat=95&lng=144.9' }), { code: 'invalid_parameter' });
add('GET /map/point', 422, 'a point in the Southern Ocean, outside every dataset', () => ({ path: '/map/point?lat=-50&lng=150' }), { code: 'outside_coverage' });
add('GET /map/point', 404, 'a server not on the sample world', () => ({ path: '/map/point?lat=-37.7516&lng=144.9874', server: 'keyedTiles' }), { code: 'not_found' });
add('GET /playground', 200, 'the page', () => ({ path: '/playground' }));
add('GET /playground', 404, 'a server with the playground off', () => ({ path: '/playground', server: 'bare' }), { code: 'not_found' });
for (const path of ['/healthz', '/api/v1/openapi.json', '/api/v1/docs', ...GUIDES.map(guidePath)]) add(`GET ${path}`, 200, 'the page', () => ({ path }));

// Every keyed operation without a key (401); every operation with a method its path does not answer (405);
// every keyless GET and every keyed operation with an unknown query parameter (422); every body past its limit (413).
const DOCS: Record<DocName, Obj> = { main: openApiDocument(), childcare: childcareOpenApi() };
const firstOk = (op: string) => cases.find((k) => k.op === op && k.status < 300);
// The CORS preflight of every path (issue 47), as a browser sends it: no key, an Origin, the method and
// headers to come; the 204's Allow, Access-Control-* values are checked against the document's consts.
for (const [path, ops] of Object.entries(DOCS.main.paths as Obj)) {
  const base = Object.keys(ops as Obj).filter((m) => m !== 'options').map((m) => firstOk(`${m.toUpperCase()} ${path}`)).find(Boolean);
  if (!base) continue;
  add(`OPTIONS ${path}`, 204, 'the CORS preflight from another origin', async (c) => {
    const r = await base.request(c);
    return { path: r.path, server: r.server, method: 'OPTIONS', headers: { origin: 'https://maps.example.org', 'access-control-request-method': r.method ?? 'GET', 'access-control-request-headers': 'authorization, content-type' } };
  });
}
for (const [path, ops] of Object.entries(DOCS.main.paths as Obj)) {
  for (const [method, o] of Object.entries(ops as Obj)) {
    const op = `${method.toUpperCase()} ${path}`;
    const base = firstOk(op);
    if (!base) continue;
    const documented = (s: number) => String(s) in (o as Obj).responses;
    const has = (s: number) => cases.some((k) => k.op === op && k.status === s);
    if (documented(401) && !has(401)) add(op, 401, 'no key', async (c) => ({ ...(await base.request(c)), key: undefined }), { code: 'missing_key' });
    if (documented(405)) add(op, 405, 'a method the path does not answer', async (c) => ({ ...(await base.request(c)), method: 'PUT' }), { code: 'method_not_allowed' });
    if (documented(422) && !has(422)) add(op, 422, 'an unknown query parameter', async (c) => {
      const r = await base.request(c);
      return { ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}colour=red` };
    }, { code: 'unknown_parameter' });
    if (documented(413) && !has(413)) add(op, 413, 'a body past the limit', async (c) => ({ ...(await base.request(c)), body: Buffer.alloc(1024 * 1024 + 1, 0x20) }), { code: 'payload_too_large' });
    add(op, 414, 'a request target past 8 KB', async (c) => {
      const r = await base.request(c);
      return { ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}pad=${'x'.repeat(9000)}` };
    }, { code: 'uri_too_long' });
    // The playground's demo key past its minute (webhooks and MCP count its requests, then refuse them).
    if (documented(429) && !has(429)) add(op, 429, 'the playground\'s demo key past its 10 a minute', async (c) => ({ ...(await base.request(c)), key: await c.spentPlayground() }), { code: 'playground_limit_exceeded' });
    // The shared database does not answer: the key cannot be checked, nothing is done.
    if (((o as Obj).security ?? []).some((x: Obj) => 'bearer' in x) && !has(503)) {
      add(op, 503, 'the shared database does not answer', async (c) => {
        const r = await base.request(c);
        return { ...r, server: 'storeDown', key: r.key ?? c.keys.full };
      }, { code: 'service_unavailable' });
    }
  }
}

/** Ajv over one document: the schema of a response by pointer. */
function validatorOf(doc: Obj, id: string) {
  const ajv = ajv2020();
  ajv.addSchema(doc, id);
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (path: string, method: string, status: string, media: string) => {
    const ref = `${id}#/paths/${esc(path)}/${method}/responses/${status}/content/${esc(media)}/schema`;
    let v = compiled.get(ref);
    if (!v) compiled.set(ref, (v = ajv.compile({ $ref: ref })));
    return v;
  };
}

/** The documents that describe `op` (as `[name, path, method, operation]`). */
function describedBy(op: string): [DocName, string, string, Obj][] {
  const [method, path] = op.split(' ');
  return (Object.keys(DOCS) as DocName[]).flatMap((d) => {
    const o = DOCS[d].paths[path]?.[method.toLowerCase()];
    return o ? [[d, path, method.toLowerCase(), o] as [DocName, string, string, Obj]] : [];
  });
}

let stack: Stack;
let main: StartedServer;
let bare: StartedServer;
let keyedTiles: StartedServer;
let storeDown: StartedServer;
let dispatcher: WebhookDispatcher;
const receiver = new Receiver();
let c: Ctx;
const validators: Record<DocName, ReturnType<typeof validatorOf>> = {} as never;
const served: Record<DocName, Obj> = {} as never;

/** The engine with some of its members replaced (a server without samples, or with tiles that need a key). */
function serviceWith(service: PropertyService, overrides: Record<string, unknown>): PropertyService {
  return new Proxy(service as object, {
    get: (target, name) => {
      if (typeof name === 'string' && name in overrides) return overrides[name];
      const v = Reflect.get(target, name);
      return typeof v === 'function' ? v.bind(target) : v;
    },
    has: (target, name) => (typeof name === 'string' && name in overrides ? overrides[name] !== undefined : Reflect.has(target, name)),
  }) as PropertyService;
}

beforeAll(async () => {
  await receiver.start();
  stack = await openStack({ datasets: defaultDataDir(), db: ':memory:', threads: 2 });
  const engine = stack.engine;
  // The ping case needs a delivery worker (delivering to the local receiver).
  dispatcher = new WebhookDispatcher({ store: stack.store.webhooks(), das: () => engine.das(), allowPrivate: true, pollMs: 50 });
  main = await startServer({ ...stack.serverOptions, service: engine, store: stack.store, port: 0, webhooks: { ...stack.serverOptions.webhooks, dispatcher, allowPrivate: true }, batch: { limits: BATCH_LIMITS } });
  bare = await startServer({ service: serviceWith(engine, { sample: async () => null, tile: undefined, tileLayers: undefined }), store: stack.store, port: 0, playground: false });
  keyedTiles = await startServer({ service: serviceWith(engine, { store: { catalogue: { synthetic: false } } }), store: stack.store, port: 0 });
  // A store whose every call fails as a PostgreSQL store does when its database does not answer.
  const down = new Proxy(stack.store as object, {
    get: (target, name) => {
      const v = Reflect.get(target, name);
      return typeof v === 'function' ? () => { throw new StoreUnavailableError('the database did not answer within 5 s'); } : v;
    },
  }) as typeof stack.store;
  storeDown = await startServer({ service: serviceWith(engine, { store: { catalogue: { synthetic: false } } }), store: down, port: 0 });
  const key = async (spec: KeySpec) => (await createKey(stack.store, spec)).key;
  const keys = {
    full: await key({ components: 'all', geometry: true }),
    noGeometry: await key({ components: 'all', geometry: false }),
    da: await key({ components: 'none', daDailyLimit: 100_000 }),
    daSql: await key({ components: 'none', daDailyLimit: 100_000, sql: true }),
    childcare: await key({ components: 'none', childcareStates: ['NSW', 'VIC'], childcareAddOn: 'childcare_market_intelligence', childcareDailyLimit: 100_000 }),
    noDa: await key({ components: 'all', geometry: true }),
    batchBusy: await key({ components: 'all', geometry: true }),
    batchFull: await key({ components: 'all', geometry: true }),
  };
  const url = { main: main.url, bare: bare.url, keyedTiles: keyedTiles.url, storeDown: storeDown.url };
  const listed = await (await fetch(`${main.url}/v1/das?state=NSW&per_page=1`, { headers: { authorization: `Bearer ${keys.da}` } })).json();
  const subscribe = async (prefix: string) => {
    const r = await fetch(`${main.url}${prefix}/webhooks`, { method: 'POST', headers: { authorization: `Bearer ${keys.da}`, 'content-type': 'application/json' }, body: json({ url: `${receiver.url}/hook`, events: ['da.created'] }) });
    if (r.status !== 201) throw new Error(`subscribing answered ${r.status}: ${await r.text()}`);
    return (await r.json()).id as string;
  };
  const webhook = await subscribe('/v1');
  const disabledWebhook = await subscribe('/v1');
  await stack.store.webhooks().disableSubscription(disabledWebhook, 'the endpoint answered 410 Gone');
  const n = 2 ** 14;
  const tile = { z: 14, x: Math.floor(((NSW.lng + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan((NSW.lat * Math.PI) / 180) + 1 / Math.cos((NSW.lat * Math.PI) / 180)) / Math.PI) / 2) * n) };
  const first = await fetch(`${main.url}/api/v1/tiles/das/${tile.z}/${tile.x}/${tile.y}.mvt`);
  const terrain = await fetch(`${main.url}/api/v1/tiles/terrain/${tile.z}/${tile.x}/${tile.y}.png`);
  const [address, otherAddress] = ['VIC0000100', 'VIC0000101'].map((id) => {
    const text = engine.addresses().byId(id)?.text;
    if (!text) throw new Error(`no address ${id} in the sample world`);
    return text;
  });
  const newBatch = async (prefix: string) => {
    const r = await fetch(`${main.url}${prefix}/batch`, { method: 'POST', headers: { authorization: `Bearer ${keys.full}`, 'content-type': 'text/csv' }, body: BATCH_CSV });
    if (r.status !== 202) throw new Error(`a batch answered ${r.status}: ${await r.text()}`);
    return (await r.json()).id as string;
  };
  const batch = await newBatch('/v1');
  // Worked to the end by a batch worker of the test's own, so its results are there to download.
  const runner = new BatchRunner({ store: stack.store, service: engine });
  while (await runner.runOnce());
  // A key with its limit of jobs queued (never worked here), and one whose cancelled job holds past its bytes.
  const stored = async (keyId: string, chunkInput?: Buffer) => {
    const made = await jobFromUpload(BATCH_CSV, { format: 'csv' }, { id: newBatchId(), key_id: keyId, created_at: new Date().toISOString(), callback_secret: null, options: { components: null, include_geometry: false, format: 'csv', callback_url: null } });
    const chunks = chunkInput ? [{ ...made.chunks[0], input: chunkInput }] : made.chunks;
    await stack.store.batches().createJob(made.job, chunks);
    return made.job.id;
  };
  for (let i = 0; i < BATCH_LIMITS.jobs; i++) await stored(keys.batchBusy.split('_')[1]);
  const big = await stored(keys.batchFull.split('_')[1], randomBytes(BATCH_LIMITS.storedBytes + 1));
  await stack.store.batches().cancelJob(big, new Date(), 86_400_000);
  const demo = await playgroundKey(stack.store);
  const spentPlayground = async () => {
    // Until a request is refused: the minute may turn over while its ten are spent.
    for (let i = 0; i < 25; i++) if ((await fetch(`${main.url}/v1/stats`, { headers: { authorization: `Bearer ${demo}` } })).status === 429) return demo;
    throw new Error('the playground key was never refused');
  };
  c = { url, keys, key, spentPlayground, address, otherAddress, daId: listed.data[0].id, webhook, disabledWebhook, newWebhook: subscribe, batch, newBatch, receiver: receiver.url, tile, tileEtag: first.headers.get('etag') ?? '', terrainEtag: terrain.headers.get('etag') ?? '' };
  for (const d of Object.keys(DOCS) as DocName[]) {
    served[d] = await (await fetch(`${main.url}${d === 'main' ? '/api/v1/openapi.json' : '/api/v1/childcare/openapi.json'}`)).json();
    validators[d] = validatorOf(served[d], `https://propintel.test/${d}.json`);
  }
}, 120_000);

afterAll(async () => {
  await dispatcher?.stop(500);
  await bare?.close(1000);
  await keyedTiles?.close(1000);
  await storeDown?.close(1000);
  await main?.close(1000);
  await stack?.close();
  await receiver.stop();
});

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

async function send(r: Req, method = r.method ?? 'GET'): Promise<Answer> {
  const headers: Record<string, string> = { ...(r.key ? { authorization: `Bearer ${r.key}` } : {}), ...(r.body !== undefined && !r.headers?.['content-type'] ? { 'content-type': 'application/json' } : {}), ...r.headers };
  const res = await fetch(`${c.url[r.server ?? 'main']}${r.path}`, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : typeof r.body === 'string' || r.body === undefined ? r.body : new Uint8Array(r.body) });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** Checks `a` against what document `doc` says `op` answers with its status. */
function conform(doc: DocName, path: string, method: string, o: Obj, a: Answer, code?: string): void {
  const where = `${doc}: ${method.toUpperCase()} ${path} ${a.status}`;
  const r = o.responses[String(a.status)];
  expect(r, `${where} is not documented (documented: ${Object.keys(o.responses).join(', ')}); body ${a.body.toString('utf8').slice(0, 300)}`).toBeDefined();
  for (const [name, h] of Object.entries((r.headers ?? {}) as Obj)) {
    const v = a.headers.get(name);
    if (h.required) expect(v, `${where}: header ${name}`).not.toBeNull();
    if (v !== null && h.schema?.type === 'integer') expect(v, `${where}: header ${name}`).toMatch(/^\d+$/);
    if (h.schema?.const !== undefined) expect(v, `${where}: header ${name}`).toBe(h.schema.const);
  }
  if (!r.content) {
    expect(a.body.length, `${where} documents no content`).toBe(0);
    return;
  }
  const type = (a.headers.get('content-type') ?? '').split(';')[0].trim();
  expect(Object.keys(r.content), `${where}: content type ${type}`).toContain(type);
  if (type !== 'application/json' && type !== 'application/geo+json') {
    expect(a.body.length, `${where}: a ${type} body`).toBeGreaterThan(0);
    return;
  }
  const body = JSON.parse(a.body.toString('utf8'));
  const validate = validators[doc](path, method, String(a.status), type);
  const ok = validate(body);
  expect(ok ? [] : validate.errors!.slice(0, 8).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`), `${where}: body ${a.body.toString('utf8').slice(0, 300)}`).toEqual([]);
  if (a.status >= 400 && code) expect(body.error, where).toBe(code);
}

describe('the served documents', () => {
  it('name every operation with a plain, unique operationId (letters, digits and underscores)', () => {
    for (const d of Object.keys(DOCS) as DocName[]) {
      const ids = Object.values(DOCS[d].paths as Obj).flatMap((ops) => Object.values(ops as Obj).map((o) => (o as Obj).operationId as string));
      expect(ids.filter((id) => !/^[A-Za-z][A-Za-z0-9_]*$/.test(id)), d).toEqual([]);
      expect(new Set(ids).size, d).toBe(ids.length);
    }
  });

  it('are the documents the server builds, and valid OpenAPI 3.1 to swagger-parser', async () => {
    for (const d of Object.keys(DOCS) as DocName[]) {
      expect(served[d], d).toEqual(JSON.parse(JSON.stringify(DOCS[d])));
      const api = await SwaggerParser.validate(structuredClone(served[d]) as never);
      expect((api as Obj).openapi, d).toBe('3.1.0');
      // Every operation's tag is declared, with a description (a reference page groups by them).
      const declared = new Set((served[d].tags as Obj[]).map((t) => t.name));
      const used = Object.values(served[d].paths as Obj).flatMap((ops) => Object.values(ops as Obj).flatMap((o) => (o as Obj).tags as string[]));
      expect([...new Set(used)].filter((t) => !declared.has(t)), d).toEqual([]);
    }
  });

  it('list each error code only under the status the API answers it with', () => {
    const wrong: string[] = [];
    for (const d of Object.keys(DOCS) as DocName[]) {
      for (const [path, ops] of Object.entries(DOCS[d].paths as Obj)) {
        for (const [method, o] of Object.entries(ops as Obj)) {
          for (const [status, r] of Object.entries((o as Obj).responses as Obj)) {
            const top = r.content?.['application/json']?.schema;
            const schema = top?.$ref ? DOCS[d].components.schemas[top.$ref.split('/').pop()] : top?.allOf?.[1];
            const error = schema?.properties?.error;
            const codes: string[] = error?.enum ?? (error?.const ? [error.const] : []);
            if (Number(status) >= 400 && top?.$ref !== '#/components/schemas/JsonRpcError') expect(codes.length, `${d}: ${method} ${path} ${status} names its codes`).toBeGreaterThan(0);
            for (const code of codes) if ((ERROR_STATUS as Record<string, number>)[code] !== Number(status)) wrong.push(`${d}: ${method.toUpperCase()} ${path} ${status} lists ${code} (${(ERROR_STATUS as Record<string, number>)[code] ?? 'no such code'})`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // And every code the API has is listed somewhere, but client_closed (nothing is written: the client left)
    // and internal_error (a bug, never a documented answer).
    const listed = new Set(Object.values(DOCS).flatMap((doc) => JSON.stringify(doc).match(/"error":\{"(?:enum|const)":(\[[^\]]*\]|"[a-z_]+")/g) ?? []).flatMap((m) => m.match(/[a-z_]+(?=")/g)!.filter((x) => x !== 'error' && x !== 'enum' && x !== 'const')));
    expect(Object.keys(ERROR_STATUS).filter((code) => !listed.has(code) && code !== 'client_closed' && code !== 'internal_error')).toEqual([]);
  });

  it('have a case for every operation and every documented status, and no stale exemption', () => {
    const missing: string[] = [];
    const exemptUsed = new Set<number>();
    for (const d of Object.keys(DOCS) as DocName[]) {
      for (const [path, ops] of Object.entries(DOCS[d].paths as Obj)) {
        for (const [method, o] of Object.entries(ops as Obj)) {
          const op = `${method.toUpperCase()} ${path}`;
          for (const status of Object.keys((o as Obj).responses).map(Number)) {
            if (cases.some((k) => k.op === op && k.status === status && (k.docs ?? [d]).includes(d))) continue;
            const ex = EXEMPT.findIndex((e) => e.status === status && e.op.test(op));
            if (ex >= 0) exemptUsed.add(ex);
            else missing.push(`${d}: ${op} ${status}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
    expect(EXEMPT.filter((_, i) => !exemptUsed.has(i)).map((e) => `${e.op} ${e.status}`)).toEqual([]);
    // Every case names an operation some document describes.
    expect(cases.filter((k) => describedBy(k.op).length === 0).map((k) => k.op)).toEqual([]);
  });
});

describe('a client generated from the served document (issue 47)', () => {
  // openapi-typescript writes the types of the served document; a client of openapi-fetch reads
  // scores.flood.level as its enum and compiles with --strict; reading a field the schema does not have fails
  // to compile (the scores are not bare objects); and at run time the same client gets the level the engine
  // computes.
  it('compiles with --strict reading scores.flood.level as its enum, refuses a field the score lacks, and reads it for real', async () => {
    const { default: openapiTS } = await import('openapi-typescript');
    const dir = mkdtempSync(join(tmpdir(), 'propintel-client-'));
    try {
      writeFileSync(join(dir, 'api.d.ts'), await openapiTS(served.main as never));
      symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'), 'dir');
      const client = (body: string) => `import createClient from 'openapi-fetch';
import type { paths } from './api';
export async function floodLevel(baseUrl: string, key: string, address: string): Promise<string> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });
  const { data, error } = await client.GET('/api/v1/property', { params: { query: { address, components: 'scores' } } });
  if (error || !data) throw new Error(JSON.stringify(error));
  ${body}
}
`;
      writeFileSync(join(dir, 'good.ts'), client("const level: 'very_low' | 'low' | 'moderate' | 'high' | 'very_high' | 'unknown' | undefined = data.scores?.flood?.level;\n  return level ?? 'absent';"));
      writeFileSync(join(dir, 'bad.ts'), client('const wrong: number | undefined = data.scores?.flood?.level;\n  return String(wrong) + String(data.scores?.flood?.no_such_field);'));
      const tsc = (file: string) => spawnSync(join(process.cwd(), 'node_modules', '.bin', 'tsc'), ['--strict', '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', '', file, 'api.d.ts'], { cwd: dir, encoding: 'utf8' });
      const good = tsc('good.ts');
      expect(good.status, good.stdout + good.stderr).toBe(0);
      const bad = tsc('bad.ts');
      expect(bad.status).not.toBe(0);
      expect(bad.stdout).toMatch(/bad\.ts.*error TS2322/);
      expect(bad.stdout).toMatch(/Property 'no_such_field' does not exist/);
      // And at run time, the same calls.
      const { default: createClient } = await import('openapi-fetch');
      const api = createClient({ baseUrl: c.url.main, headers: { Authorization: `Bearer ${c.keys.full}` } });
      const { data } = await (api as unknown as { GET: (p: string, o: unknown) => Promise<{ data?: { scores?: { flood?: { level?: string } } } }> }).GET('/api/v1/property', { params: { query: { address: SANDBOX_VIC, components: 'scores' } } });
      expect(['very_low', 'low', 'moderate', 'high', 'very_high', 'unknown']).toContain(data?.scores?.flood?.level);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('every documented answer, for real', () => {
  for (const k of cases) {
    it(`${k.op} -> ${k.status}: ${k.what}`, async () => {
      const r = await k.request(c);
      const a = await send(r);
      expect(a.status, `${k.op}: ${a.body.toString('utf8').slice(0, 400)}`).toBe(k.status);
      // Any page may read any answer, errors included (CORS, issue 47).
      expect(a.headers.get('access-control-allow-origin'), `${k.op} ${a.status}: Access-Control-Allow-Origin`).toBe('*');
      expect(a.headers.get('access-control-expose-headers') ?? '', `${k.op} ${a.status}: Access-Control-Expose-Headers`).toContain('Retry-After');
      const docs = describedBy(k.op).filter(([d]) => (k.docs ?? [d]).includes(d));
      for (const [d, path, method, o] of docs) conform(d, path, method, o, a, k.code);
    });
  }
});

describe('HEAD wherever GET', () => {
  // Every GET that answers 200, and every refused GET (one case per operation and status; not the 405s,
  // which send another method, nor the quota and limit cases, whose first request uses up what they test).
  const firsts = new Map<string, Case>();
  for (const k of cases) {
    if (!k.op.startsWith('GET ') || k.status === 405 || k.status === 429 || firsts.has(`${k.op} ${k.status}`)) continue;
    if (k.status === 200 && k.docs?.every((d) => d === 'childcare')) continue;
    firsts.set(`${k.op} ${k.status}`, k);
  }
  const volatile = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'content-length', 'transfer-encoding', 'keep-alive', 'connection']);
  for (const k of firsts.values()) {
    it(`HEAD ${k.op.slice(4)} -> ${k.status}: the GET's status and headers, no body`, async () => {
      const r = await k.request(c);
      const get = await send(r);
      const head = await send(r, 'HEAD');
      expect(head.status).toBe(get.status);
      expect(head.body.length).toBe(0);
      const names = (h: Headers) => [...h.keys()].filter((n) => !volatile.has(n)).sort();
      expect(names(head.headers)).toEqual(names(get.headers));
      for (const n of names(get.headers)) expect(head.headers.get(n), n).toBe(get.headers.get(n));
      const length = head.headers.get('content-length');
      if (length !== null && get.headers.get('content-length') !== null) expect(length).toBe(get.headers.get('content-length'));
    });
  }

  it('HEAD of a property lookup is not metered; HEAD of a DA request counts against the daily limit as GET does', async () => {
    const key = await c.key({ components: 'all', quota: 1 });
    const path = `/api/v1/property?address=${encodeURIComponent(c.address)}`;
    expect((await send({ path, key }, 'HEAD')).status).toBe(200);
    const other = `/api/v1/property?address=${encodeURIComponent(c.otherAddress)}`;
    const after = await send({ path: other, key });
    // The HEAD took no address from the quota of 1: this first GET is charged as the first unique address.
    expect([after.status, JSON.parse(after.body.toString()).usage?.unique_addresses_this_period]).toEqual([200, 1]);
    expect((await send({ path, key }, 'HEAD')).status).toBe(429); // a new address past the quota: HEAD says so too
    const da = await c.key({ components: 'none', daDailyLimit: 1 });
    expect((await send({ path: '/v1/stats', key: da }, 'HEAD')).status).toBe(200);
    expect((await send({ path: '/v1/stats', key: da })).status).toBe(429);
  });
});

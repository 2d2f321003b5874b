// The server's layers (issue 50, part): errors, request limits and query value spellings form a floor,
// server/http/, below the API router (server/api/); the usage meter (metering/) and the webhooks
// (webhooks/) use the floor and never import up into the API, so neither forms a circle with it. The store is
// by contract: store.ts, batch-store.ts, webhook-store.ts and charge.ts are what the SQLite (store/sqlite/) and
// PostgreSQL (store/pg/) dialects implement, and neither dialect reaches into the other.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dirname } from 'node:path';
import { cycles, importGraph } from '../helpers/import-graph.js';

const graph = importGraph(fileURLToPath(new URL('../../server', import.meta.url)));
const folder = (m: string) => (m.includes('/') ? m.split('/')[0] : '.');

/** Every folder-to-folder import: from folder -> the folders it imports from. */
function folderEdges(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [m, deps] of graph) {
    for (const d of deps) {
      if (folder(d) === folder(m)) continue;
      if (!out.has(folder(m))) out.set(folder(m), new Set());
      out.get(folder(m))!.add(folder(d));
    }
  }
  return out;
}

describe('the server\'s layers', () => {
  it('reads the server (the helper finds its imports)', () => {
    expect(graph.size).toBeGreaterThan(60);
    expect(graph.get('api/api.ts')).toEqual(expect.arrayContaining(['http/api-error.ts', 'http/limits.ts']));
  });

  it('keeps server/http a floor: it imports nothing of the API, the meter or the webhooks', () => {
    const floor = [...graph.keys()].filter((m) => m.startsWith('http/'));
    expect(floor.sort()).toEqual(['http/api-error.ts', 'http/limits.ts', 'http/query-values.ts', 'http/store-unavailable.ts']);
    for (const m of floor) expect(graph.get(m)!.filter((d) => folder(d) !== 'http' && folder(d) !== '.'), m).toEqual([]);
  });

  it('keeps the meter and the webhooks below the API: neither imports server/api', () => {
    const edges = folderEdges();
    expect([...(edges.get('metering') ?? [])]).not.toContain('api');
    expect([...(edges.get('webhooks') ?? [])]).not.toContain('api');
    // And the API does use them (the test is not vacuous).
    expect([...edges.get('api')!]).toEqual(expect.arrayContaining(['metering', 'webhooks', 'http']));
  });

  it('keeps the store by contract: the contracts import no dialect, PostgreSQL nothing of SQLite, and no store module a circle', () => {
    const store = [...graph.keys()].filter((m) => m.startsWith('store/'));
    const contracts = ['store/store.ts', 'store/batch-store.ts', 'store/webhook-store.ts', 'store/charge.ts'];
    for (const c of contracts) expect(graph.get(c)!.filter((d) => /^store\/(sqlite|pg)\//.test(d)), c).toEqual([]);
    for (const m of store.filter((x) => x.startsWith('store/pg/'))) expect(graph.get(m)!.filter((d) => d.startsWith('store/sqlite/')), m).toEqual([]);
    for (const m of store.filter((x) => x.startsWith('store/sqlite/'))) expect(graph.get(m)!.filter((d) => d.startsWith('store/pg/')), m).toEqual([]);
    const within = new Map([...graph].filter(([m]) => m.startsWith('store/')).map(([m, deps]) => [m, deps.filter((d) => d.startsWith('store/'))]));
    expect(cycles(within)).toEqual([]);
    // The dialects do implement the contracts (the test reads them).
    expect(graph.get('store/pg/pg-webhook-store.ts')).toContain('store/webhook-store.ts');
    expect(graph.get('store/sqlite/sqlite-batch-store.ts')).toContain('store/batch-store.ts');
  });

  it('places every folder on a layer, and no import runs sideways or back up', () => {
    // Bottom first: the root's leaves, the floor, the store, the meter, keys and webhooks, the batch runner and
    // the pages' makers, the API, its documents, the childcare pages and MCP, the transports, the server, the stack.
    const layers: readonly (readonly string[])[] = [
      ['maybe-promise.ts', 'request-log.ts', 'uws.ts'],
      ['http'],
      ['store'],
      ['metering'],
      ['keys', 'webhooks'],
      ['batch', 'playground', 'map'],
      ['api'],
      ['openapi'],
      ['childcare', 'mcp'],
      ['transport'],
      ['http-server.ts'],
      ['stack.ts'],
    ];
    const unit = (m: string) => (m.includes('/') ? m.split('/')[0] : m);
    const layer = new Map<string, number>();
    layers.forEach((units, i) => units.forEach((u) => layer.set(u, i)));
    expect([...new Set([...graph.keys()].map(unit))].filter((u) => !layer.has(u)).sort(), 'folders not on a layer').toEqual([]);
    const up = [...graph].flatMap(([m, deps]) => deps.filter((d) => unit(d) !== unit(m) && layer.get(unit(d))! >= layer.get(unit(m))!).map((d) => `${m} -> ${d}`));
    expect(up).toEqual([]);
  });

  it('has no circle between folders (store/pg and store/sqlite each a folder of their own)', () => {
    const folderOf = (m: string) => (m.includes('/') ? dirname(m) : m);
    const folders = new Map<string, string[]>();
    for (const [m, deps] of graph) {
      const out = folders.get(folderOf(m)) ?? [];
      for (const d of deps) if (folderOf(d) !== folderOf(m) && !out.includes(folderOf(d))) out.push(folderOf(d));
      folders.set(folderOf(m), out);
    }
    expect(folders.size).toBeGreaterThan(12);
    expect(cycles(folders)).toEqual([]);
  });
});

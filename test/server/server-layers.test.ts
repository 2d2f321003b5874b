// The server's layers (issue 50, part): errors, request limits and query value spellings form a floor,
// server/http/, below the API router (server/api/); the usage meter (metering/) and the webhooks
// (webhooks/) use the floor and never import up into the API, so neither forms a circle with it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../helpers/import-graph.js';

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
    expect(floor.sort()).toEqual(['http/api-error.ts', 'http/limits.ts', 'http/query-values.ts']);
    for (const m of floor) expect(graph.get(m)!.filter((d) => ['api', 'metering', 'webhooks', 'batch', 'openapi'].includes(folder(d))), m).toEqual([]);
  });

  it('keeps the meter and the webhooks below the API: neither imports server/api', () => {
    const edges = folderEdges();
    expect([...(edges.get('metering') ?? [])]).not.toContain('api');
    expect([...(edges.get('webhooks') ?? [])]).not.toContain('api');
    // And the API does use them (the test is not vacuous).
    expect([...edges.get('api')!]).toEqual(expect.arrayContaining(['metering', 'webhooks', 'http']));
  });
});

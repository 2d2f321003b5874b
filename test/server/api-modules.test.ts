// The API is a router with one module per product (issue 38): property, DA listing and webhooks, childcare,
// SQL and MCP, tiles, and the operator's and public pages. No file in server/api/ runs past about 400 lines,
// and no product's routes import another's: what they share lives in api-types.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../helpers/import-graph.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(root, 'server', 'api');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

describe('server/api is a router and a module per product', () => {
  it('has the product route modules the router delegates to', () => {
    const routes = files.filter((f) => f.endsWith('-routes.ts')).sort();
    expect(routes).toEqual(['batch-routes.ts', 'childcare-routes.ts', 'da-routes.ts', 'ops-routes.ts', 'property-routes.ts', 'sql-mcp-routes.ts', 'tile-routes.ts']);
    const api = importGraph(root, ['server/api']).get('server/api/api.ts')!;
    for (const r of routes) expect(api, `api.ts delegates to ${r}`).toContain(`server/api/${r}`);
  });

  it('keeps every file under about 400 lines', () => {
    const long = files.map((f) => [f, readFileSync(join(dir, f), 'utf8').split('\n').length] as const).filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });

  it('lets no product route module import another', () => {
    const graph = importGraph(root, ['server/api']);
    const crossing: string[] = [];
    for (const [file, deps] of graph) {
      if (!file.endsWith('-routes.ts')) continue;
      for (const d of deps) if (d.endsWith('-routes.ts') && d.startsWith('server/api/')) crossing.push(`${file} -> ${d}`);
    }
    expect(crossing).toEqual([]);
  });
});

// Warming ahead of traffic (issue 24): engine.warm builds the models and the HAND tile of every held state's
// flood DEM once, says so line by line, and a second engine on the same tile directory computes nothing; the
// flood score read from the tiles is the same either way. /healthz says `warming` until the server is warm.
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/runtime/engine.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import { openApiDocument } from '../../server/openapi/openapi.js';
import { startTestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

describe('engine.warm', () => {
  it('computes each flood DEM\'s HAND tiles once and reports it; a second engine finds them', async () => {
    const dir = tempDir('hand-tiles-');
    const first = await createEngine({ datasets: defaultDataDir(), threads: 2, handTiles: dir });
    const lines: string[] = [];
    let floodBefore: unknown;
    try {
      await first.warm((l) => lines.push(l));
      // Both pool workers running: the first lookup whose tasks overlap does not wait for one to start.
      expect(first.pool.threads).toBe(2);
      const s = (await first.sandbox())[0];
      floodBefore = (await first.scores(s.lng, s.lat, { only: ['flood'] })).scores.flood;
    } finally {
      await first.close();
    }
    expect(lines[0]).toMatch(/^pool workers started in \d+ ms$/);
    expect(lines[1]).toMatch(/^indexes and models built in \d+ ms \(addresses \d+, das \d+, childcare \d+, sandbox \d+, noise \d+/);
    // The sample world holds one 5 m DEM per state (about 6 km square): one tile each, the whole DEM.
    const tileLines = lines.slice(2);
    expect(tileLines.map((l) => l.replace(/ in \d+ ms$/, ''))).toEqual(['VIC', 'NSW', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'].map((st) => `${st}: HAND tiles of dem-5m.tif: 1 ready (1 computed)`));

    const second = await createEngine({ datasets: defaultDataDir(), threads: 1, handTiles: dir });
    const again: string[] = [];
    try {
      await second.warm((l) => again.push(l));
      const s = (await second.sandbox())[0];
      expect((await second.scores(s.lng, s.lat, { only: ['flood'] })).scores.flood).toEqual(floodBefore);
    } finally {
      await second.close();
    }
    expect(again.slice(2).every((l) => / 1 ready \(0 computed\) in \d+ ms$/.test(l))).toBe(true);
  }, 120_000);

  it('bounds concurrent lookups: with one slot a burst is answered in full, each as alone; a bad bound is refused', async () => {
    await expect(createEngine({ datasets: defaultDataDir(), threads: 1, maxConcurrentLookups: 0 })).rejects.toThrow(/at least 1 slot/);
    const e = await createEngine({ datasets: defaultDataDir(), threads: 1, maxConcurrentLookups: 1 });
    try {
      const addresses = (await e.sandbox()).slice(0, 4).map((s) => s.address);
      const alone = [];
      for (const a of addresses) alone.push((await e.property({ address: a }, { components: ['planning', 'das'] })).payload);
      const burst = await Promise.all(addresses.map((a) => e.property({ address: a }, { components: ['planning', 'das'] })));
      const strip = (p: any) => ({ ...p, meta: { ...p.meta, as_at: undefined, generated_at: undefined } });
      expect(burst.map((r) => strip(r.payload))).toEqual(alone.map(strip));
    } finally {
      await e.close();
    }
  }, 60_000);

  it('/healthz says warming, and what, until the server is warm; then ok', async () => {
    const t = await startTestServer({ threads: 1 });
    try {
      const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module.default;
      const schema = (openApiDocument() as any).paths['/healthz'].get.responses[200].content['application/json'].schema;
      const valid = new Ajv2020({ strict: false }).compile(schema);
      t.server.api.warming = 'VIC: HAND tiles of dem-5m.tif';
      const w = await t.get('/healthz');
      expect([w.status, w.body.status, w.body.warming]).toEqual([200, 'warming', 'VIC: HAND tiles of dem-5m.tif']);
      expect(valid(w.body)).toBe(true); // as the OpenAPI document describes it
      t.server.api.warming = null;
      const ok = await t.get('/healthz');
      expect([ok.status, ok.body.status, 'warming' in ok.body]).toEqual([200, 'ok', false]);
      expect(valid(ok.body)).toBe(true);
      expect(valid({ ...ok.body, status: 'asleep' })).toBe(false);
    } finally {
      await t.close();
    }
  }, 60_000);
});

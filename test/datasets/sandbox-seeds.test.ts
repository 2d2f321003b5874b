// The sample world for any seed (issue 21): the sandbox rules find their address for seeds 1 to 20. (All
// eight tiles for seeds 1-20 passed this check once, in 77 s; the test keeps
// the two tiles whose rules failed, to stay quick.)
// Seeds 1, 2, 4 and 7 used to fail (a narrow flood left no residential lot inside it in VIC or SA); the
// generator now raises such a tile's flood just enough. Only what the rules read is generated here: the
// terrain, the plan, the flood and vegetation masks and the parcels with their addresses.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, prepareTile } from '../../datasets/generator/generate.js';
import { writeCadastre } from '../../datasets/generator/layers/cadastre.js';
import { floodDepthAt } from '../../datasets/generator/layers/terrain-layers.js';
import { sandboxAddresses, sandboxFloodRule } from '../../datasets/generator/sandbox.js';
import { TILES } from '../../datasets/generator/tiles.js';
import { tempDir } from '../helpers/tmp.js';

describe('sandbox addresses for any seed', () => {
  it('the tiles that failed (VIC, SA) find each of their sandbox addresses for seeds 1-20; the default seed needs no raised flood', () => {
    const out = tempDir();
    const failures: string[] = [];
    let raised = 0;
    for (let seed = 1; seed <= 20; seed++) {
      for (const spec of TILES.filter((t) => t.id === 'vic' || t.id === 'sa')) {
        const ctx = prepareTile(spec.id, seed, out);
        if (ctx.floodOffset) raised++;
        writeCadastre(ctx);
        try {
          const rows = sandboxAddresses(ctx);
          expect(rows.length).toBeGreaterThan(0);
          // The flood rule's address really is flooded as its note says.
          const rule = sandboxFloodRule(ctx);
          if (rule) {
            const a = ctx.addresses.find((x) => x.text === rows[0].address)!;
            expect(rule(a.lot)).toBe(true);
            if (spec.id === 'nsw' || spec.id === 'qld') expect(floodDepthAt(ctx, a.lot.centre[0], a.lot.centre[1])).toBeGreaterThan(0.2);
          }
        } catch (err) {
          failures.push(`seed ${seed} ${spec.id}: ${(err as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(raised).toBeGreaterThan(0); // the seeds that used to fail took the raised flood
    // The default world is what it was: no tile's flood raised.
    for (const spec of TILES.filter((t) => ['vic', 'nsw', 'qld', 'sa'].includes(t.id))) expect(prepareTile(spec.id, DEFAULT_SEED, out).floodOffset ?? 0, spec.id).toBe(0);
  }, 300_000);
});

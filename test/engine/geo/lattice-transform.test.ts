import { describe, expect, it } from 'vitest';
import { getTransformer, LONLAT } from '../../../engine/geo/crs.js';
import { createWindow } from '../../../engine/geo/window.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';
import { latticeTransform } from '../../../engine/geo/lattice-transform.js';

describe('lattice transform', () => {
  it('matches the exact MGA -> lon/lat transform across a window to under a millimetre', () => {
    const w = createWindow(147.3, -42.9); // Hobart, MGA zone 55, near the zone edge
    const t = latticeTransform(w.crs, LONLAT, w.bbox);
    expect(t.identity).toBe(false);
    const exact = getTransformer(w.crs, LONLAT);
    const rnd = seededRandom(9);
    const xy = new Float64Array(2000);
    for (let i = 0; i < xy.length; i += 2) {
      xy[i] = rnd.range(w.bbox[0], w.bbox[2]);
      xy[i + 1] = rnd.range(w.bbox[1], w.bbox[3]);
    }
    const expected = Float64Array.from(xy);
    exact.forwardArray(expected);
    t.forwardArray(xy);
    let worst = 0;
    for (let i = 0; i < xy.length; i++) worst = Math.max(worst, Math.abs(xy[i] - expected[i]));
    // 1e-8 degrees is about 1 mm of latitude.
    expect(worst).toBeLessThan(1e-8);
  });

  it('matches lon/lat -> MGA to under a millimetre over a geographic box', () => {
    const box: [number, number, number, number] = [143.2, -23.4, 143.4, -23.2];
    const t = latticeTransform(LONLAT, 'EPSG:7854', box);
    const exact = getTransformer(LONLAT, 'EPSG:7854');
    const rnd = seededRandom(2);
    for (let i = 0; i < 200; i++) {
      const x = rnd.range(box[0], box[2]), y = rnd.range(box[1], box[3]);
      const p = Float64Array.from([x, y]);
      t.forwardArray(p);
      const [ex, ey] = exact.forward(x, y);
      expect(Math.hypot(p[0] - ex, p[1] - ey)).toBeLessThan(0.001);
    }
  });

  it('is the identity between equal CRSs', () => {
    const t = latticeTransform('EPSG:7855', 'EPSG:28355', [300000, 5800000, 303000, 5803000]);
    expect(t.identity).toBe(true);
    const xy = Float64Array.from([301000.5, 5801000.25]);
    t.forwardArray(xy);
    expect([...xy]).toEqual([301000.5, 5801000.25]);
  });
});

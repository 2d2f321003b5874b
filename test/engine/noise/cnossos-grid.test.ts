// The `cnossos` method of the noise model's physics path (engine/noise/cnossos-grid.ts, issue 49): where
// CoRTN is calibrated (near a long road over hard ground) the two agree, by construction of the emission; soft
// ground and distance attenuate as CNOSSOS-EU says; a short segment far away falls off as a point source; a
// noise wall screens; the worker gives what the thread gives.
import { afterAll, describe, expect, it } from 'vitest';
import { cnossosSegmentEnergy, cnossosTable, ROAD_SPECTRUM_A, type CnossosSegment } from '../../../engine/noise/cnossos-grid.js';
import { noiseGridEnergy, noiseGridNodes, noiseSurface, noiseSurfaceOnPool } from '../../../engine/noise/noise-grid.js';
import { buildNoiseNetwork } from '../../../engine/noise/noise-network.js';
import { createEnginePool } from '../../../engine/tasks/engine-pool.js';
import { at, road } from './noise-fixtures.js';

const db = (e: number) => 10 * Math.log10(e);
/** A straight road along x from -L to L metres (y = 0), one receiver `y` metres north; the two methods' Lden there. */
function both(y: number, options: { length?: number; cover?: number; barrier?: boolean; barrierOffset?: number } = {}) {
  const L = options.length ?? 2000;
  const net = buildNoiseNetwork(
    { roads: [road('r', [[-L, 0], [L, 0]], { aadt: 20000, speedKmh: 60, heavyShare: 0.05, ...(options.barrier ? { barrierHeightM: 4, barrierOffsetM: options.barrierOffset ?? 8 } : {}) })] },
    { groundCover: options.cover ?? 0 },
  );
  const [lon, lat] = at(0, y);
  const nodes = noiseGridNodes(net, lon, lat, 5);
  const k = 12; // the subject node of a 5 x 5 grid
  const cortn = noiseGridEnergy(net.scene, nodes.x, nodes.y, 'cortn');
  const cnossos = noiseGridEnergy(net.scene, nodes.x, nodes.y, 'cnossos');
  return { cortn: db(cortn.road[k]), cnossos: db(cnossos.road[k]), net, lon, lat };
}

describe('the cnossos physics method', () => {
  it('spreads the emission over a spectrum that sums to 0 dB, loudest at 1 kHz (EN 1793-3)', () => {
    expect(db(ROAD_SPECTRUM_A.reduce((s, v) => s + 10 ** (v / 10), 0))).toBeCloseTo(0, 10);
    expect(ROAD_SPECTRUM_A.indexOf(Math.max(...ROAD_SPECTRUM_A))).toBe(4);
  });

  it('agrees with CoRTN near a long road over hard ground, where CoRTN is calibrated', () => {
    for (const y of [15, 30]) {
      const r = both(y);
      expect(Math.abs(r.cnossos - r.cortn), `${y} m: CoRTN ${r.cortn.toFixed(2)}, CNOSSOS ${r.cnossos.toFixed(2)}`).toBeLessThan(0.6);
    }
  });

  it('attenuates more over soft ground than over hard, by CNOSSOS-EU\'s ground term, growing with distance', () => {
    const near = both(30, { cover: 1 }).cnossos - both(30, { cover: 0 }).cnossos;
    const far = both(300, { cover: 1 }).cnossos - both(300, { cover: 0 }).cnossos;
    expect(far).toBeLessThan(-1);
    expect(far).toBeLessThan(near);
  });

  it('falls off as a point source far from a short segment: about 6 dB a doubling, more with the air', () => {
    const t = cnossosTable(4, 2000);
    const seg: CnossosSegment = { x: -5, y: 0, ux: 1, uy: 0, len: 10, strength: 1e6, sourceOffset: 0, halfWidth: NaN, wallHeight: NaN, wallOffset: NaN };
    const drop = db(cnossosSegmentEnergy(t, seg, 0, 400, 0)) - db(cnossosSegmentEnergy(t, seg, 0, 800, 0));
    expect(drop).toBeGreaterThan(6);
    expect(drop).toBeLessThan(8);
    expect(cnossosSegmentEnergy(t, seg, 0, 2500, 0)).toBe(0); // past the scene's distance
  });

  it('screens behind a noise wall, as a thin screen in the path\'s profile; not a barrier behind the source line, as CoRTN', () => {
    const open = both(40).cnossos, walled = both(40, { barrier: true }).cnossos;
    expect(open - walled).toBeGreaterThan(5);
    const median = both(40, { barrier: true, barrierOffset: 0.5 });
    expect(median.cnossos).toBeCloseTo(open, 6);
    expect(median.cortn).toBeCloseTo(both(40).cortn, 6);
  });

  const pool = createEnginePool({ threads: 1 });
  afterAll(() => pool.destroy());

  it('gives the same surface on the worker as in the thread, and says which method it is', async () => {
    const r = both(60, { cover: 0.5 });
    const here = noiseSurface(r.net, r.lon, r.lat, { cells: 5, method: 'cnossos' });
    expect(await noiseSurfaceOnPool(pool, r.net, r.lon, r.lat, { cells: 5, method: 'cnossos' })).toEqual(here);
    expect(here.physics_method).toBe('cnossos');
    expect(here.physics_method_note).toMatch(/CNOSSOS-EU propagation per octave band/);
    expect(here.model_path_note).toMatch(/CNOSSOS-EU physics path/);
    const cortn = noiseSurface(r.net, r.lon, r.lat, { cells: 5 });
    expect(cortn.physics_method).toBe('cortn');
    expect(cortn.lden_db).not.toEqual(here.lden_db);
  });
});

import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { contoursSurface } from '../../../../engine/surfaces/contours/contours-surface.js';
import { chooseContourSource, normaliseState, type ContourSources, type DemContourSource, type VectorContourSource } from '../../../../engine/surfaces/contours/sources.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';
import { tempDir } from '../../../helpers/tmp.js';
import { SUBJECT, writeDem } from './dem-fixtures.js';

const dem: DemContourSource = { kind: 'dem', id: 'national_dem', name: 'National 5 m DEM', path: '/nonexistent.tif' };
/** A square around inner Melbourne (144.9-145.1 E, 37.7-37.9 S) standing for the VIC metro footprint. */
const melbourne: Polygon = { type: 'Polygon', coordinates: [[[144.9, -37.9], [145.1, -37.9], [145.1, -37.7], [144.9, -37.7], [144.9, -37.9]]] };
const vicMetro: VectorContourSource = { kind: 'vector', id: 'vic_metro', name: 'VIC metro 1 m', state: 'VIC', path: 'm.geojson', native_interval_m: 1, footprint: melbourne };
const vicState: VectorContourSource = { kind: 'vector', id: 'vic_statewide', name: 'VIC statewide 10 m', state: 'VIC', path: 's.geojson', native_interval_m: 10 };
const qld: VectorContourSource = { kind: 'vector', id: 'qld_1m', name: 'QLD 1 m', state: 'QLD', path: 'q.geojson', native_interval_m: 1 };
const all: ContourSources = { dem, vector: [vicState, vicMetro, qld] };

describe('one source per address', () => {
  it('VIC: the metro dataset inside its footprint, the statewide one elsewhere', () => {
    expect(chooseContourSource(145.0, -37.8, 'VIC', all)).toEqual({ kind: 'vector', source: vicMetro });
    expect(chooseContourSource(144.28, -36.76, 'VIC', all)).toEqual({ kind: 'vector', source: vicState }); // Bendigo
    expect(chooseContourSource(145.0, -37.8, 'Victoria', all)).toEqual({ kind: 'vector', source: vicMetro });
  });

  it('QLD and TAS use their own dataset; without one the answer is none, never the DEM', () => {
    expect(chooseContourSource(153.02, -27.47, 'QLD', all)).toEqual({ kind: 'vector', source: qld });
    const tas = chooseContourSource(147.33, -42.88, 'TAS', all);
    expect(tas).toMatchObject({ kind: 'none', state: 'TAS' });
    // Outside the metro footprint with no statewide dataset: none, not the metro lines and not the DEM.
    expect(chooseContourSource(144.28, -36.76, 'VIC', { dem, vector: [vicMetro] })).toMatchObject({ kind: 'none', state: 'VIC' });
  });

  it('NSW, ACT, WA, SA, NT and an undetermined state use the national DEM', () => {
    for (const state of ['NSW', 'ACT', 'WA', 'SA', 'NT', 'New South Wales', null, undefined, '']) {
      expect(chooseContourSource(151.2, -33.87, state, all)).toEqual({ kind: 'dem', source: dem });
    }
    expect(normaliseState(' western australia ')).toBe('WA');
  });
});

describe('contoursSurface', () => {
  const dir = tempDir('propintel-contours-surface-');

  it('answers a VIC address with no VIC dataset as unavailable, not with DEM lines', async () => {
    const { source } = await writeDem(dir, 'sydney', (dx, dy) => 100 + dx / 50 + dy / 70);
    const layer = await contoursSurface({ lon: 145.0, lat: -37.8, state: 'VIC', sources: { dem: source } });
    expect(layer).toEqual({ available: false, source: null, source_name: null, reason: 'source_not_configured', note: expect.stringMatching(/VIC contours come only from the state's own contour-line dataset/), services_tried: [] });
  });

  it('answers an NSW address from the DEM, naming it', async () => {
    const { source } = await writeDem(dir, 'nsw', (dx, dy) => 100 + dx / 50 + dy / 70);
    const layer = await contoursSurface({ ...SUBJECT, state: 'NSW', sources: { dem: source, vector: [vicMetro] }, interval: 10 });
    expect(layer).toMatchObject({ available: true, source: 'test_nsw', source_name: 'Test DEM nsw', interval_m: 10, interval_source: 'requested' });
    expect(layer.available && layer.features.features.length).toBeGreaterThan(5);
  });

  it('rejects a bad interval or subject before looking at any source', async () => {
    for (const interval of [0, -5, 250, NaN]) {
      await expectEngineError(() => contoursSurface({ ...SUBJECT, state: 'TAS', sources: {}, interval }), 'INVALID_ARGUMENT', /contour_interval_m/);
    }
    await expectEngineError(() => contoursSurface({ lon: 200, lat: -33, sources: { dem } }), 'INVALID_ARGUMENT', /lng/);
  });
});

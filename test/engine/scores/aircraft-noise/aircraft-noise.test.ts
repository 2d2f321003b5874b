import type { Feature, Geometry } from 'geojson';
import { describe, expect, it } from 'vitest';
import { aircraftNoiseScore, houseAcceptability, isStandardBand } from '../../../../engine/scores/aircraft-noise/aircraft-noise-score.js';
import { buildAnefLayer } from '../../../../engine/scores/aircraft-noise/anef-contours.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';
import { LAT, LON, polygon } from '../walkability/walk-fixtures.js';

const band = (half: number, min: number | null, max: number | null, extra: Record<string, unknown> = {}): Feature<Geometry> => ({
  type: 'Feature',
  properties: { anef_min: min, anef_max: max, airport: 'Sample Airport', source: 'sample_anef', ...extra },
  geometry: polygon([-half, -half], [half, -half], [half, half], [-half, half]),
});
const VIC = { lon: LON, lat: LAT, state: 'VIC' };
const layer = (features: Feature<Geometry>[], coverage: Record<string, 'complete' | 'partial' | 'not_integrated'> = { VIC: 'complete' }) => buildAnefLayer({ features, file: 'anef.geojson' }, coverage);

describe('scores.aircraft_noise', () => {
  it('uses the highest band containing the subject: nested 20-25 and 25-30 give anef_min 25, anef_max 30', () => {
    const r = aircraftNoiseScore(layer([band(3000, 20, 25), band(1000, 25, 30)]), VIC);
    expect(r).toMatchObject({ status: 'inside_contour', anef_min: 25, anef_max: 30, source: 'sample_anef', airport: 'Sample Airport', score: 50, as2021_house_acceptability: 'unacceptable' });
    expect(r.contours!.map((c) => c.anef_min)).toEqual([25, 20]);
  });

  it('anef_max is null for a non-standard band, an open band, and a fractional band', () => {
    expect(aircraftNoiseScore(layer([band(1000, 20, 30)]), VIC)).toMatchObject({ anef_min: 20, anef_max: null, score: 33.3 });
    expect(aircraftNoiseScore(layer([band(1000, 40, null)]), VIC)).toMatchObject({ anef_min: 40, anef_max: null, score: 100 });
    expect(aircraftNoiseScore(layer([band(1000, 22.5, 27.5)]), VIC)).toMatchObject({ anef_min: 22.5, anef_max: null });
    expect(aircraftNoiseScore(layer([band(1000, 10, 15)]), VIC).anef_max).toBeNull(); // below the supported 15-20
    expect([15, 20, 25, 30, 35].every((m) => isStandardBand(m, m + 5))).toBe(true);
    expect(isStandardBand(40, 45)).toBe(false);
  });

  it('outside every contour: 0 for a complete state, unscored for partial or not integrated', () => {
    const far = [band(500, 25, 30)].map((f) => ({ ...f, geometry: polygon([5000, 5000], [6000, 5000], [6000, 6000], [5000, 6000]) }));
    expect(aircraftNoiseScore(layer(far), VIC)).toMatchObject({ status: 'outside_contours', score: 0, anef_min: null, anef_max: null, contours: [] });
    expect(aircraftNoiseScore(layer(far, { VIC: 'partial' }), VIC)).toMatchObject({ status: 'checked_partial_coverage', score: null });
    expect(aircraftNoiseScore(layer(far), { ...VIC, state: 'QLD' })).toMatchObject({ status: 'not_integrated', score: null, contours: null });
    expect(aircraftNoiseScore(buildAnefLayer({ status: 'unavailable', reason: 'anef.geojson: timed out' }, { VIC: 'complete' }), VIC)).toMatchObject({ status: 'unavailable', score: null });
  });

  it('follows AS 2021 acceptability for houses: below 20 acceptable, 20-25 conditional, above 25 unacceptable', () => {
    expect([15, 20, 24, 25, 40, null].map(houseAcceptability)).toEqual(['acceptable', 'conditionally_acceptable', 'conditionally_acceptable', 'unacceptable', 'unacceptable', null]);
  });

  it('rejects a contour without anef_min, or with its edges the wrong way round, naming the layer (the noise model\'s parser)', async () => {
    await expectEngineError(() => layer([band(100, null, 25)]), 'INVALID_DATA', 'anef.geojson', /feature 0: anef_min is required/);
    await expectEngineError(() => layer([band(100, 25, 20)]), 'INVALID_DATA', 'anef.geojson', /anef_max \(20\) must exceed anef_min \(25\)/);
  });
});

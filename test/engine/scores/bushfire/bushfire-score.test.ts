import type { Feature, Geometry } from 'geojson';
import { describe, expect, it } from 'vitest';
import { buildBushfireLayers, type BushfireInput } from '../../../../engine/scores/bushfire/bushfire-layers.js';
import { bushfireScore } from '../../../../engine/scores/bushfire/bushfire-score.js';
import { effectiveSlope } from '../../../../engine/scores/bushfire/effective-slope.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';
import { analyticDem } from '../../../helpers/analytic-dem.js';
import { LAT, LON, polygon } from '../walkability/walk-fixtures.js';

const feature = (geometry: Geometry, properties: Record<string, unknown>): Feature<Geometry> => ({ type: 'Feature', properties, geometry });
/** A block of vegetation from `near` to `far` metres east of the subject, 400 m tall. */
const vegEast = (near: number, vegClass: string, far = near + 300) => feature(polygon([near, -200], [far, -200], [far, 200], [near, 200]), { veg_class: vegClass, source: 'sample_veg' });
const flat = { grid: analyticDem(() => 50, { halfWidth: 800, cell: 5 }), source: 'sample_dem' };
/** A plane falling `deg` degrees towards the east (downslope away from a site west of it). */
const fallingEast = (deg: number) => ({ grid: analyticDem((e) => 100 - Math.tan((deg * Math.PI) / 180) * e, { halfWidth: 800, cell: 5 }), source: 'sample_dem' });

function layers(extra: BushfireInput = {}) {
  return buildBushfireLayers({ vegetation: { features: [], source: 'sample_veg' }, fireHistory: { features: [], source: 'sample_fire' }, ...extra });
}
const VIC = { lon: LON, lat: LAT, state: 'VIC' };

describe('effective slope under the vegetation', () => {
  it('recovers a plane\'s fall away from the site, and its rise as negative', () => {
    expect(effectiveSlope(fallingEast(7).grid, LON, LAT, 36, 0)!.downslopeDeg).toBeCloseTo(7, 4);
    expect(effectiveSlope(fallingEast(-7).grid, LON, LAT, 36, 0)!.downslopeDeg).toBeCloseTo(-7, 4);
    // Looking north across an east-falling plane the land is level.
    expect(effectiveSlope(fallingEast(7).grid, LON, LAT, 0, 40)!.downslopeDeg).toBeCloseTo(0, 4);
  });
});

describe('indicative BAL (AS 3959-2009 Method 1, never from the score)', () => {
  it('forest 30 m away on flat land in VIC (FDI 100, Table 2.4.2: 25-<35 m) is BAL-29', () => {
    const r = bushfireScore(layers({ vegetation: { features: [vegEast(30, 'forest')], source: 'sample_veg' } }), VIC, { dem: flat, vegetationToleranceM: 2, slopeToleranceDeg: 0 });
    expect(r.indicative_bal).toMatchObject({ bal: 'BAL-29', range: ['BAL-29', 'BAL-29'], confidence: 'moderate', fdi: 100, table: 'Table 2.4.2', method: 'AS 3959-2009 Method 1' });
    expect(r.indicative_bal!.determining_vegetation).toMatchObject({ veg_class: 'forest', slope_class: 'upslope_or_flat', source: 'sample_veg' });
    expect(r.indicative_bal!.determining_vegetation!.distance_m).toBeCloseTo(30, 0);
  });

  it('the range spans the bands the tolerances reach: 20-40 m of forest is BAL-19 to BAL-40 on the flat', () => {
    const r = bushfireScore(layers({ vegetation: { features: [vegEast(30, 'forest')], source: 'sample_veg' } }), VIC, { dem: flat, slopeToleranceDeg: 0 });
    expect(r.indicative_bal).toMatchObject({ bal: 'BAL-29', range: ['BAL-19', 'BAL-40'], confidence: 'low' });
    // With the default 2 deg slope tolerance the upper case is 20 m at a >0-5 deg downslope (24/32/43/57): BAL-FZ.
    const d = bushfireScore(layers({ vegetation: { features: [vegEast(30, 'forest')], source: 'sample_veg' } }), VIC, { dem: flat });
    expect(d.indicative_bal!.range).toEqual(['BAL-19', 'BAL-FZ']);
  });

  it('woodland 36 m away: downslope 7 deg is BAL-29 (20/26/37/50), upslope is BAL-12.5 (12/16/24/33)', () => {
    const woodland = layers({ vegetation: { features: [vegEast(36, 'woodland')], source: 'sample_veg' } });
    expect(bushfireScore(woodland, VIC, { dem: fallingEast(7), vegetationToleranceM: 0.5 }).indicative_bal).toMatchObject({ bal: 'BAL-29' });
    expect(bushfireScore(woodland, VIC, { dem: fallingEast(-7), vegetationToleranceM: 0.5 }).indicative_bal).toMatchObject({ bal: 'BAL-12.5' });
    expect(bushfireScore(woodland, VIC, { dem: fallingEast(7) }).indicative_bal!.determining_vegetation!.slope_class).toBe('downslope_5_10');
  });

  it('uses the state\'s FDI: forest 30 m away in QLD (FDI 40, Table 2.4.5: BAL-19 is 20-<28 m) is BAL-12.5, where FDI 100 would make it BAL-29', () => {
    const l = layers({ vegetation: { features: [vegEast(30, 'forest')], source: 'sample_veg' } });
    expect(bushfireScore(l, { ...VIC, state: 'QLD' }, { dem: flat, vegetationToleranceM: 1 }).indicative_bal).toMatchObject({ bal: 'BAL-12.5', fdi: 40, table: 'Table 2.4.5' });
    const at100 = bushfireScore(l, { ...VIC, state: 'QLD' }, { dem: flat, vegetationToleranceM: 1, fdi: 100 }).indicative_bal!;
    expect(at100).toMatchObject({ bal: 'BAL-29', fdi: 100 }); // Table 2.4.2 forest, flat: BAL-29 is 25-<35 m
    expect(at100.fdi_basis).toMatch(/supplied by the caller/);
  });

  it('inside classified vegetation is BAL-FZ; with none within 100 m it is BAL-LOW with high confidence', () => {
    expect(bushfireScore(layers({ vegetation: { features: [vegEast(-50, 'scrub', 50)], source: 'sample_veg' } }), VIC, { dem: flat }).indicative_bal!.bal).toBe('BAL-FZ');
    const none = bushfireScore(layers({ vegetation: { features: [vegEast(400, 'forest'), vegEast(-300, 'low_threat', 300)], source: 'sample_veg' } }), VIC, { dem: flat });
    expect(none.indicative_bal).toMatchObject({ bal: 'BAL-LOW', range: ['BAL-LOW', 'BAL-LOW'], confidence: 'high', determining_vegetation: null });
  });

  it('beyond 20 deg downslope Method 1 does not apply: no preliminary BAL', () => {
    const r = bushfireScore(layers({ vegetation: { features: [vegEast(40, 'forest')], source: 'sample_veg' } }), VIC, { dem: fallingEast(25) });
    expect(r.indicative_bal).toBeNull();
    expect(r.delivery_contract.preliminary_bal).toEqual({ included: false, status: 'method_1_not_applicable' });
  });

  it('without a DEM the slope is assumed flat and the range widened, at low confidence', () => {
    const r = bushfireScore(layers({ vegetation: { features: [vegEast(45, 'forest')], source: 'sample_veg' } }), VIC, {});
    // Flat 45 m: BAL-19 (35-<48). Upper: 35 m at >15-20 deg (50/61/78/98) is BAL-FZ.
    expect(r.indicative_bal).toMatchObject({ bal: 'BAL-19', range: ['BAL-12.5', 'BAL-FZ'], confidence: 'low' });
    expect(r.indicative_bal!.assumptions[0]).toMatch(/No DEM/);
    expect(r.coverage.terrain_slope).toBe('not_integrated');
  });

  it('is never derived from the score: raising the score (fire history, official hit) leaves the BAL unchanged', () => {
    const veg = { features: [vegEast(30, 'forest')], source: 'sample_veg' };
    const base = bushfireScore(layers({ vegetation: veg }), VIC, { dem: flat });
    const fire = feature(polygon([-900, -100], [-600, -100], [-600, 100], [-900, 100]), { fire_year: 2019, fire_type: 'bushfire', source: 'sample_fire' });
    const overlay = { VIC: { coverage: 'complete' as const, source: 'sample_bpa', features: [feature(polygon([-500, -500], [500, -500], [500, 500], [-500, 500]), { ZONE_CODE: 'BMO' })] } };
    const more = bushfireScore(layers({ vegetation: veg, fireHistory: { features: [fire], source: 'sample_fire' }, officialOverlays: overlay }), VIC, { dem: flat });
    expect(more.score!).toBeGreaterThan(base.score!);
    expect(more.indicative_bal).toEqual(base.indicative_bal);
    expect(more.delivery_contract.bal_derived_from_score).toBe(false);
  });
});

describe('the modelled score', () => {
  it('hand-worked: forest 350 m away on flat land scores 100 * 0.75 * 0.5 * 0.8 = 30', () => {
    // F = hazard 1 * (1 - 350/700) = 0.5; T = 0; H = 0.
    const r = bushfireScore(layers({ vegetation: { features: [vegEast(350, 'forest')], source: 'sample_veg' } }), VIC, { dem: flat });
    expect(r.score).toBe(30);
    expect(r.level).toBe('low');
    expect(r.label).toBe('Low bushfire exposure (screening estimate)');
    expect(r.components.vegetation_fuel.value).toBe(0.5);
  });

  it('hand-worked: woodland weighs 33/48 of forest (FDI 100 BAL-19 limits): 0.6875 * 0.5 * 0.75 * 0.8 = 20.6', () => {
    const r = bushfireScore(layers({ vegetation: { features: [vegEast(350, 'woodland')], source: 'sample_veg' } }), VIC, { dem: flat });
    expect(r.score).toBe(20.6);
  });

  it('hand-worked: a mapped bushfire 1,000 m away adds 0.25 * (1 - 1000/2000) = 12.5; a prescribed burn adds nothing', () => {
    const veg = { features: [vegEast(350, 'forest')], source: 'sample_veg' };
    const burn = (type: string) => feature(polygon([-1300, -100], [-1000, -100], [-1000, 100], [-1300, 100]), { fire_year: 2009, fire_type: type, source: 'sample_fire' });
    expect(bushfireScore(layers({ vegetation: veg, fireHistory: { features: [burn('bushfire')], source: 'sample_fire' } }), VIC, { dem: flat }).score).toBe(42.5);
    expect(bushfireScore(layers({ vegetation: veg, fireHistory: { features: [burn('prescribed')], source: 'sample_fire' } }), VIC, { dem: flat }).score).toBe(30);
  });

  it('steeper terrain raises the fuel term: 10 deg regional slope gives 0.75 * 0.5 * (0.8 + 0.2 * 0.5) = 33.75', () => {
    const r = bushfireScore(layers({ vegetation: { features: [vegEast(350, 'forest')], source: 'sample_veg' } }), VIC, { dem: fallingEast(10) });
    expect(r.components.terrain_slope.value).toBe(10);
    expect(r.score).toBeCloseTo(33.8, 5);
  });
});

describe('official mapping is kept apart from modelled inputs', () => {
  const veg = { features: [vegEast(20, 'forest')], source: 'sample_veg' };
  const bmo = feature(polygon([-500, -500], [500, -500], [500, 500], [-500, 500]), { ZONE_CODE: 'BMO', LGA: 'GREATER BENDIGO' });
  const away = feature(polygon([2000, 2000], [2500, 2000], [2500, 2500], [2000, 2500]), { ZONE_CODE: 'BMO' });

  it('a hit reports the publisher-native properties and its normalised category', () => {
    const r = bushfireScore(layers({ vegetation: veg, officialOverlays: { VIC: { coverage: 'complete', source: 'sample_vic_bmo', features: [bmo] } } }), VIC, { dem: flat });
    expect(r.official_zone_status).toBe('hit');
    expect(r.overlay_basis).toMatchObject({ kind: 'official_mapping', state: 'VIC', state_coverage: 'complete', source: 'sample_vic_bmo' });
    expect(r.overlay_basis.hits).toEqual([{ category: 'bushfire_management_overlay', source: 'sample_vic_bmo', properties: { ZONE_CODE: 'BMO', LGA: 'GREATER BENDIGO' } }]);
    expect(r.coverage.official_overlay).toBe('returned');
  });

  it('a NSW bush fire prone land category is recognised', () => {
    const nsw = feature(polygon([-500, -500], [500, -500], [500, 500], [-500, 500]), { category: 'Vegetation Category 1' });
    const r = bushfireScore(layers({ officialOverlays: { NSW: { coverage: 'complete', source: 'sample_nsw_bfpl', features: [nsw] } } }), { ...VIC, state: 'NSW' }, {});
    expect(r.overlay_basis.hits[0].category).toBe('bush_fire_prone_land');
  });

  it('a miss is checked_no_hit on complete coverage and checked_partial_coverage on partial', () => {
    expect(bushfireScore(layers({ officialOverlays: { VIC: { coverage: 'complete', source: 's', features: [away] } } }), VIC, {}).official_zone_status).toBe('checked_no_hit');
    expect(bushfireScore(layers({ officialOverlays: { VIC: { coverage: 'partial', source: 's', features: [away] } } }), VIC, {}).official_zone_status).toBe('checked_partial_coverage');
  });

  it('an unavailable official lookup stays unavailable however high the modelled exposure', () => {
    const r = bushfireScore(layers({ vegetation: veg, officialOverlays: { VIC: { status: 'unavailable', reason: 'vic_bpa.geojson: timed out' } } }), VIC, { dem: flat });
    expect(r.score).toBe(58.3); // 0.75 * (1 - 20/700) * 0.8
    expect(r.official_zone_status).toBe('unavailable');
    expect(r.coverage.official_overlay).toBe('unavailable');
    expect(r.overlay_basis.kind).toBe('official_lookup_unavailable');
    expect(r.overlay_basis.hits).toEqual([]);
    expect(r.components.official_overlay).toMatchObject({ value: 'unavailable', source: null, level: 'unknown' });
  });

  it('a state with no overlay held is none / not integrated, never inferred', () => {
    const r = bushfireScore(layers({ vegetation: veg, officialOverlays: { VIC: { coverage: 'complete', source: 's', features: [bmo] } } }), { ...VIC, state: 'WA' }, { dem: flat });
    expect(r.official_zone_status).toBe('none');
    expect(r.coverage.official_overlay).toBe('not_integrated');
  });

  it('an official hit holds the score to at least 40 even with no mapped fuel nearby', () => {
    const r = bushfireScore(layers({ officialOverlays: { VIC: { coverage: 'complete', source: 's', features: [bmo] } } }), VIC, { dem: flat });
    expect(r.score).toBe(40);
  });
});

describe('coverage and the delivery contract', () => {
  it('vegetation that did not answer: no score, no BAL, and it says why', () => {
    const r = bushfireScore(layers({ vegetation: { status: 'unavailable', reason: 'veg.geojson: not found' } }), VIC, { dem: flat });
    expect(r).toMatchObject({ score: null, level: 'unknown', indicative_bal: null, label: 'Not assessed: vegetation data did not answer' });
    expect(r.coverage).toEqual({ official_overlay: 'not_integrated', vegetation_fuel: 'unavailable', terrain_slope: 'returned', fire_history: 'returned' });
    expect(r.delivery_contract.preliminary_bal).toEqual({ included: false, status: 'not_computed_vegetation_unavailable' });
    expect(r.components.vegetation_fuel.caveat).toMatch(/veg.geojson: not found/);
  });

  it('distinguishes a resolved address on its parcel from a bare coordinate', () => {
    const l = layers({ vegetation: { features: [vegEast(60, 'forest')], source: 'sample_veg' } });
    const addr = bushfireScore(l, { ...VIC, identity: { kind: 'address', address: '1 Sample St, Fitzroy VIC 3065', parcelId: '1\\PS1', onParcel: true } }, { dem: flat });
    expect(addr.delivery_contract.subject_identity).toMatchObject({ kind: 'resolved_address_on_parcel', resolved_address_on_parcel: true, parcel_id: '1\\PS1' });
    expect(addr.delivery_contract.preliminary_bal).toEqual({ included: true, status: 'indicative_screening' });
    const pt = bushfireScore(l, VIC, { dem: flat });
    expect(pt.delivery_contract.subject_identity).toMatchObject({ kind: 'coordinate_only', resolved_address_on_parcel: false });
    expect(pt.delivery_contract.preliminary_bal).toEqual({ included: true, status: 'indicative_screening_coordinate_only' });
    expect(pt.disclaimer).toMatch(/not a certified BAL assessment, cannot be used for building approval and carries no accuracy SLA/);
  });

  it('every component names the source it read, fire history included when it found nothing, and a caveat', () => {
    const r = bushfireScore(layers({ vegetation: { features: [vegEast(60, 'forest')], source: 'sample_veg' } }), VIC, { dem: flat });
    const cited = Object.fromEntries(Object.entries(r.components).map(([k, c]) => [k, [c.source, c.resolution]]));
    // The flat DEM's 5 m cells are the slope's resolution; the empty fire-history layer was still searched.
    expect(cited).toEqual({ official_overlay: [null, null], vegetation_fuel: ['sample_veg', null], terrain_slope: ['sample_dem', 5], fire_history: ['sample_fire', null] });
    for (const c of Object.values(r.components)) expect(c.caveat.length).toBeGreaterThan(10);
    expect(r.components.fire_history.value).toBe(0);
    expect(r.sources).toEqual(['sample_dem', 'sample_fire', 'sample_veg']);
  });

  it('rejects a vegetation class outside the schema, naming the layer', async () => {
    await expectEngineError(() => buildBushfireLayers({ vegetation: { features: [vegEast(10, 'jungle')], source: 'sample_veg' } }), 'INVALID_DATA', 'sample_veg vegetation', /"jungle"/);
  });
});

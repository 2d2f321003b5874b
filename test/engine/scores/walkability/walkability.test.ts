import { describe, expect, it } from 'vitest';
import { distanceMetres } from '../../../../engine/geo/distance.js';
import { WALK_CATEGORIES } from '../../../../engine/scores/walkability/categories.js';
import { distanceDecay, toblerSlopeFactor } from '../../../../engine/scores/walkability/distance-decay.js';
import { computeWalkability } from '../../../../engine/scores/walkability/walkability-score.js';
import { analyticDem } from '../../../helpers/analytic-dem.js';
import { walkSlopeFromDem } from '../../../../engine/scores/walkability/walkability-score.js';
import { at, indexes, LAT, line, LON, polygon, xy } from './walk-fixtures.js';

describe('the 24 scenarios', () => {
  it('are every category x band, with straight-line band membership at the band edges', () => {
    // Per category: 399 m (all bands), 401 m and 799 m (800 and 1,200), 801 m and 1,199 m (1,200 only),
    // 1,201 m (no band). Expected counts: 400 m -> 1, 800 m -> 3, 1,200 m -> 5.
    const pts = WALK_CATEGORIES.flatMap((c, i) => [399, 401, 799, 801, 1199, 1201].map((d) => at(c, d, 45 * i)));
    const r = computeWalkability(indexes(pts), LON, LAT);
    expect(r.scenarios).toHaveLength(24);
    expect(new Set(r.scenarios.map((s) => s.id)).size).toBe(24);
    for (const c of WALK_CATEGORIES) {
      const rows = r.scenarios.filter((s) => s.category === c);
      expect(rows.map((s) => [s.band_m, s.minutes, s.count, s.reachable_count, s.met])).toEqual([
        [400, 5, 1, 1, true],
        [800, 10, 3, 3, true],
        [1200, 15, 5, 5, true],
      ]);
    }
    expect(r.screening_contract).toMatchObject({ method: 'straight_line_distance_bands', scenario_count: 24, walking_speed_m_per_min: 80 });
  });

  it('a category with nothing in a band is not met there, and one with no data at all is null, not false', () => {
    const r = computeWalkability(indexes([at('grocery', 1000)], { amenitySets: [] }), LON, LAT);
    expect(r.score).toBeNull(); // no amenity set answered at all
    const s = computeWalkability(indexes([at('grocery', 1000)]), LON, LAT);
    expect(s.scenarios.filter((x) => x.category === 'grocery').map((x) => x.met)).toEqual([false, false, true]);
    expect(s.scenarios.find((x) => x.id === 'park_1200m')).toMatchObject({ count: 0, met: false });
  });
});

describe('distance decay and rank weights', () => {
  it('follows the documented curve', () => {
    const expected = [1, 1, 0.8, 0.6, 0.45, 0.3, 0.15, 0, 0];
    [0, 400, 600, 800, 1000, 1200, 1800, 2400, 3000].forEach((d, i) => expect(distanceDecay(d)).toBeCloseTo(expected[i], 12));
  });

  it('scores a hand-worked neighbourhood', () => {
    // Grocery at 600 m: decay 1 - 0.4 * 200/400 = 0.8 -> 80.
    // Cafes at 100, 200, 300, 1,000 and 2,000 m, rank weights 1.25, 0.75, 0.45, 0.25, 0.25, decays 1, 1, 1,
    // 0.45, 0.1: 2.45 + 0.1125 + 0.025 = 2.5875 of 2.95 -> 87.7.
    // Overall: (3 * 0.8 + 2.5875) / 12.45 = 0.4006 -> 40.1.
    const pts = [at('grocery', 600), ...[100, 200, 300, 1000, 2000].map((d, i) => at('cafe_restaurant', d, 10 * i))];
    const r = computeWalkability(indexes(pts), LON, LAT);
    expect(r.category_scores.grocery.score).toBe(80);
    expect(r.category_scores.cafe_restaurant.score).toBe(87.7);
    expect(r.category_scores.cafe_restaurant.counted).toBe(5);
    expect(r.category_scores.park.score).toBe(0);
    expect(r.score).toBe(40.1);
    expect(r.category_scores.grocery.nearest_m).toBe(600);
    expect(r.category_scores.grocery.nearest_name).toBe('grocery 600 m');
  });

  it('only the nearest ranked amenities count: a second grocery adds nothing', () => {
    const one = computeWalkability(indexes([at('grocery', 300)]), LON, LAT);
    const two = computeWalkability(indexes([at('grocery', 300), at('grocery', 350, 200)]), LON, LAT);
    expect(two.category_scores.grocery.score).toBe(one.category_scores.grocery.score);
    expect(two.scenarios.find((s) => s.id === 'grocery_400m')!.count).toBe(2);
  });
});

describe('barrier adjustments', () => {
  // A motorway running north-south 300 m east of the subject.
  const motorway = line([300, 2000], [300, -2000]);
  const grocery = at('grocery', 600, 90);

  it('a motorway between subject and amenity with no crossing point lowers the score and shows in coverage', () => {
    const clear = computeWalkability(indexes([grocery]), LON, LAT);
    const blocked = computeWalkability(indexes([grocery], { motorways: { geometries: [motorway], source: 'sample_roads' } }), LON, LAT);
    // 600 m + 400 m penalty = 1,000 m: decay 0.45 instead of 0.8.
    expect(clear.category_scores.grocery.score).toBe(80);
    expect(blocked.category_scores.grocery.score).toBe(45);
    expect(blocked.score!).toBeLessThan(clear.score!);
    expect(blocked.category_scores.grocery).toMatchObject({ nearest_m: 600, nearest_adjusted_m: 1000, barrier_penalised: 1 });
    expect(blocked.coverage.motorway_check).toMatchObject({ status: 'answered', source: 'sample_roads', penalised_amenities: 1 });
    expect(blocked.scenarios.find((s) => s.id === 'grocery_800m')).toMatchObject({ count: 1, reachable_count: 0, met: false });
    expect(blocked.components.motorway_barrier).toMatchObject({ value: 1, source: 'sample_roads' });
  });

  it('a crossing point within 200 m of where the line crosses relieves the motorway, one farther away does not', () => {
    // The line crosses the motorway at 300 m east; a crossing 150 m north of that point is within 200 m.
    const pt = (e: number, n: number) => ({ lon: xy(e, n)[0], lat: xy(e, n)[1] });
    const near = { points: [pt(300, 150)], source: 'sample_crossings' };
    const far = { points: [pt(300, 250)], source: 'sample_crossings' };
    const m = { geometries: [motorway], source: 'sample_roads' };
    expect(computeWalkability(indexes([grocery], { motorways: m, crossings: near }), LON, LAT).category_scores.grocery.score).toBe(80);
    expect(computeWalkability(indexes([grocery], { motorways: m, crossings: far }), LON, LAT).category_scores.grocery.score).toBe(45);
  });

  it('an amenity on the subject\'s side of the motorway is not penalised', () => {
    const west = at('grocery', 600, 270);
    const r = computeWalkability(indexes([west], { motorways: { geometries: [motorway], source: 'sample_roads' } }), LON, LAT);
    expect(r.category_scores.grocery.score).toBe(80);
    expect(r.coverage.motorway_check.penalised_amenities).toBe(0);
  });

  it('major water (a lake polygon) between subject and amenity is penalised the same way', () => {
    const lake = polygon([200, -150], [450, -150], [450, 150], [200, 150]);
    const r = computeWalkability(indexes([grocery], { majorWater: { geometries: [lake], source: 'sample_water' } }), LON, LAT);
    expect(r.category_scores.grocery.score).toBe(45);
    expect(r.coverage.major_water_check).toMatchObject({ status: 'answered', penalised_amenities: 1 });
  });
});

describe('regional slope adjustment (Tobler 1993)', () => {
  it('is 1 on the flat, cosh(3.5 s) for gentle slopes, and 1.0651 at gradient 0.1', () => {
    expect(toblerSlopeFactor(0)).toBe(1);
    // g = 0.05: s = (2/pi) 0.05 = 0.03183 <= 0.05, so f = cosh(3.5 * 0.03183) = 1.00621.
    expect(toblerSlopeFactor(0.05)).toBeCloseTo(Math.cosh(3.5 * (2 / Math.PI) * 0.05), 12);
    // g = 0.1: s = 0.063662; (e^{3.5 * 0.113662} + e^{3.5 * 0.013662}) / (2 e^{0.175}) = (1.48860 + 1.04898) / 2.38249 = 1.06508.
    expect(toblerSlopeFactor(0.1)).toBeCloseTo(1.06508, 4);
  });

  it('a DEM gradient of 0.1 stretches 380 m to 404.7 m: counted in the 400 m band, not reachable in it', () => {
    const dem = analyticDem((e) => 0.1 * e, { lon: LON, lat: LAT, halfWidth: 1500, cell: 20 });
    const slope = walkSlopeFromDem({ grid: dem, source: 'sample_dem' }, LON, LAT)!;
    expect('gradient' in slope && slope.gradient).toBeCloseTo(0.1, 6);
    const r = computeWalkability(indexes([at('pharmacy', 380)]), LON, LAT, { slope });
    expect(r.scenarios.find((s) => s.id === 'pharmacy_400m')).toMatchObject({ count: 1, reachable_count: 0, met: false });
    expect(r.adjustments.slope_factor).toBeCloseTo(1.0651, 4);
    expect(r.coverage.regional_slope).toMatchObject({ status: 'answered', source: 'sample_dem' });
    expect(r.components.regional_slope).toMatchObject({ value: 0.1, source: 'sample_dem', resolution: 20 });
  });
});

describe('coverage, degraded checks and the cache contract', () => {
  it('a check that did not answer is degraded, visible, and marks the result not cacheable', () => {
    const r = computeWalkability(indexes([at('grocery', 300)], { majorWater: { status: 'unavailable', reason: 'water.geojson: read timed out' } }), LON, LAT);
    expect(r.coverage.major_water_check).toMatchObject({ status: 'degraded', reason: 'water.geojson: read timed out' });
    expect(r.delivery_contract).toMatchObject({ cacheable: false, cache_policy: 'do_not_pin', degraded_checks: ['major_water_check'] });
    expect(r.caveat).toMatch(/Degraded checks: major_water_check/);
    // The screening still answers: grocery at 300 m earns its full 3 of 12.45 points -> 24.1.
    expect(r.category_scores.grocery.score).toBe(100);
    expect(r.score).toBe(24.1);
  });

  it('a layer that is simply not held is not integrated, not degraded, and the result stays cacheable', () => {
    const r = computeWalkability(indexes([at('grocery', 300)], { majorWater: null, motorways: null }), LON, LAT);
    expect(r.coverage.major_water_check.status).toBe('not_integrated');
    expect(r.coverage.regional_slope.status).toBe('not_integrated');
    expect(r.delivery_contract).toMatchObject({ cacheable: true, cache_policy: 'long_lived', degraded_checks: [] });
  });

  it('missing crossing points mean barriers cannot be checked: degraded when the crossings failed to load', () => {
    const r = computeWalkability(indexes([at('grocery', 600)], { motorways: { geometries: [line([300, 2000], [300, -2000])], source: 'sample_roads' }, crossings: { status: 'unavailable', reason: 'crossings.csv: not found' } }), LON, LAT);
    expect(r.coverage.motorway_check.status).toBe('degraded');
    expect(r.coverage.motorway_check.reason).toMatch(/crossing points unavailable/);
    expect(r.category_scores.grocery.score).toBe(80); // not penalised without the crossing layer
    expect(r.delivery_contract.cacheable).toBe(false);
  });

  it('a failed amenity set leaves its categories out (null), never as zero, and degrades the result', () => {
    const ix = indexes([at('grocery', 300), at('school', 300)], {});
    ix.sets[1] = { ...ix.sets[1], status: 'unavailable', reason: 'stops.csv: not found', sources: [] };
    const r = computeWalkability(ix, LON, LAT);
    expect(r.category_scores.public_transport).toMatchObject({ score: null, level: 'unknown' });
    expect(r.category_scores.public_transport.component.source).toBeNull();
    expect(r.scenarios.filter((s) => s.category === 'public_transport').every((s) => s.met === null)).toBe(true);
    expect(r.coverage.amenities).toMatchObject({ status: 'degraded', degraded_categories: ['public_transport'] });
    // Score over the answered categories: grocery 3 + school 1 earned of 12.45 - 1.5 = 10.95 -> 36.5.
    expect(r.score).toBe(36.5);
    expect(r.delivery_contract.cacheable).toBe(false);
  });
});

describe('crowd-sourced categories and geometry', () => {
  it('lists the categories drawing on the crowd-sourced dataset', () => {
    const pts = [at('cafe_restaurant', 200, 0, { crowd: true, source: 'sample_osm' }), at('grocery', 300, 90, { source: 'sample_state' }), at('public_transport', 100)];
    const r = computeWalkability(indexes(pts), LON, LAT);
    expect(r.osm_amenity_categories).toEqual(['cafe_restaurant']);
    expect(r.sources).toEqual(['sample_amenities', 'sample_crossings', 'sample_osm', 'sample_roads', 'sample_state', 'sample_water']);
  });

  it('with include_geometry, returns three band polygons with a method note', () => {
    const r = computeWalkability(indexes([]), LON, LAT, { includeGeometry: true });
    expect(r.delivery_contract.geometry).toBe('included');
    const wa = r.walking_areas!;
    expect(wa.method_note).toMatch(/not road-network isochrones/);
    expect(wa.features.map((f) => [f.properties.band_m, f.properties.minutes])).toEqual([[400, 5], [800, 10], [1200, 15]]);
    for (const f of wa.features) {
      const ring = f.geometry.coordinates[0];
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      for (const [x, y] of ring) expect(Math.abs(distanceMetres(LON, LAT, x, y) - f.properties.band_m)).toBeLessThan(0.1);
      // Counter-clockwise exterior ring (RFC 7946 section 3.1.6): positive shoelace area.
      let a = 0;
      for (let i = 0; i + 1 < ring.length; i++) a += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
      expect(a).toBeGreaterThan(0);
    }
    expect(computeWalkability(indexes([]), LON, LAT).walking_areas).toBeUndefined();
  });

  it('every component names the layer it read (null where none is held) and carries a caveat', () => {
    const r = computeWalkability(indexes([at('grocery', 300)]), LON, LAT);
    expect(Object.fromEntries(Object.entries(r.components).map(([k, c]) => [k, c.source]))).toEqual({ major_water_barrier: 'sample_water', motorway_barrier: 'sample_roads', regional_slope: null }); // no DEM given
    const amenities = ['cafe_restaurant', 'grocery', 'health', 'library_community', 'park', 'pharmacy'];
    // The fixture holds amenities but no stops or schools layer.
    expect(Object.fromEntries(Object.entries(r.category_scores).map(([k, s]) => [k, s.component.source]))).toEqual({
      ...Object.fromEntries(amenities.map((k) => [k, 'sample_amenities'])),
      public_transport: null,
      school: null,
    });
    for (const c of [...Object.values(r.components), ...Object.values(r.category_scores).map((s) => s.component)]) {
      expect(c.resolution).toBeNull(); // straight-line distances to points: no raster resolution
      expect(c.caveat.length).toBeGreaterThan(10);
    }
    expect(r.disclaimer).toBe('Walkability is a straight-line screening result, not a route-network score or isochrone.');
  });
});

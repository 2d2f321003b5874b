import { describe, expect, it } from 'vitest';
import { distanceMetres } from '../../../engine/geo/distance.js';
import { buildNoiseNetwork } from '../../../engine/noise/noise-network.js';
import { noiseScore } from '../../../engine/scores/noise/noise-score.js';
import { noiseScoreFromLden } from '../../../engine/noise/noise-score-scale.js';
import { LEVELS } from '../../../engine/score-kit/component.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { anefBand, at, northSouth, railLine, road } from './noise-fixtures.js';

// A measured arterial 120 m east, a crowd-sourced collector 60 m west, a crowd-sourced local street
// 300 m north, a measured collector 640 m east (just beyond a 500 m radius), a rail line 400 m south and
// a tram line 250 m north, no counters (the physics path everywhere).
const roads = [
  northSouth('art', 120, 5000, { aadt: 30_000, heavyShare: 0.06, speedKmh: 60, name: 'Main Rd', source: 'gov_roads' }),
  northSouth('osm-col', -60, 5000, { roadClass: 'collector', crowdSourced: true, name: 'Side St', source: 'osm' }),
  road('osm-loc', [[-2000, 300], [2000, 300]], { roadClass: 'local', crowdSourced: true, source: 'osm' }),
  northSouth('far', 640, 5000, { roadClass: 'collector', aadt: 4000, source: 'gov_roads' }),
];
const rail = [railLine('rail-1', 'rail', [[-5000, -400], [5000, -400]], { servicesPerDay: 200, speedKmh: 80, source: 'gov_rail' }), railLine('tram-1', 'tram', [[-5000, 250], [5000, 250]], { servicesPerDay: 300, speedKmh: 40, source: 'gov_tram' })];
const net = buildNoiseNetwork({ roads, rail, counters: [], loggers: [], anef: [anefBand(-100, -100, 100, 100, 15, 20)] });
const [LON, LAT] = at(0, 0);
const score = noiseScore(net, LON, LAT, { now: new Date('2025-03-01T00:00:00Z') });

describe('scores.noise', () => {
  it('reports Lden, its 0-100 score and level consistently', () => {
    expect(score.lden_db).not.toBeNull();
    expect(score.score).toBe(noiseScoreFromLden(score.lden_db!));
    expect(LEVELS).toContain(score.level);
    expect(score.lden_source).toBe('physics');
    expect(score.as_at).toBe('2025-03-01T00:00:00.000Z');
  });

  it('names the dominant contribution and its 8-point direction (the loud arterial to the east)', () => {
    expect(score.dominant_source).toMatchObject({ kind: 'road', id: 'art', direction: 'E', crowd_sourced: false, source: 'gov_roads' });
    expect(score.direction).toBe('E');
    expect(score.dominant_source!.distance_m!).toBeCloseTo(120, 0);
  });

  it('lists measured sources only, with true distances, within the radius plus a few just beyond', () => {
    const ids = score.sources.map((s) => s.id);
    expect(ids).not.toContain('osm-col');
    expect(ids).not.toContain('osm-loc');
    expect(ids).toEqual(['art', 'tram-1', 'rail-1', 'far']);
    expect(score.search_radius_m).toBe(500);
    for (const s of score.sources) {
      // True distance: the engine's distance to the reported closest point, matching the layout to 1 m.
      expect(s.distance_m).toBeCloseTo(distanceMetres(LON, LAT, s.closest_point.lng, s.closest_point.lat), 0);
      expect(s.beyond_search_radius).toBe(s.distance_m > 500);
    }
    expect(score.sources.find((s) => s.id === 'far')!.distance_m).toBeCloseTo(640, 0);
    expect(score.sources.find((s) => s.id === 'tram-1')).toMatchObject({ kind: 'tram', direction: 'N', services_day: 300 });
    expect(score.sources.find((s) => s.id === 'far')).toMatchObject({ traffic_basis: 'attribute', defaulted: ['heavy_share', 'speed_kmh'] });
    expect(noiseScore(net, LON, LAT, { beyondRadiusCount: 0 }).sources.map((s) => s.id)).toEqual(['art', 'tram-1', 'rail-1']);
  });

  it('names the loudest crowd-sourced road with its closest approach and own source when no counter is in range', () => {
    expect(score.dominant_road).toMatchObject({ road_id: 'osm-col', road_class: 'collector', direction: 'W', traffic_basis: 'default', source: 'osm' });
    expect(score.dominant_road!.defaulted).toContain('aadt');
    expect(score.dominant_road!.distance_m).toBeCloseTo(60, 0);
    const [lon, lat] = at(-60, 0);
    expect(distanceMetres(score.dominant_road!.closest_point.lng, score.dominant_road!.closest_point.lat, lon, lat)).toBeLessThan(1);
  });

  it('mixes rail, tram and aircraft in separately as components, energy-summed into the total', () => {
    const c = score.components;
    expect(c.rail).toMatchObject({ unit: 'dB', source: 'gov_rail' });
    expect(c.tram).toMatchObject({ unit: 'dB', source: 'gov_tram' });
    expect(c.aircraft).toMatchObject({ unit: 'dB', source: 'test_anef', value: 17.5 + 35 });
    expect(c.aircraft.caveat).toMatch(/ANEF 15-20/);
    const sum = 10 * Math.log10([c.road.value!, c.rail.value!, c.tram.value!, c.aircraft.value!].reduce((e, l) => e + 10 ** (l / 10), 0));
    expect(score.lden_db!).toBeCloseTo(sum, 0); // components are rounded to 0.1 dB
    for (const comp of Object.values(c)) expect(comp.level).not.toBe('unknown');
  });

  it('says what it does not know: layers not supplied are unknown, checked-and-absent is very low', () => {
    const roadsOnly = buildNoiseNetwork({ roads });
    const s = noiseScore(roadsOnly, LON, LAT);
    expect(s.components.rail).toMatchObject({ value: null, level: 'unknown', source: null });
    expect(s.components.aircraft.caveat).toMatch(/not assessed/);
    const withEmptyRail = noiseScore(buildNoiseNetwork({ roads, rail: [], anef: [] }), LON, LAT);
    expect(withEmptyRail.components.rail).toMatchObject({ value: null, level: 'very_low' });
    expect(withEmptyRail.components.aircraft.caveat).toMatch(/below it, not zero/);
  });

  it('flags every source that took class defaults and lists its catalogue sources', () => {
    expect(score.defaults_used.count).toBe(3); // osm-col, osm-loc (aadt), far (heavy share and speed)
    expect(score.defaults_used.note).toMatch(/class or mode defaults/);
    expect(score.source_ids).toEqual(['gov_rail', 'gov_roads', 'gov_tram', 'osm', 'test_anef']);
  });

  it('with nothing within range gives no score rather than a confident zero', () => {
    const empty = buildNoiseNetwork({ roads: [northSouth('x', 50_000, 100)] });
    const s = noiseScore(empty, LON, LAT);
    expect(s).toMatchObject({ score: null, lden_db: null, level: 'unknown', confidence_range_db: null, dominant_source: null, direction: null, sources: [] });
  });

  it('rejects coordinates out of range naming the parameter', async () => {
    await expectEngineError(() => noiseScore(net, 200, LAT), 'INVALID_ARGUMENT', /lng/);
  });
});

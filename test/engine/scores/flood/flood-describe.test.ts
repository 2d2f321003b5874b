// scores.flood in two steps, tested apart: weighFlood gives numbers and codes (no words), describeFlood words
// and rounds them. The describer is fed findings made by hand here, so its wording and rounding are checked
// without the formula; the weigher is checked to say nothing in English.
import { describe, expect, it } from 'vitest';
import type { NearestDrainage } from '../../../../engine/hydro/hand-at-point.js';
import { describeFlood, FLOOD_CAVEAT, hazardNote, round } from '../../../../engine/scores/flood/flood-describe.js';
import { FLOOD_WEIGHTS, weighFlood, type FloodEvidence, type FloodFindings } from '../../../../engine/scores/flood/flood-score.js';
import { officialLayer } from '../../../../engine/scores/flood/official-layer.js';

const drainage: NearestDrainage = { lon: 145, lat: -37.8, elevation_m: 10, distance_m: 40, bearing_deg: 90, compass: 'E', contributing_area_km2: 0.5, channel_source: 'modelled', catchment_truncated: false };
const VIC = { source: 'vic_overlays', state: 'VIC', coverage: 'complete' as const, verified: true, response_path: 'contact the council' };
const evidence: FloodEvidence = {
  hand: { ok: true, hand_m: 1.23456, drainage, resolution_m: 5, source: 'sample_dem', burned: true, threshold_km2: 0.05 },
  water: { distance_m: 123.456, name: 'Merri Creek', kind: 'water_body', source: 'sample_water' },
  rainfall: null,
  study: { depth_m: 0.123456, source: 'study_1', resolution_m: 2 },
  hazard: { class: 'H3', source: 'study_1_hazard', resolution_m: 2 },
  overlays: { hits: [], official: officialLayer('VIC', [VIC], []) },
  degraded: ['design_rainfall'],
};

describe('the flood describer', () => {
  it('words and rounds findings made by hand', () => {
    const findings: FloodFindings = {
      score: 64.56,
      floor: 60,
      sub: { terrain: 12.345, water: 43.21, study: 64.938, overlay: 0 },
      weights: FLOOD_WEIGHTS,
      floodHeight: 1.23456,
      rainfallMm: 60,
      terrain: { code: 'scored', hand_m: 1.23456, drainage, sub: 12.345 },
      water: { code: 'found', water: { distance_m: 123.456, name: 'Merri Creek', kind: 'water_body', source: 'sample_water' }, sub: 43.21 },
      study: { code: 'modelled', depth_m: 0.123456, sub: 64.938 },
      overlay: { code: 'statewide_no_hit', source: 'vic_overlays', sub: 0 },
    };
    const s = describeFlood(evidence, findings);
    expect(s.score).toBe(64.6);
    expect(s.level).toBe('high');
    expect(s.method.sub_scores).toEqual({ terrain: 12.3, water: 43.2, study: 64.9, overlay: 0 });
    expect(s.method.indicative_flood_height_m).toBe(1.23);
    expect(s.method.floor).toBe(60);
    expect(s.components.hand.caveat).toBe('Height above the nearest modelled drainage line (catchment 0.5 km2, mapped watercourses burned in); bare-earth terrain only: pipes, levees and buildings are not modelled.');
    expect(s.components.water_distance.value).toBe(123.5);
    // `water_body` is worded with a space.
    expect(s.components.water_distance.caveat).toBe('Straight-line distance to the nearest mapped water body (Merri Creek); unmapped drains and pipes are not included.');
    expect(s.components.design_rainfall.caveat).toBe('No design-rainfall raster was available; 60 mm (1 % AEP, 1 hour) was assumed for the terrain term.');
    expect(s.components.study_depth.value).toBe(0.123);
    expect(s.flood_depth).toEqual({ value_m: 0.123, aep: '1%', source: 'study_1', resolution_m: 2 });
    expect(s.components.official_overlay).toMatchObject({ value: 'no_hit', level: 'very_low', source: 'vic_overlays' });
    expect(s.hazard_class?.note).toBe(hazardNote('H3'));
    expect(hazardNote('H3')).toBe('H3 (AIDR 2017 hazard vulnerability class, level high) as modelled by the study; evidence only, not converted to a depth.');
    expect(s.completeness).toBe('partial');
    expect(s.caveat).toBe(FLOOD_CAVEAT);
  });

  it('says why each input is missing, one sentence per code', () => {
    const base = weighFlood(evidence);
    const caveats = (f: Partial<FloodFindings>) => describeFlood({ ...evidence, hand: null, study: null }, { ...base, ...f }).components;
    expect(caveats({ terrain: { code: 'no_dem' } }).hand.caveat).toBe('No elevation model is held for this location.');
    expect(caveats({ terrain: { code: 'flow_leaves_area' } }).hand.caveat).toBe('The flow path from the address leaves the analysed area before reaching a drainage line.');
    expect(caveats({ terrain: { code: 'failed', failure: 'TIMEOUT', message: 'took too long' } }).hand.caveat).toBe('Terrain analysis failed (TIMEOUT): took too long');
    expect(caveats({ water: { code: 'unavailable' } }).water_distance).toMatchObject({ value: null, level: 'unknown', caveat: 'Mapped water was not available for this location.' });
    expect(caveats({ water: { code: 'none_within_2km', sub: 0 } }).water_distance).toMatchObject({ value: null, level: 'very_low', caveat: 'No mapped watercourse or water body within 2 km.' });
    expect(caveats({ overlay: { code: 'no_source' } }).official_overlay.caveat).toBe('No flood overlay is published for this state.');
    expect(caveats({ overlay: { code: 'partial_or_unverified' } }).official_overlay.caveat).toBe('Overlay mapping here is partial or unverified; a miss proves nothing and is not scored.');
    expect(caveats({ overlay: { code: 'evidence_required', source: 'sa_overlays' } }).official_overlay).toMatchObject({ value: 'evidence_required', level: 'unknown', source: 'sa_overlays' });
  });

  it('rounds half away from zero at the stated decimals', () => {
    expect(round(1.005, 1)).toBe(1);
    expect(round(2.25, 1)).toBe(2.3);
    expect(round(0.1234, 3)).toBe(0.123);
  });
});

describe('the flood weigher', () => {
  it('gives numbers and codes, unrounded, and no sentences', () => {
    const f = weighFlood(evidence);
    expect(f.terrain).toMatchObject({ code: 'scored', hand_m: 1.23456 });
    expect(f.study).toMatchObject({ code: 'modelled', depth_m: 0.123456 });
    expect(f.overlay.code).toBe('statewide_no_hit');
    // A modelled depth floors the score at 60.
    expect(f.score).toBeGreaterThanOrEqual(60);
    // Every string it holds is a code, an id or a name from the evidence: none is a sentence of its own.
    const strings: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') strings.push(v);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(f);
    for (const s of strings) expect(s === 'Merri Creek' || /^[\w.-]+$/.test(s), s).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NearestDrainage } from '../../../../engine/hydro/hand-at-point.js';
import type { FloodOverlayHit } from '../../../../engine/scores/flood/flood-overlays.js';
import { FLOOD_WEIGHTS, indicativeFloodHeight, scoreFlood, studySubScore, terrainSubScore, waterSubScore, type FloodEvidence } from '../../../../engine/scores/flood/flood-score.js';
import { studyLibraryCaveat } from '../../../../engine/scores/flood/flood-describe.js';
import { officialLayer, type OverlaySourceInfo } from '../../../../engine/scores/flood/official-layer.js';

const drainage = (areaKm2: number): NearestDrainage => ({ lon: 145, lat: -37.8, elevation_m: 10, distance_m: 40, bearing_deg: 90, compass: 'E', contributing_area_km2: areaKm2, channel_source: 'modelled', catchment_truncated: false });
const VIC: OverlaySourceInfo = { source: 'vic_overlays', state: 'VIC', coverage: 'complete', verified: true, response_path: 'contact the council' };
const SA: OverlaySourceInfo = { source: 'sa_overlays', state: 'SA', coverage: 'complete', verified: true, response_path: 'supply flood evidence' };
const hitOf = (kind: FloodOverlayHit['kind'], source = 'vic_overlays', state = 'VIC'): FloodOverlayHit => ({ source, state, kind, code: null, label: kind, verified: true, response_path: 'contact the council', properties: {} });

function evidence(over: Partial<FloodEvidence> & { handM?: number | null; area?: number; state?: string; sources?: OverlaySourceInfo[] } = {}): FloodEvidence {
  const hits = over.overlays?.hits ?? [];
  return {
    hand: over.hand !== undefined ? over.hand : { ok: true, hand_m: over.handM === undefined ? 1 : over.handM, drainage: drainage(over.area ?? 0.5), resolution_m: 5, source: 'sample_dem', burned: false, threshold_km2: 0.05 },
    water: over.water !== undefined ? over.water : { distance_m: 100, name: 'Merri Creek', kind: 'stream', source: 'sample_water' },
    rainfall: over.rainfall !== undefined ? over.rainfall : { depth_mm: 60, source: 'sample_ifd', resolution_m: 2500 },
    study: over.study ?? null,
    hazard: over.hazard ?? null,
    overlays: over.overlays ?? { hits, official: officialLayer(over.state ?? 'VIC', over.sources ?? [VIC], hits) },
    degraded: over.degraded ?? [],
  };
}

describe('the flood score formula', () => {
  it('computes the indicative flood height by hand for a 5 ha catchment and 60 mm of rain', () => {
    // tc = 0.76 * 0.05^0.38 = 0.2435 h; I = 60 * 0.2435^-0.7 = 161.3 mm/h;
    // Q = 0.278 * 0.7 * 161.3 * 0.05 = 1.570 m3/s; H = 0.41 * 1.570^0.4 = 0.491 m.
    expect(indicativeFloodHeight(0.05, 60)).toBeCloseTo(0.491, 3);
    // Bigger catchments and wetter climates flood deeper; the height is clamped to 0.3-15 m.
    expect(indicativeFloodHeight(50, 60)).toBeGreaterThan(indicativeFloodHeight(0.05, 60));
    expect(indicativeFloodHeight(0.5, 100)).toBeGreaterThan(indicativeFloodHeight(0.5, 40));
    expect(indicativeFloodHeight(1e-6, 1)).toBe(0.3);
    expect(indicativeFloodHeight(1e6, 500)).toBe(15);
  });

  it('weights the available sub-scores as documented (hand-worked)', () => {
    // HAND 1 m, catchment 0.5 km2, 60 mm; stream 100 m away; statewide verified overlay misses; no study.
    const h = indicativeFloodHeight(0.5, 60);
    const t = terrainSubScore(1, h);
    const w = 100 * Math.exp(-100 / 150);
    const want = (0.4 * t + 0.15 * w + 0.15 * 0) / (0.4 + 0.15 + 0.15);
    const s = scoreFlood(evidence());
    expect(s.score).toBeCloseTo(Math.round(want * 10) / 10, 5);
    expect(s.method.sub_scores).toEqual({ terrain: Math.round(t * 10) / 10, water: Math.round(w * 10) / 10, overlay: 0 });
    expect(s.method.weights).toEqual(FLOOD_WEIGHTS);
    expect(s.method.indicative_flood_height_m).toBeCloseTo(h, 2);
    expect(s.official_layer).toBe('checked_no_hit');
    expect(s.completeness).toBe('full');
    expect(s.flood_depth).toBeUndefined();
    for (const c of Object.values(s.components)) expect(Object.keys(c).sort()).toEqual(['caveat', 'level', 'resolution', 'source', 'unit', 'value']);
    expect(s.components.hand).toMatchObject({ value: 1, unit: 'm', resolution: 5, source: 'sample_dem' });
  });

  it('rises as HAND falls, everything else fixed (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.double({ min: 0.001, max: 500, noNaN: true }),
        fc.oneof(fc.constant(null), fc.double({ min: 0, max: 3000, noNaN: true })),
        fc.constantFrom<'none' | 'miss' | 'floodway' | 'study'>('none', 'miss', 'floodway', 'study'),
        (a, b, area, dist, mapped) => {
          const lo = Math.min(a, b);
          const hi = Math.max(a, b);
          const base = {
            area,
            water: dist === null ? null : { distance_m: dist, name: null, kind: 'river', source: 'w' },
            sources: mapped === 'none' ? [] : [VIC],
            overlays: mapped === 'floodway' ? { hits: [hitOf('floodway')], official: officialLayer('VIC', [VIC], [hitOf('floodway')]) } : undefined,
            study: mapped === 'study' ? { depth_m: 0.3, source: 's', resolution_m: 5 } : null,
          };
          const low = scoreFlood(evidence({ ...base, handM: lo })).score!;
          const high = scoreFlood(evidence({ ...base, handM: hi })).score!;
          expect(low).toBeGreaterThanOrEqual(high);
          // Without a floor in play the terrain term is strictly decreasing, so a clearly lower HAND
          // scores clearly higher (beyond the 0.1 rounding) when the terrain sub-score moves by > 1 point.
          const h = indicativeFloodHeight(area, 60);
          if (mapped === 'none' && terrainSubScore(lo, h) - terrainSubScore(hi, h) > 3) expect(low).toBeGreaterThan(high);
        },
      ),
      { numRuns: 400, seed: 3 },
    );
  });

  it('floors the score where verified mapping says flood-prone, most for a floodway', () => {
    const high = { handM: 30 }; // terrain alone says very low
    const noMap = scoreFlood(evidence(high)).score!;
    expect(noMap).toBeLessThan(20);
    const lsio = scoreFlood(evidence({ ...high, overlays: { hits: [hitOf('flood_control')], official: officialLayer('VIC', [VIC], [hitOf('flood_control')]) } }));
    expect(lsio.score).toBe(60);
    expect(lsio.method.floor).toBe(60);
    expect(lsio.official_layer).toBe('hit');
    const fo = scoreFlood(evidence({ ...high, overlays: { hits: [hitOf('floodway')], official: officialLayer('VIC', [VIC], [hitOf('floodway')]) } }));
    expect(fo.score).toBe(80);
    const study = scoreFlood(evidence({ ...high, study: { depth_m: 0.2, source: 'bcc_study_01', resolution_m: 5 } }));
    expect(study.score).toBeGreaterThanOrEqual(60);
    expect(study.flood_depth).toEqual({ value_m: 0.2, aep: '1%', source: 'bcc_study_01', resolution_m: 5 });
  });

  it('lets a verified statewide miss lower the score without capping it (the overlay maps the 1 % AEP extent only)', () => {
    // HAND 0 beside a stream 100 m away: terrain 100, water 100 exp(-100/150).
    const w = waterSubScore(100, 'stream');
    const miss = scoreFlood(evidence({ handM: 0 }));
    const noSource = scoreFlood(evidence({ handM: 0, sources: [] }));
    expect(miss.official_layer).toBe('checked_no_hit');
    expect(noSource.official_layer).toBe('none');
    expect(miss.score).toBeCloseTo(Math.round(((0.4 * 100 + 0.15 * w + 0.15 * 0) / 0.7) * 10) / 10, 5);
    expect(noSource.score).toBeCloseTo(Math.round(((0.4 * 100 + 0.15 * w) / 0.55) * 10) / 10, 5);
    expect(miss.score!).toBeLessThan(noSource.score!);
    expect(miss.level).toBe('high');
    expect(miss.method.floor).toBeNull();
    expect(miss.components.official_overlay.caveat).toMatch(/does not cap it/);
  });

  it('says how many study depth rasters the library holds and where, never a fixed number', () => {
    expect(studyLibraryCaveat({ depthRasters: 55, states: ['NSW', 'QLD'] })).toBe('No flood-study depth raster covers this address (the library holds 55 study depth rasters, in NSW and QLD; not national).');
    expect(studyLibraryCaveat({ depthRasters: 1, states: ['QLD'] })).toBe('No flood-study depth raster covers this address (the library holds 1 study depth raster, in QLD; not national).');
    expect(studyLibraryCaveat({ depthRasters: 3, states: ['NSW', 'QLD', 'VIC'] })).toMatch(/holds 3 study depth rasters, in NSW, QLD and VIC;/);
    expect(studyLibraryCaveat({ depthRasters: 0, states: [] })).toBe('No flood-study depth raster covers this address (no flood study is held).');
    expect(studyLibraryCaveat(undefined)).not.toMatch(/\d/);
    const s = scoreFlood({ ...evidence(), studyLibrary: { depthRasters: 2, states: ['NSW', 'QLD'] } });
    expect(s.components.study_depth.caveat).toBe(studyLibraryCaveat({ depthRasters: 2, states: ['NSW', 'QLD'] }));
  });

  it('treats the SA evidence-required control as neutral: official hit, score unchanged', () => {
    const withEvidence = scoreFlood(evidence({ state: 'SA', sources: [], overlays: { hits: [hitOf('flood_evidence', 'sa_overlays', 'SA')], official: officialLayer('SA', [SA], [hitOf('flood_evidence', 'sa_overlays', 'SA')]) } }));
    const without = scoreFlood(evidence({ state: 'SA', sources: [] }));
    expect(withEvidence.official_layer).toBe('hit');
    expect(without.official_layer).toBe('none');
    expect(withEvidence.score).toBe(without.score);
    expect(withEvidence.components.official_overlay).toMatchObject({ value: 'evidence_required', level: 'unknown' });
    expect(withEvidence.method.floor).toBeNull();
  });

  it('reports a hazard class as evidence only and never invents a depth', () => {
    const s = scoreFlood(evidence({ hazard: { class: 'H3', source: 'bcc_study_01', resolution_m: 5 } }));
    expect(s.hazard_class).toMatchObject({ value: 'H3', source: 'bcc_study_01' });
    expect(s.hazard_class!.note).toMatch(/not converted to a depth/);
    expect(s.flood_depth).toBeUndefined();
    expect(s.score).toBe(scoreFlood(evidence()).score);
  });

  it('keeps scoring from the other inputs when HAND failed, and says which input degraded', () => {
    const s = scoreFlood(evidence({ hand: { ok: false, code: 'WORKER_CRASHED', message: 'the worker running hand-point died', source: 'sample_dem' }, degraded: ['hand'] }));
    expect(s.completeness).toBe('partial');
    expect(s.degraded_components).toEqual(['hand']);
    expect(s.components.hand).toMatchObject({ value: null, level: 'unknown', source: 'sample_dem' });
    expect(s.components.hand.caveat).toMatch(/WORKER_CRASHED/);
    // Water and overlay remain: (0.15 * w + 0.15 * 0) / 0.3.
    expect(s.score).toBeCloseTo(Math.round(((0.15 * waterSubScore(100, 'stream')) / 0.3) * 10) / 10, 5);
    expect(scoreFlood(evidence({ hand: null, water: 'unavailable', sources: [] })).score).toBeNull();
  });

  it('has sub-scores with the documented shape', () => {
    expect(terrainSubScore(0, 2)).toBe(100);
    expect(terrainSubScore(2, 2)).toBe(50);
    expect(terrainSubScore(6, 2)).toBe(10);
    expect(waterSubScore(0, 'river')).toBe(100);
    expect(waterSubScore(300, 'river')).toBeCloseTo(100 / Math.E, 10);
    expect(waterSubScore(75, 'drain')).toBeCloseTo(100 / Math.E, 10);
    expect(studySubScore(0)).toBe(5);
    expect(studySubScore(0.5)).toBe(80);
    expect(studySubScore(3)).toBe(100);
  });
});

/**
 * The words and rounding of scores.flood: {@link describeFlood} turns the assessment (flood-score.ts,
 * numbers and codes) into the payload's block, each component with its caveat, values rounded as
 * published (distances to 0.1 m, depths to 1 mm, sub-scores to 0.1, the flood height to 1 cm).
 */
import { clampScore, component, levelOf, type Level, type ScoreComponent } from '../../score-kit/component.js';
import type { FloodFindings, FloodEvidence, FloodScore, HazardClass, StudyLibrary } from './flood-types.js';

const HAZARD_LEVEL: Record<HazardClass, Level> = { H1: 'low', H2: 'moderate', H3: 'high', H4: 'very_high', H5: 'very_high', H6: 'very_high' };

/** `v` rounded to `d` decimals. */
export function round(v: number, d = 2): number {
  const f = 10 ** d;
  return Math.round(v * f) / f;
}

/** The caveat of the block as a whole. */
export const FLOOD_CAVEAT = 'Screening estimate from terrain, mapped water, design rainfall, flood studies and verified overlays; it is not a flood certificate, and where a mapped layer disagrees the mapped layer is authoritative.';

/** The caveat of an absent study depth: how many studies are held and where (from the catalogue, spec 8). */
export function studyLibraryCaveat(library: StudyLibrary | null | undefined): string {
  if (!library) return 'No flood-study depth raster covers this address (flood studies are held for some areas only, not nationally).';
  const n = library.depthRasters;
  if (n === 0) return 'No flood-study depth raster covers this address (no flood study is held).';
  const where = library.states.length ? `, in ${library.states.length > 1 ? `${library.states.slice(0, -1).join(', ')} and ${library.states.at(-1)}` : library.states[0]}` : '';
  return `No flood-study depth raster covers this address (the library holds ${n} study depth raster${n === 1 ? '' : 's'}${where}; not national).`;
}

/** The terrain (HAND) component. */
export function handComponent(ev: FloodEvidence, a: FloodFindings): ScoreComponent<number | null> {
  const hand = ev.hand;
  const t = a.terrain;
  if (t.code === 'scored' && hand && hand.ok) {
    return component({
      value: t.hand_m,
      unit: 'm',
      level: levelOf(t.sub),
      resolution: hand.resolution_m,
      source: hand.source,
      caveat: `Height above the nearest modelled drainage line (catchment ${t.drainage.contributing_area_km2} km2${hand.burned ? ', mapped watercourses burned in' : ''}); bare-earth terrain only: pipes, levees and buildings are not modelled.`,
    });
  }
  return component({
    value: null,
    unit: 'm',
    level: 'unknown',
    resolution: hand && hand.ok ? hand.resolution_m : null,
    source: hand ? hand.source : null,
    caveat:
      t.code === 'no_dem'
        ? 'No elevation model is held for this location.'
        : t.code === 'failed'
          ? `Terrain analysis failed (${t.failure}): ${t.message}`
          : 'The flow path from the address leaves the analysed area before reaching a drainage line.',
  });
}

/** The water-proximity component. */
export function waterComponent(a: FloodFindings): ScoreComponent<number | null> {
  const w = a.water;
  if (w.code === 'unavailable') return component({ value: null, unit: 'm', level: 'unknown', resolution: null, source: null, caveat: 'Mapped water was not available for this location.' });
  if (w.code === 'none_within_2km') return component({ value: null, unit: 'm', level: 'very_low', resolution: null, source: null, caveat: 'No mapped watercourse or water body within 2 km.' });
  return component({
    value: round(w.water.distance_m, 1),
    unit: 'm',
    level: levelOf(w.sub),
    resolution: null,
    source: w.water.source,
    caveat: `Straight-line distance to the nearest mapped ${w.water.kind.replace('_', ' ')}${w.water.name ? ` (${w.water.name})` : ''}; unmapped drains and pipes are not included.`,
  });
}

/** The design-rainfall component (it acts through the indicative flood height). */
export function rainfallComponent(ev: FloodEvidence, a: FloodFindings): ScoreComponent<number | null> {
  return ev.rainfall
    ? component({
        value: ev.rainfall.depth_mm,
        unit: 'mm',
        level: levelOf(Math.min(100, ev.rainfall.depth_mm)),
        resolution: ev.rainfall.resolution_m,
        source: ev.rainfall.source,
        caveat: '1 % AEP 1-hour design rainfall depth; it scales the indicative flood height of the terrain term rather than adding its own term.',
      })
    : component({ value: null, unit: 'mm', level: 'unknown', resolution: null, source: null, caveat: `No design-rainfall raster was available; ${a.rainfallMm} mm (1 % AEP, 1 hour) was assumed for the terrain term.` });
}

/** The flood-study component. */
export function studyComponent(ev: FloodEvidence, a: FloodFindings): ScoreComponent<number | null> {
  if (a.study.code === 'none' || !ev.study) return component({ value: null, unit: 'm', level: 'unknown', resolution: null, source: null, caveat: studyLibraryCaveat(ev.studyLibrary) });
  return component({
    value: round(a.study.depth_m, 3),
    unit: 'm',
    level: levelOf(a.study.sub),
    resolution: ev.study.resolution_m,
    source: ev.study.source,
    caveat: a.study.depth_m > 0 ? 'Official 1 % AEP modelled peak depth at the address from a flood study.' : 'A flood study covers the address and models it dry in the 1 % AEP event; rarer floods can still reach it.',
  });
}

/** The official-overlay component. */
export function overlayComponent(a: FloodFindings): ScoreComponent<string | null> {
  const o = a.overlay;
  switch (o.code) {
    case 'verified_hit':
      return component({ value: o.top.code ?? o.top.label ?? o.top.kind, unit: null, level: levelOf(o.sub), resolution: null, source: o.top.source, caveat: 'A verified flood overlay covers the address; the mapped layer is authoritative over this score.' });
    case 'evidence_required':
      return component({ value: 'evidence_required', unit: null, level: 'unknown', resolution: null, source: o.source, caveat: 'An evidence-required flood control covers the address: a neutral trigger, not a severity; it does not change the score.' });
    case 'statewide_no_hit':
      return component({ value: 'no_hit', unit: null, level: 'very_low', resolution: null, source: o.source, caveat: 'Statewide verified flood-overlay mapping was checked and does not cover the address; it lowers the score but does not cap it (overlays map the designated 1 % AEP extent, not overland flow or rarer floods).' });
    case 'no_source':
      return component({ value: null, unit: null, level: 'unknown', resolution: null, source: null, caveat: 'No flood overlay is published for this state.' });
    case 'partial_or_unverified':
      return component({ value: null, unit: null, level: 'unknown', resolution: null, source: null, caveat: 'Overlay mapping here is partial or unverified; a miss proves nothing and is not scored.' });
  }
}

/** The hazard class as evidence (never converted to a depth). */
export function hazardNote(c: HazardClass): string {
  return `${c} (AIDR 2017 hazard vulnerability class, level ${HAZARD_LEVEL[c]}) as modelled by the study; evidence only, not converted to a depth.`;
}

/** scores.flood, worded and rounded, from the evidence and its assessment. */
export function describeFlood(ev: FloodEvidence, a: FloodFindings): FloodScore {
  const hand = ev.hand;
  const value = a.score === null ? null : clampScore(a.score);
  const out: FloodScore = {
    score: value,
    level: levelOf(value),
    official_layer: ev.overlays.official.official_layer,
    official_layer_note: ev.overlays.official.official_layer_note,
    overlay_basis: ev.overlays.official.overlay_basis,
    nearest_drainage: hand && hand.ok ? hand.drainage : null,
    components: { hand: handComponent(ev, a), water_distance: waterComponent(a), design_rainfall: rainfallComponent(ev, a), study_depth: studyComponent(ev, a), official_overlay: overlayComponent(a) },
    method: {
      weights: a.weights,
      sub_scores: Object.fromEntries(Object.entries(a.sub).map(([k, v]) => [k, round(v!, 1)])),
      indicative_flood_height_m: a.floodHeight === null ? null : round(a.floodHeight, 2),
      floor: a.floor,
      channel_threshold_km2: hand && hand.ok ? hand.threshold_km2 : null,
      analysis_half_width_m: hand && hand.ok ? (hand.analysis_half_width_m ?? null) : null,
      burned_watercourses: !!(hand && hand.ok && hand.burned),
    },
    completeness: ev.degraded.length > 0 ? 'partial' : 'full',
    degraded_components: [...ev.degraded],
    caveat: FLOOD_CAVEAT,
  };
  if (ev.study) out.flood_depth = { value_m: round(ev.study.depth_m, 3), aep: '1%', source: ev.study.source, resolution_m: ev.study.resolution_m };
  if (ev.hazard) out.hazard_class = { value: ev.hazard.class, source: ev.hazard.source, note: hazardNote(ev.hazard.class) };
  return out;
}

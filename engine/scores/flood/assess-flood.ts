/**
 * The flood lookup for one subject: runs HAND on a worker (or in-thread without a pool), samples the design
 * rainfall and flood-study rasters, finds the nearest mapped water and the flood overlays, decides the
 * official layer, and scores. Each lookup that fails degrades only its own component: the result then has
 * `completeness: 'partial'` and names the failed inputs, and a failing HAND task never fails the request.
 *
 * HAND runs in two stages by default: a small analysis ({@link QUICK_HAND_HALF_WIDTH_M} plus the buffer)
 * answers most addresses, which drain to a small channel close by, at about a sixth of the cells of the
 * full window; when the subject's flow path leaves it, or its drainage's catchment reaches its edge (the
 * catchment area, which scales the indicative flood height, would be truncated), the full 1,500 m window
 * is computed. The score records which one answered (`method.analysis_half_width_m`).
 */
import type { Feature, LineString, MultiLineString } from 'geojson';
import { EngineError } from '../../errors.js';
import { createWindow, WINDOW_HALF_WIDTH_M, windowLonLatBBox } from '../../geo/window.js';
import { DEFAULT_BUFFER_FRACTION, DEFAULT_SNAP_M, handAtPoint, type HandPointInput, type HandPointResult } from '../../hydro/hand-at-point.js';
import { lineSetFromFeatures } from '../../hydro/line-set.js';
import { burnLines, NO_BURN, type BurnLines, type HandTileStore } from '../../hydro/hand-tile-store.js';
import type { TaskRunner } from '../../pool/worker-pool.js';
import { floodOverlayHits, type FloodOverlayHit, type FloodOverlaySource } from './flood-overlays.js';
import { scoreFlood, type FloodEvidence, type FloodScore, type HandEvidence, type HazardClass, type StudyLibrary } from './flood-score.js';
import { officialLayer, type OtherFloodEvidence } from './official-layer.js';
import { sampleRasterAt } from './raster-point.js';
import { nearestWater, type WaterBodyLayer, type WatercourseLayer } from './water-distance.js';

/** A flood study: 1 % AEP depth raster (Float32 m, no-data outside the study area) and/or hazard raster (Uint8 1-6 = H1-H6, 0 none). */
export interface FloodStudy {
  source: string;
  /** Readable name for notes; default the source id. */
  name?: string;
  depth?: string;
  hazard?: string;
  /** What to do about a modelled flood here, e.g. "ask the council for a flood search". */
  response_path?: string;
}

/** Everything the flood lookup reads for one subject (paths, layers and catalogue facts). */
export interface FloodInput {
  lon: number;
  lat: number;
  /** State or territory of the subject (`VIC`, `NSW`, ...), for the overlay coverage. */
  state: string;
  /** DEM GeoTIFF (Float32 m, ~5 m, GDA2020 MGA) and its source id; null or absent when none covers the point. */
  dem?: { file: string; source: string } | null;
  /** Options of the HAND analysis (threshold, buffer, window); defaults as in hand-at-point.ts. */
  hand?: Pick<HandPointInput, 'thresholdKm2' | 'bufferFraction' | 'snap' | 'burnDepth'> & {
    /**
     * Half-width of the HAND analysis, metres, or `auto` (the default): {@link QUICK_HAND_HALF_WIDTH_M} first,
     * then the full 1,500 m window when that does not settle it (see {@link assessFlood}).
     */
    halfWidth?: number | 'auto';
    /** Burn the mapped watercourses into the DEM; default true when watercourses are given. */
    burnWatercourses?: boolean;
  };
  watercourses?: WatercourseLayer[];
  waterBodies?: WaterBodyLayer[];
  /** 1 % AEP 1-hour design rainfall depth raster (mm, EPSG:4326) and its source id. */
  designRainfall?: { file: string; source: string } | null;
  studies?: FloodStudy[];
  /** The watercourses as burn lines for HAND tiles (made once per state by the caller); default from `watercourses`. */
  burnLines?: BurnLines;
  /** The flood-study library held across all states (for the caveat when no study covers the subject). */
  studyLibrary?: StudyLibrary | null;
  overlays?: FloodOverlaySource[];
  /** Attach clipped overlay geometry to hazards hits (licensed sources only). */
  includeGeometry?: boolean;
}

/** The flood lookup's two payload parts. */
export interface FloodAssessment {
  /** scores.flood */
  score: FloodScore;
  /** hazards.flood: overlay hits with source properties (and clipped geometry where asked for and licensed). */
  hazards: { hits: FloodOverlayHit[] };
}

/** Options for {@link assessFlood}. */
export interface AssessFloodOptions {
  /** Run HAND on this pool's workers; without one it runs in this thread. */
  pool?: TaskRunner<{ 'hand-point': [HandPointInput, HandPointResult] }>;
  signal?: AbortSignal;
  /** Time limit of the HAND task, ms (pool default when absent). */
  timeoutMs?: number;
  /**
   * Stored HAND tiles (engine/hydro/hand-tile-store.ts): HAND and the nearest drainage are read from the
   * subject's tile of the whole DEM instead of computed around it. Used when the lookup asks for the store's
   * threshold and burn depth and the default (`auto`) analysis.
   */
  handTiles?: Pick<HandTileStore, 'at' | 'thresholdKm2' | 'burnDepth'>;
}

/** Half-width of the first, small HAND analysis of `halfWidth: 'auto'`, metres. */
export const QUICK_HAND_HALF_WIDTH_M = 600;

const HAZARDS: HazardClass[] = ['H1', 'H2', 'H3', 'H4', 'H5', 'H6'];

function nearbyLines(features: Feature<LineString | MultiLineString>[], box: [number, number, number, number]): Feature<LineString | MultiLineString>[] {
  // A line whose extent meets the box may cross it (a long segment can cross with both ends outside).
  return features.filter((f) => {
    const lines = f.geometry.type === 'LineString' ? [f.geometry.coordinates] : f.geometry.coordinates;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const l of lines) {
      for (const [x, y] of l) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
    return x0 <= box[2] && x1 >= box[0] && y0 <= box[3] && y1 >= box[1];
  });
}

/** Runs the flood lookup (see the file comment). Never throws for a failed input lookup; only for bad arguments. */
export async function assessFlood(input: FloodInput, options: AssessFloodOptions = {}): Promise<FloodAssessment> {
  const { lon, lat } = input;
  const degraded: string[] = [];
  const fail = (name: string, err: unknown) => {
    if (err instanceof EngineError && err.code === 'INVALID_ARGUMENT') throw err;
    degraded.push(name);
    return err instanceof EngineError ? err : new EngineError('TASK_FAILED', String((err as Error)?.message ?? err));
  };

  // HAND, on a worker when a pool is given.
  const handJob = (async (): Promise<HandEvidence | null> => {
    if (!input.dem) return null;
    const opts = input.hand ?? {};
    const courses = input.watercourses ?? [];
    const burn = (opts.burnWatercourses ?? true) && courses.length > 0;
    let watercourses = null;
    let sources: string[] = [];
    const auto = opts.halfWidth === undefined || opts.halfWidth === 'auto';
    const fullHalfWidth = auto ? WINDOW_HALF_WIDTH_M : (opts.halfWidth as number);
    const bufferFraction = opts.bufferFraction ?? DEFAULT_BUFFER_FRACTION;
    // Stored tiles answer before any per-request work (the lines near the window are for that path only).
    const tiles = options.handTiles;
    if (tiles && auto && (opts.thresholdKm2 ?? tiles.thresholdKm2) === tiles.thresholdKm2 && (opts.burnDepth ?? tiles.burnDepth) === tiles.burnDepth) {
      try {
        const burnSets = burn ? (input.burnLines ?? burnLines(courses.map((c) => ({ source: c.source, lines: lineSetFromFeatures(c.features) })))) : NO_BURN;
        const t = await tiles.at(input.dem.file, lon, lat, burnSets);
        if (!t) return null; // the point is off this DEM: no elevation model here
        return { ok: true, hand_m: t.hand_m, drainage: t.drainage, resolution_m: t.cell_size_m, source: input.dem.source, burned: t.burned_watercourses, threshold_km2: t.threshold_km2, analysis_half_width_m: t.analysis_reach_m };
      } catch (err) {
        const e = fail('hand', err);
        return { ok: false, code: e.code, message: e.message, source: input.dem.source };
      }
    }
    if (burn) {
      const reach = fullHalfWidth * (1 + bufferFraction) + (opts.snap ?? DEFAULT_SNAP_M);
      const box = windowLonLatBBox(createWindow(lon, lat, reach));
      const near = courses.map((c) => ({ source: c.source, features: nearbyLines(c.features, box) })).filter((c) => c.features.length > 0);
      if (near.length) {
        watercourses = lineSetFromFeatures(near.flatMap((c) => c.features));
        sources = near.map((c) => c.source);
      }
    }
    const { burnWatercourses: _burn, halfWidth: _hw, ...rest } = opts;
    void _burn;
    void _hw;
    const run = (halfWidth: number): Promise<HandPointResult> => {
      const task: HandPointInput = { dem: input.dem!.file, lon, lat, ...rest, halfWidth, watercourses, watercourseSources: sources };
      return options.pool ? options.pool.run('hand-point', task, { signal: options.signal, timeoutMs: options.timeoutMs }) : handAtPoint(task);
    };
    try {
      // Most addresses drain to a small channel close by: a small analysis answers them at a fraction of
      // the cost; the rest get the full window.
      let r: HandPointResult | null = null;
      let quickResult: HandPointResult | null = null;
      if (auto) {
        // It settles the score when the subject drains to a channel inside it whose whole catchment is
        // inside it too (a truncated catchment would understate the indicative flood height).
        const quick = await run(QUICK_HAND_HALF_WIDTH_M);
        if (quick.hand_m !== null && quick.drainage && !quick.drainage.catchment_truncated) r = quickResult = quick;
      }
      r ??= await run(fullHalfWidth);
      return { ok: true, hand_m: r.hand_m, drainage: r.drainage, resolution_m: r.method.cell_size_m, source: input.dem.source, burned: r.method.burned_watercourses, threshold_km2: r.method.threshold_km2, analysis_half_width_m: r === quickResult ? QUICK_HAND_HALF_WIDTH_M : fullHalfWidth };
    } catch (err) {
      // A DEM that holds no data at the subject is "no elevation model here", not a failed lookup.
      if (err instanceof EngineError && err.code === 'NOT_FOUND' && err.details.lon !== undefined) return null;
      const e = fail('hand', err);
      return { ok: false, code: e.code, message: e.message, source: input.dem.source };
    }
  })();

  const rainJob = (async () => {
    if (!input.designRainfall) return null;
    try {
      const v = await sampleRasterAt(input.designRainfall.file, lon, lat, { signal: options.signal });
      return v.value === null || !(v.value > 0) ? null : { depth_mm: v.value, source: input.designRainfall.source, resolution_m: Math.round(v.resolution_m) };
    } catch (err) {
      fail('design_rainfall', err);
      return null;
    }
  })();

  const studyJob = (async () => {
    let study: FloodEvidence['study'] = null;
    let hazard: FloodEvidence['hazard'] = null;
    const other: OtherFloodEvidence[] = [];
    for (const s of input.studies ?? []) {
      try {
        if (s.depth) {
          const v = await sampleRasterAt(s.depth, lon, lat, { signal: options.signal });
          if (v.value !== null && Number.isFinite(v.value)) {
            const depth = Math.max(0, v.value);
            if (!study || depth > study.depth_m) study = { depth_m: depth, source: s.source, resolution_m: Math.round(v.resolution_m * 100) / 100 };
            if (depth > 0) other.push({ source: s.source, name: s.name ?? s.source, response_path: s.response_path, finding: `modelled 1 % AEP flood depth ${depth.toFixed(2)} m` });
          }
        }
        if (s.hazard) {
          const v = await sampleRasterAt(s.hazard, lon, lat, { signal: options.signal });
          const cls = v.value !== null && v.value >= 1 && v.value <= 6 ? HAZARDS[Math.round(v.value) - 1] : null;
          if (cls && (!hazard || HAZARDS.indexOf(cls) > HAZARDS.indexOf(hazard.class))) hazard = { class: cls, source: s.source, resolution_m: Math.round(v.resolution_m * 100) / 100 };
          if (cls) other.push({ source: s.source, name: s.name ?? s.source, response_path: s.response_path, finding: `flood hazard class ${cls}` });
        }
      } catch (err) {
        fail('flood_study', err);
      }
    }
    return { study, hazard, other };
  })();

  let water: FloodEvidence['water'] = 'unavailable';
  if ((input.watercourses?.length ?? 0) + (input.waterBodies?.length ?? 0) > 0) {
    try {
      water = nearestWater(lon, lat, input.watercourses ?? [], input.waterBodies ?? []);
    } catch (err) {
      fail('water', err);
    }
  }
  let hits: FloodOverlayHit[] = [];
  try {
    hits = floodOverlayHits(lon, lat, input.overlays ?? [], { includeGeometry: input.includeGeometry });
  } catch (err) {
    fail('overlays', err);
  }

  const [hand, rainfall, studies] = await Promise.all([handJob, rainJob, studyJob]);
  const official = officialLayer(input.state, input.overlays ?? [], hits, studies.other, { lookupFailed: degraded.includes('overlays') });
  const score = scoreFlood({ hand, water, rainfall, study: studies.study, hazard: studies.hazard, overlays: { hits, official }, degraded, studyLibrary: input.studyLibrary });
  return { score, hazards: { hits } };
}

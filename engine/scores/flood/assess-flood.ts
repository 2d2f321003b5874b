/**
 * The flood lookup for one subject: runs HAND on a worker (or in-thread without a pool), samples the design
 * rainfall and flood-study rasters, finds the nearest mapped water and the flood overlays, decides the
 * official layer, and scores. Each lookup that fails degrades only its own component: the result then has
 * `completeness: 'partial'` and names the failed inputs, and a failing HAND task never fails the request.
 */
import type { Feature, LineString, MultiLineString } from 'geojson';
import { EngineError } from '../../errors.js';
import { createWindow, windowLonLatBBox } from '../../geo/window.js';
import { DEFAULT_BUFFER_FRACTION, DEFAULT_SNAP_M, handAtPoint, type HandPointInput, type HandPointResult } from '../../hydro/hand-at-point.js';
import { lineSetFromFeatures } from '../../hydro/line-set.js';
import type { WorkerPool } from '../../pool/worker-pool.js';
import { floodOverlayHits, type FloodOverlayHit, type FloodOverlaySource } from './flood-overlays.js';
import { scoreFlood, type FloodEvidence, type FloodScore, type HandEvidence, type HazardClass } from './flood-score.js';
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
  hand?: Pick<HandPointInput, 'thresholdKm2' | 'bufferFraction' | 'halfWidth' | 'snap' | 'burnDepth'> & {
    /** Burn the mapped watercourses into the DEM; default true when watercourses are given. */
    burnWatercourses?: boolean;
  };
  watercourses?: WatercourseLayer[];
  waterBodies?: WaterBodyLayer[];
  /** 1 % AEP 1-hour design rainfall depth raster (mm, EPSG:4326) and its source id. */
  designRainfall?: { file: string; source: string } | null;
  studies?: FloodStudy[];
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
  pool?: WorkerPool;
  signal?: AbortSignal;
  /** Time limit of the HAND task, ms (pool default when absent). */
  timeoutMs?: number;
}

const HAZARDS: HazardClass[] = ['H1', 'H2', 'H3', 'H4', 'H5', 'H6'];

function nearbyLines(features: Feature<LineString | MultiLineString>[], box: [number, number, number, number]): Feature<LineString | MultiLineString>[] {
  return features.filter((f) => {
    const lines = f.geometry.type === 'LineString' ? [f.geometry.coordinates] : f.geometry.coordinates;
    return lines.some((l) => l.some(([x, y]) => x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]));
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
    if (burn) {
      const reach = (opts.halfWidth ?? 1500) * (1 + (opts.bufferFraction ?? DEFAULT_BUFFER_FRACTION)) + (opts.snap ?? DEFAULT_SNAP_M);
      const box = windowLonLatBBox(createWindow(lon, lat, reach));
      const near = courses.map((c) => ({ source: c.source, features: nearbyLines(c.features, box) })).filter((c) => c.features.length > 0);
      if (near.length) {
        watercourses = lineSetFromFeatures(near.flatMap((c) => c.features));
        sources = near.map((c) => c.source);
      }
    }
    const task: HandPointInput = { dem: input.dem.file, lon, lat, ...opts, watercourses, watercourseSources: sources };
    delete (task as { burnWatercourses?: boolean }).burnWatercourses;
    try {
      const r: HandPointResult = options.pool ? await options.pool.run('hand-point', task, { signal: options.signal, timeoutMs: options.timeoutMs }) : await handAtPoint(task);
      return { ok: true, hand_m: r.hand_m, drainage: r.drainage, resolution_m: r.method.cell_size_m, source: input.dem.source, burned: r.method.burned_watercourses, threshold_km2: r.method.threshold_km2 };
    } catch (err) {
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
  const score = scoreFlood({ hand, water, rainfall, study: studies.study, hazard: studies.hazard, overlays: { hits, official }, degraded });
  return { score, hazards: { hits } };
}

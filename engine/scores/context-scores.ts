/**
 * The scores of one subject over inputs already loaded (`propintel scores` with input files, or a library
 * caller scoring with layers of its own): each requested descriptor of the registry computed from a run that
 * reads these inputs. Only the scores whose descriptor says `fromFiles` can be computed so (the noise network
 * and HAND come from a dataset only).
 */
import type { Window } from '../geo/window.js';
import type { HeatSurface } from '../surfaces/heat/heat-surface.js';
import type { AnefLayer } from './aircraft-noise/anef-contours.js';
import type { TableFdi } from './bushfire/as3959-method1.js';
import type { BushfireLayers } from './bushfire/bushfire-layers.js';
import type { SubjectIdentity } from './bushfire/bushfire-score.js';
import type { ContaminationRegister } from './contamination/contamination-register.js';
import { SCORES, type ScoreKey, type ScoreRegistry } from './registry.js';
import type { AnyScoreDescriptor, ScoreRaster, ScoreRun } from '../score-kit/descriptor.js';
import type { ModelKind } from '../score-kit/model-kind.js';
import { ANEF_CONTOURS } from './aircraft-noise/anef-model.js';
import { BUSHFIRE_LAYERS } from './bushfire/bushfire-model.js';
import { CONTAMINATION_REGISTER } from './contamination/contamination-model.js';
import { WALKABILITY_INDEXES } from './walkability/walkability-model.js';
import type { MissingLayer, RasterLayer } from '../score-kit/layer-input.js';
import type { Scores } from './score-types.js';
import type { WalkabilityIndexes } from './walkability/walkability-layers.js';

/**
 * Everything the file-read scores read for one subject. The domain models (walkability, bushfire,
 * contamination, aircraft noise) may be left out when their score is not asked for; a raster left null reads
 * as not integrated, so a caller loading inputs for only some keys must load every input those keys read.
 */
export interface ContextInputs {
  window: Window;
  walkability?: WalkabilityIndexes;
  bushfire?: BushfireLayers;
  /** DEM around the subject (bushfire slope, view quality, walkability slope). */
  dem: RasterLayer | MissingLayer | null;
  /** Land-surface temperature around the subject. */
  lst: RasterLayer | MissingLayer | null;
  /** The land-cover heat surface over the window (explanatory for heat island). */
  landCover: HeatSurface | MissingLayer | null;
  solar: { ghi: RasterLayer | MissingLayer | null; dni: RasterLayer | MissingLayer | null; pvout: RasterLayer | MissingLayer | null; optimumTilt: RasterLayer | MissingLayer | null };
  contamination?: ContaminationRegister;
  anef?: AnefLayer;
}

/** What the subject is and how to score it. */
export interface ScoreRequest {
  lon: number;
  lat: number;
  state: string | null;
  identity?: SubjectIdentity;
  only: readonly ScoreKey[] | readonly string[];
  includeGeometry?: boolean;
  fdi?: TableFdi;
}

function need<T>(input: T | undefined, what: string): T {
  if (input === undefined) throw new Error(`the ${what} were not loaded`);
  return input;
}

/** The raster of a payload path among the loaded inputs. */
function loadedRaster(inputs: ContextInputs, path: string, layer: string | undefined): ScoreRaster {
  if (path === 'scores.view_quality') return inputs.dem;
  if (path === 'scores.heat_island') return inputs.lst;
  if (path === 'scores.solar') {
    const s = inputs.solar;
    return layer === 'ghi' ? s.ghi : layer === 'dni' ? s.dni : layer === 'pvout' ? s.pvout : layer === 'tilt' ? s.optimumTilt : null;
  }
  return null;
}

/** A run over loaded inputs: every read answers from them. */
export function loadedScoreRun(inputs: ContextInputs, req: ScoreRequest): ScoreRun<Record<string, unknown>, Record<string, unknown>> {
  // The models given, by their kinds (the shared-buffer form is for workers, which a run over files has none of).
  const models = new Map<ModelKind<unknown>, unknown>([
    [WALKABILITY_INDEXES, inputs.walkability],
    [BUSHFIRE_LAYERS, inputs.bushfire],
    [CONTAMINATION_REGISTER, inputs.contamination],
    [ANEF_CONTOURS, inputs.anef],
  ]);
  return {
    lon: req.lon,
    lat: req.lat,
    state: req.state as ScoreRun['state'],
    window: inputs.window,
    options: { includeGeometry: req.includeGeometry, identity: req.identity, fdi: req.fdi },
    dem: async () => inputs.dem,
    raster: async (path, _radiusM, pick) => loadedRaster(inputs, path, pick?.layer),
    rasterFile: () => null,
    heatSurface: async () => inputs.landCover,
    model: <T>(kind: ModelKind<T>) => need(models.get(kind as ModelKind<unknown>) as T | undefined, kind.name),
    models: {},
    aside: {},
  };
}

/** Runs the requested scores over loaded inputs, in the order asked. */
export async function computeContextScores(inputs: ContextInputs, req: ScoreRequest, registry: ScoreRegistry = SCORES): Promise<Partial<Scores>> {
  const run = loadedScoreRun(inputs, req);
  const out: Record<string, unknown> = {};
  for (const key of req.only) {
    const d = (registry as readonly AnyScoreDescriptor[]).find((x) => x.key === key);
    if (!d) throw new Error(`unknown score key ${JSON.stringify(key)}`);
    if (!d.fromFiles) throw new Error(`the ${d.key} score is computed from a dataset only, not from input files`);
    out[d.key] = await d.score(run);
  }
  return out as Partial<Scores>;
}

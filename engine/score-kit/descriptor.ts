/**
 * What a score is, as one value: its key, its direction, what it reads, how it computes, and its JSON Schema.
 * Each score's folder (`engine/scores/<key>/descriptor.ts`) exports one {@link ScoreDescriptor}; the registry
 * (`engine/scores/registry.ts`) lists them in the spec's order, and the engine, the payload schema, the batch
 * columns, the OpenAPI documents and the `propintel scores` command walk that list. Adding a score is a folder
 * and a line in the registry (docs/development.md walks through it; test/engine/scores/registry.test.ts adds
 * one).
 *
 * A descriptor never imports the engine's runtime or the property lookup: it is handed a {@link ScoreRun},
 * which reads the data around the subject for it, and builds the models it declares (`run.model(kind)`). What
 * a score needs beyond that (a worker pool, the noise network, its own options) it names in its type
 * parameters `M` and `O`; the engine's run provides them all, and tsc fails where it does not.
 */
import type { StateCode } from '../catalogue/states.js';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import type { Window } from '../geo/window.js';
import type { HeatSurface } from '../surfaces/heat/heat-surface.js';
import type { MissingLayer, RasterLayer } from './layer-input.js';
import type { ModelKind } from './model-kind.js';

/** A raster read around the subject: loaded, missing with why, or null (not integrated, or not read). */
export type ScoreRaster = RasterLayer | MissingLayer | null;

/** Which raster of a payload path: a named layer (`ghi`), or the one holding a unit (`degC`). */
export interface RasterPick {
  layer?: string;
  unit?: string;
}

/** The options every score sees (a score's own options come in `O`). */
export interface CommonScoreOptions {
  /** Adds geometry where the score has some (walkability's walking areas, flood's clipped overlays). */
  includeGeometry?: boolean;
  signal?: AbortSignal;
}

/**
 * One subject being scored, and the reads a score makes through it. The engine's run reads the dataset's
 * catalogue (each raster once per lookup, the DEM once for every score that asks, at the widest radius
 * asked); the `propintel scores` command's run reads the files given on its command line.
 */
export interface ScoreRun<M = unknown, O = unknown> {
  lon: number;
  lat: number;
  /** The subject's state; null when undetermined (state-held inputs then read as not integrated). */
  state: StateCode | null;
  /** The subject's analysis window (geo/window.ts). */
  window: Window;
  options: CommonScoreOptions & O;
  /**
   * The DEM around the subject, read once for every score asking for it (see {@link ScoreDescriptor.dem});
   * undefined when this run reads no DEM (a `shared` reader asked alone).
   */
  dem(): Promise<ScoreRaster | undefined>;
  /** A raster of `path` around the subject, `radiusM` out. */
  raster(path: PayloadPath, radiusM: number, pick?: RasterPick): Promise<ScoreRaster>;
  /** The file and source id of the raster of `path` under the subject, for a worker to read itself. */
  rasterFile(path: PayloadPath): { file: string; source: string } | null;
  /** The land-cover heat surface of the subject's window (surfaces.heat), built once per run. */
  heatSurface(): Promise<HeatSurface | MissingLayer | null>;
  /** The model of `kind` for the run's subject (engine/score-kit/model-kind.ts): built once, kept by the engine. */
  model<T>(kind: ModelKind<T>): T;
  /** What else this score needs of the engine (its `M`: the noise network, the flood inputs, the worker pool). */
  models: M;
  /** Facts a score hands to other blocks of the payload (flood's overlay hits feed `hazards.flood`). */
  aside: Record<string, unknown>;
}

/** How a score's block is typed in the payload: a definition of its own or of engine/scores/score-schema.ts. */
export interface ScoreSchema {
  /** The definition `scores.<key>` refers to (`#/$defs/<ref>`). */
  ref: string;
  /** Definitions this score adds (a score outside score-schema.ts brings its own). */
  definitions?: Record<string, Record<string, unknown>>;
}

/** A score's models or options when it needs none beyond the run's common reads. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type NoNeeds = {};

/** One score (spec 2.6 names nine). */
export interface ScoreDescriptor<K extends string = string, M = NoNeeds, O = NoNeeds, R = unknown> {
  /** Its key in `scores` (snake_case). */
  key: K;
  /** True when 100 means most exposed; false when 100 means best amenity. */
  exposure: boolean;
  /** What it screens, in one line (the CLI's help and the guides). */
  summary: string;
  /** The catalogue's payload paths it reads (the catalogue names its sources under these). */
  paths: readonly PayloadPath[];
  /**
   * The DEM it reads around the subject, metres out. `shared`: read only when another requested score reads
   * the DEM anyway (the score then reads its own window when alone).
   */
  dem?: { radiusM: number; shared?: boolean };
  /**
   * Computed from the `propintel scores` command's input files as well as from a dataset (false for scores
   * whose models only the dataset builds: the noise network, HAND).
   */
  fromFiles: boolean;
  /** The models it reads with `run.model` (the engine builds, keeps and reports them by these). */
  models?: readonly ModelKind<unknown>[];
  /** Its JSON Schema. */
  schema: ScoreSchema;
  /** Computes the score for the run's subject. Throws when it cannot (the score is then listed degraded). */
  score: (run: ScoreRun<M, O>) => R | Promise<R>;
}

/** Any descriptor, as the walkers hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyScoreDescriptor = ScoreDescriptor<string, any, any, unknown>;

/** Builds a descriptor (checked against its type parameters). */
export function defineScore<K extends string, M = NoNeeds, O = NoNeeds, R = unknown>(d: ScoreDescriptor<K, M, O, R>): ScoreDescriptor<K, M, O, R> {
  if (!/^[a-z][a-z0-9_]*$/.test(d.key)) throw new Error(`a score key is snake_case, got ${JSON.stringify(d.key)}`);
  return d;
}

/**
 * The scores, in the spec's order (section 2.6): one descriptor each, from its folder. The engine computes,
 * the payload schema types, the batch output lists, the OpenAPI documents describe and `propintel scores`
 * offers exactly these. To add a score: a folder with its descriptor (score-kit/descriptor.ts), and a line here.
 */
import { aircraftNoise } from './aircraft-noise/descriptor.js';
import { bushfire } from './bushfire/descriptor.js';
import { contamination } from './contamination/descriptor.js';
import { flood } from './flood/descriptor.js';
import { heatIsland } from './heat-island/descriptor.js';
import { noise } from './noise/descriptor.js';
import type { AnyScoreDescriptor, ScoreRun } from '../score-kit/descriptor.js';
import type { ModelKind } from '../score-kit/model-kind.js';
import { solar } from './solar/descriptor.js';
import { viewQuality } from './view-quality/descriptor.js';
import { walkability } from './walkability/descriptor.js';

/** Every score, in the spec's order. */
export const SCORES = [noise, flood, bushfire, heatIsland, solar, walkability, viewQuality, contamination, aircraftNoise] as const;

/** Every kind of model the scores read (each once), as the engine builds, keeps and reports them. */
export const MODEL_KINDS: readonly ModelKind<unknown>[] = [...new Set(SCORES.flatMap((d) => (d as AnyScoreDescriptor).models ?? []))];

/** A list of scores to walk: {@link SCORES}, or a library user's list with scores of its own. */
export type ScoreRegistry = readonly AnyScoreDescriptor[];

/** One of the scores' keys. */
export type ScoreKey = (typeof SCORES)[number]['key'];

/** The score keys, in the spec's order. */
export const SCORE_KEYS: readonly ScoreKey[] = SCORES.map((d) => d.key);

/** Scores where 100 means most exposed (the rest: 100 means best amenity). */
export const EXPOSURE_SCORES: ReadonlySet<ScoreKey> = new Set(SCORES.filter((d) => d.exposure).map((d) => d.key));

/** The scores `propintel scores` computes from input files as well (the context scores). */
export const CONTEXT_SCORE_KEYS: readonly ScoreKey[] = SCORES.filter((d) => d.fromFiles).map((d) => d.key);
/** A key of {@link CONTEXT_SCORE_KEYS} (typed as any score key: which ones read files is the descriptors' say). */
export type ContextScoreKey = ScoreKey;

/** The run a descriptor's `score` takes (distributed over a union of descriptors). */
type RunOf<D> = D extends { score: (run: infer Run extends ScoreRun<unknown, unknown>) => unknown } ? Run : never;
type ModelsOf<R> = R extends { models: infer M } ? M : never;
type OptionsOf<R> = R extends { options: infer O } ? O : never;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Everything the registry's scores need of the engine (each descriptor's `M`, together). */
export type ScoreModelsNeeded = UnionToIntersection<ModelsOf<RunOf<(typeof SCORES)[number]>>>;
/** Every option the registry's scores read (each descriptor's `O`, together). */
export type ScoreOptionsNeeded = UnionToIntersection<OptionsOf<RunOf<(typeof SCORES)[number]>>>;

/** The keys of a registry, checked: snake_case and unique. */
export function registryKeys(registry: ScoreRegistry): string[] {
  const keys = registry.map((d) => d.key);
  const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
  if (twice.length) throw new Error(`score key ${JSON.stringify(twice[0])} is registered twice`);
  return keys;
}

/**
 * The precise type of each score the engine computes, by its key in `scores` (SCORE_KEYS), and of each
 * surface by its layer: what `engine.scores()` and `engine.surfaces()` return, and what the property
 * payload's `scores` and `surfaces` blocks hold.
 *
 * These are generated from the scores' JSON Schema (score-schema.ts, the same the OpenAPI documents publish)
 * into score-types.generated.ts. Each score's module types its own computation (`FloodScore` in
 * flood/flood-score.ts and so on); the checks below make tsc fail when one of them stops satisfying the
 * published type, so the library, the payload and the OpenAPI document cannot drift apart.
 */
import type * as Computed from './computed-types.js';
import type * as Published from './score-types.generated.js';

/** Every score by its key. */
export type Scores = Required<Published.Scores>;

/** Every surface by its layer. */
export type Surfaces = Required<Published.Surfaces>;

export type { AircraftNoiseScore, BushfireScore, ContaminationScore, FloodScore, HeatIslandScore, SolarScore, ViewQualityScore, WalkabilityScore, NoiseScore, NoiseSurface, HeatSurface, ContoursLayer } from './score-types.generated.js';

/** What each module computes satisfies what is published (a compile error names the score that does not). */
type Satisfies<T extends Record<keyof T, unknown>, U extends { [K in keyof T]: unknown }> = { [K in keyof T]: T[K] extends U[K] ? true : K };
type Failing<T> = { [K in keyof T]: T[K] extends true ? never : T[K] }[keyof T];
/** `never` when every computed score and surface is its published type; else the keys that are not. */
export type ScoreTypeMismatch = Failing<Satisfies<Computed.Scores, Scores>> | Failing<Satisfies<Computed.Surfaces, Surfaces>>;
const scoresMatch: [ScoreTypeMismatch] extends [never] ? true : ScoreTypeMismatch = true;
void scoresMatch;

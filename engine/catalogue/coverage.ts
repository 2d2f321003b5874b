/**
 * Coverage status (spec section 3): what a lookup's outcome means, given what the catalogue holds for that
 * payload path in that state.
 *
 * - `data_returned`: records came back (with `lookup_complete: false` when the lookup also failed part-way);
 * - `checked_clear`: the lookup completed, the state is inside a complete held dataset, nothing matched;
 * - `unavailable`: the lookup failed or timed out and returned nothing (retry);
 * - `not_assessed`: no complete held coverage for this state and path, so a miss proves nothing (including a
 *   miss against a partial dataset).
 */
import type { Catalogue, CatalogueSource, CoverageExtent } from './catalogue.js';
import type { PayloadPath } from './payload-paths.js';
import type { StateCode } from './states.js';

/** The closed set of coverage statuses. */
export const COVERAGE_STATUSES = ['data_returned', 'checked_clear', 'unavailable', 'not_assessed'] as const;
/** One of {@link COVERAGE_STATUSES}. */
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

/** The entry for one data path in `meta.coverage_status`. */
export interface CoverageEntry {
  status: CoverageStatus;
  feature_count: number;
  lookup_complete: boolean;
}

/** What a lookup did: how many records it returned and whether it failed (wholly or part-way). */
export interface LookupOutcome {
  count: number;
  failed: boolean;
}

/** The sources feeding `path` that cover `state` (or every source feeding it when state is null). */
export function sourcesFor(catalogue: Pick<Catalogue, 'sources'>, path: PayloadPath, state: StateCode | null): CatalogueSource[] {
  return catalogue.sources.filter((s) => s.paths.includes(path) && (state === null || state in s.coverage));
}

/** How completely the catalogue holds `path` for `state`: complete if any source is complete there. */
export function heldExtent(catalogue: Pick<Catalogue, 'sources'>, path: PayloadPath, state: StateCode | null): CoverageExtent | 'none' {
  if (state === null) return 'none';
  let extent: CoverageExtent | 'none' = 'none';
  for (const s of sourcesFor(catalogue, path, state)) {
    const e = s.coverage[state];
    if (e === 'complete') return 'complete';
    if (e === 'partial') extent = 'partial';
  }
  return extent;
}

/** Options for {@link coverageStatus}. */
export interface CoverageOptions {
  /** An empty result stays `not_assessed` even against complete data (spec 3: DAs and schools, for now). */
  emptyIsNotAssessed?: boolean;
}

/** The coverage entry for a lookup outcome against the held extent. */
export function coverageStatus(extent: CoverageExtent | 'none', outcome: LookupOutcome, options: CoverageOptions = {}): CoverageEntry {
  const { count, failed } = outcome;
  if (count > 0) return { status: 'data_returned', feature_count: count, lookup_complete: !failed };
  if (failed) return { status: 'unavailable', feature_count: 0, lookup_complete: false };
  if (extent === 'complete' && !options.emptyIsNotAssessed) return { status: 'checked_clear', feature_count: 0, lookup_complete: true };
  return { status: 'not_assessed', feature_count: 0, lookup_complete: true };
}

/**
 * The contour interval: validating `contour_interval_m`, the levels an interval gives over a range of
 * elevations, and the choice of interval with its `interval_source` (spec §2.7 and §4).
 *
 * Levels are always whole multiples of the interval (elevation 0 is a level), as published contours and
 * `gdal_contour -i` (offset 0) have them. Levels are counted arithmetically from the window's minimum and
 * maximum before any line is traced, so widening an interval costs nothing.
 */
import { invalidArgument } from '../../errors.js';

/** The interval used when none is asked for, metres (spec §4: default 5). */
export const DEFAULT_INTERVAL_M = 5;
/** The largest interval a caller may ask for, metres (spec §4 and §8: above 0, up to 200). */
export const MAX_INTERVAL_M = 200;

/**
 * The most levels a requested interval may produce in one window before it is widened (`widened_to_fit`).
 * Chosen so that the spec's 1,200-line cap still leaves about ten lines per level: with more levels than
 * this, the cap starts cutting whole levels out of ordinary terrain. Not a spec number.
 */
export const MAX_LEVELS = 120;

/**
 * The most levels the default interval may produce before it is widened (`auto`, "widened automatically
 * over steep relief"). At the default 5 m that is 250 m of relief inside the 3 km window, a mean slope of
 * about 10 degrees from the subject to the window edge (atan(250 / 1500)); steeper windows get 10 m, 20 m,
 * 50 m ... so the map stays readable. Not a spec number.
 */
export const AUTO_MAX_LEVELS = 50;

/**
 * Where the interval in use came from (spec §2.7, a closed enumeration):
 * - `requested`: the caller's `contour_interval_m`, used as asked;
 * - `auto`: none was asked: the default 5 m (or the source's floor), widened over steep relief;
 * - `raised_to_floor`: the request was finer than the source's floor, and the floor is used;
 * - `widened_to_fit`: the request was widened: it gave too many levels for the window, or (a choice made
 *   here) it is not a whole multiple of a contour-line dataset's spacing and was rounded up to the next
 *   multiple (15 m on Vicmap's statewide 10 m lines gives 20 m). The spec's four values have no closer fit
 *   for the second case: the request is not finer than the floor, and the spec describes `widened_to_fit`
 *   as a state query that could not deliver the interval asked, which is what happened.
 */
export const INTERVAL_SOURCES = ['requested', 'auto', 'raised_to_floor', 'widened_to_fit'] as const;
/** One of {@link INTERVAL_SOURCES}. */
export type IntervalSource = (typeof INTERVAL_SOURCES)[number];

/** Multipliers tried, in order, when an interval must be widened: every widened level is also a level of the
 * interval asked for (1, 2, 5, 10, 20, 50, ...). */
function widenFactor(step: number): number {
  return [1, 2, 5][step % 3] * 10 ** Math.floor(step / 3);
}

/** A level value `k * interval`, rounded to 1e-9 m so that 3 x 0.1 is 0.3, not 0.30000000000000004. */
export function levelValue(k: number, interval: number): number {
  return Math.round(k * interval * 1e9) / 1e9;
}

/** True when `elevation` is a whole multiple of `interval` (to 1e-6 of the interval). */
export function isMultipleOf(elevation: number, interval: number): boolean {
  const r = elevation / interval;
  return Math.abs(r - Math.round(r)) < 1e-6;
}

/**
 * Checks a caller's `contour_interval_m`: undefined or null means "not asked"; anything else must be a
 * number above 0 and at most {@link MAX_INTERVAL_M}. Throws `INVALID_ARGUMENT` naming `contour_interval_m`.
 */
export function validateInterval(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidArgument('contour_interval_m', `contour_interval_m must be a number above 0 and at most ${MAX_INTERVAL_M} m, got ${JSON.stringify(value) ?? String(value)}`);
  }
  if (value <= 0 || value > MAX_INTERVAL_M) {
    throw invalidArgument('contour_interval_m', `contour_interval_m must be above 0 and at most ${MAX_INTERVAL_M} m, got ${value}`);
  }
  return value;
}

/**
 * The levels that cross a surface whose values span [min, max]: the multiples of `interval` with
 * min < level <= max (a corner is high when its value >= level, so a level equal to the minimum has nothing
 * below it and draws no line). Ascending.
 */
export function levelsInRange(min: number, max: number, interval: number): Float64Array {
  if (!(max >= min) || !(interval > 0)) return new Float64Array(0);
  const k0 = Math.floor(min / interval) + 1;
  const k1 = Math.floor(max / interval);
  const out: number[] = [];
  for (let k = k0; k <= k1; k++) {
    const v = levelValue(k, interval);
    if (v > min && v <= max) out.push(v);
  }
  return Float64Array.from(out);
}

/** How many levels {@link levelsInRange} would give, without building them. */
export function countLevels(min: number, max: number, interval: number): number {
  if (!(max >= min) || !(interval > 0)) return 0;
  return Math.max(0, Math.floor(max / interval) - Math.floor(min / interval));
}

/** What a source allows. */
export interface IntervalRules {
  /** The finest interval the source supports, metres (national model 1, VIC metro 1, QLD 1, VIC statewide 10, TAS 5). */
  floorM: number;
  /**
   * For a contour-line source: its native spacing, metres. The interval must then be a whole multiple of it
   * (a 10 m dataset has no 15 m lines); a request that is not is widened to the next multiple. Omit for a DEM.
   */
  multipleOfM?: number;
  /** Levels allowed for a requested interval before widening; default {@link MAX_LEVELS}. */
  maxLevels?: number;
  /** Levels allowed for the default interval before widening; default {@link AUTO_MAX_LEVELS}. */
  autoMaxLevels?: number;
}

/** The interval chosen and why. */
export interface IntervalChoice {
  /** Spacing used, metres. */
  interval_m: number;
  interval_source: IntervalSource;
}

function snapUp(interval: number, multiple: number): number {
  if (isMultipleOf(interval, multiple)) return interval;
  return levelValue(Math.ceil(interval / multiple), multiple);
}

/**
 * Chooses the interval for one window. `requested` is the caller's (already validated) interval or
 * undefined; `levelsAt(interval)` counts the levels an interval would give there (arithmetically for a DEM,
 * from the elevations present for a line source).
 *
 * - Not asked: the default (5 m, or the source's floor if coarser, on its native spacing), widened x2, x5,
 *   x10 ... while it gives more than `autoMaxLevels` levels: `auto`.
 * - Asked: used as is (`requested`); below the source's floor it is raised to the floor
 *   (`raised_to_floor`); not a multiple of a line source's spacing, or more than `maxLevels` levels, and it
 *   is widened (`widened_to_fit`, which then wins over `raised_to_floor`: it names the last change made).
 */
export function chooseInterval(requested: number | undefined, rules: IntervalRules, levelsAt: (interval: number) => number): IntervalChoice {
  const maxLevels = rules.maxLevels ?? MAX_LEVELS;
  const autoMax = Math.min(rules.autoMaxLevels ?? AUTO_MAX_LEVELS, maxLevels);
  const widen = (base: number, limit: number): number => {
    for (let step = 0; step < 30; step++) {
      const interval = levelValue(widenFactor(step), base);
      if (levelsAt(interval) <= limit) return interval;
    }
    return levelValue(widenFactor(30), base);
  };
  const snap = (v: number) => (rules.multipleOfM ? snapUp(v, rules.multipleOfM) : v);
  if (requested === undefined) {
    const base = snap(Math.max(DEFAULT_INTERVAL_M, rules.floorM));
    return { interval_m: widen(base, autoMax), interval_source: 'auto' };
  }
  let interval = requested;
  let source: IntervalSource = 'requested';
  if (interval < rules.floorM) {
    interval = rules.floorM;
    source = 'raised_to_floor';
  }
  const snapped = snap(interval);
  if (snapped !== interval) {
    interval = snapped;
    source = 'widened_to_fit';
  }
  const widened = widen(interval, maxLevels);
  if (widened !== interval) source = 'widened_to_fit';
  return { interval_m: widened, interval_source: source };
}

/**
 * AS 3959 Method 1 (simplified procedure, clause 2.2): the bushfire attack level (BAL) from the vegetation
 * class, the effective slope under the vegetation and the distance from the site to the vegetation.
 *
 * Edition and tables: AS 3959-2009, Tables 2.4.2 (FDI 100), 2.4.3 (FDI 80), 2.4.4 (FDI 50) and 2.4.5
 * (FDI 40), as transcribed by Geoscience Australia's BAL toolbox (GeoscienceAustralia/BAL,
 * `utilities/bal_database.py`, "translated from tables from 2.4.2 to 2.4.5 in AS 3959 (2009)"), which also
 * encodes the table limits used here: BAL-12.5 runs to 100 m (vegetation farther away is BAL-LOW,
 * clause 2.2.3.2(a)) except grassland, which is assessed only to 50 m outside FDI 50 areas. The 2009
 * edition is the one whose tables we could verify against a public transcription. AS 3959:2018 (the edition
 * the NCC now references) revised the vegetation classification and grassland treatment; its tables could
 * not be checked here, so values can differ from a 2018 assessment, which is one more reason this is an
 * indicative pre-screening and never a BAL certificate.
 *
 * FDI: Table 2.1 of AS 3959-2009 gives ACT 100, NSW 80 (100 in the Greater Hunter, Greater Sydney,
 * Illawarra/Shoalhaven, Far South Coast and Southern Ranges fire weather districts; 50 in alpine areas),
 * NT 40, QLD 40, SA 80, TAS 50, VIC 100 (50 in alpine areas), WA 80. We do not resolve fire weather
 * districts or alpine areas, so where a state has more than one value we take the higher, conservative one
 * (NSW 100, VIC 100); callers that know the district pass the FDI explicitly.
 */
import { invalidArgument } from '../../errors.js';

/** The classified vegetation of AS 3959-2009 Table 2.3, plus `low_threat` (excluded by clause 2.2.3.2). */
export const VEGETATION_CLASSES = ['forest', 'woodland', 'shrubland', 'scrub', 'mallee_mulga', 'rainforest', 'grassland', 'low_threat'] as const;
/** One of {@link VEGETATION_CLASSES}. */
export type VegetationClass = (typeof VEGETATION_CLASSES)[number];
/** The classes Method 1 assesses (everything but `low_threat`). */
export type ClassifiedVegetation = Exclude<VegetationClass, 'low_threat'>;

/** BAL bands from lowest to highest. */
export const BAL_BANDS = ['BAL-LOW', 'BAL-12.5', 'BAL-19', 'BAL-29', 'BAL-40', 'BAL-FZ'] as const;
/** One of {@link BAL_BANDS}. */
export type BalBand = (typeof BAL_BANDS)[number];

/** The FDIs with a Method 1 table. */
export const TABLE_FDIS = [100, 80, 50, 40] as const;
/** One of {@link TABLE_FDIS}. */
export type TableFdi = (typeof TABLE_FDIS)[number];

/** The table each FDI uses (AS 3959-2009). */
export const FDI_TABLE: Readonly<Record<TableFdi, string>> = { 100: 'Table 2.4.2', 80: 'Table 2.4.3', 50: 'Table 2.4.4', 40: 'Table 2.4.5' };

/** FDI per state and territory (AS 3959-2009 Table 2.1; the higher value where a state has districts). */
export const STATE_FDI: Readonly<Record<string, TableFdi>> = { ACT: 100, NSW: 100, NT: 40, QLD: 40, SA: 80, TAS: 50, VIC: 100, WA: 80 };

/**
 * Effective-slope classes of Method 1: upslope or flat land (one column), then downslopes in 5-degree steps
 * with the upper bound inclusive (0 < s <= 5, ...). Beyond 20 degrees Method 1 does not apply.
 */
export const SLOPE_CLASSES = ['upslope_or_flat', 'downslope_0_5', 'downslope_5_10', 'downslope_10_15', 'downslope_15_20', 'downslope_over_20'] as const;
/** One of {@link SLOPE_CLASSES}. */
export type SlopeClass = (typeof SLOPE_CLASSES)[number];

/** The slope class of an effective slope in degrees (positive = downslope away from the site). */
export function slopeClassOf(downslopeDeg: number): SlopeClass {
  if (!(downslopeDeg > 0)) return 'upslope_or_flat';
  if (downslopeDeg <= 5) return 'downslope_0_5';
  if (downslopeDeg <= 10) return 'downslope_5_10';
  if (downslopeDeg <= 15) return 'downslope_10_15';
  if (downslopeDeg <= 20) return 'downslope_15_20';
  return 'downslope_over_20';
}

/**
 * Distance limits in metres per FDI, slope class and vegetation class: the site is BAL-FZ below the first,
 * BAL-40 below the second, BAL-29 below the third and BAL-19 below the fourth (AS 3959-2009 Tables
 * 2.4.2-2.4.5 via the GA transcription). Column order: forest, woodland, shrubland, scrub, mallee/mulga,
 * rainforest, grassland.
 */
type Limits = readonly [number, number, number, number];
type Row = readonly [Limits, Limits, Limits, Limits, Limits, Limits, Limits];
const TABLES: Readonly<Record<TableFdi, readonly [Row, Row, Row, Row, Row]>> = {
  100: [
    [[19, 25, 35, 48], [12, 16, 24, 33], [7, 9, 13, 19], [10, 13, 19, 27], [6, 8, 12, 17], [8, 11, 16, 23], [6, 9, 13, 19]],
    [[24, 32, 43, 57], [15, 21, 29, 41], [7, 10, 15, 22], [11, 15, 22, 31], [7, 9, 13, 20], [10, 14, 20, 29], [7, 10, 15, 22]],
    [[31, 39, 53, 69], [20, 26, 37, 50], [8, 11, 17, 25], [12, 17, 24, 35], [7, 10, 15, 23], [13, 18, 26, 36], [8, 11, 17, 25]],
    [[39, 49, 64, 82], [25, 33, 45, 60], [9, 13, 19, 28], [14, 19, 28, 39], [8, 11, 18, 26], [17, 23, 33, 45], [9, 13, 20, 28]],
    [[50, 61, 78, 98], [32, 41, 56, 73], [10, 15, 22, 31], [15, 21, 31, 43], [9, 13, 20, 29], [22, 29, 42, 56], [11, 15, 23, 32]],
  ],
  80: [
    [[16, 21, 31, 42], [10, 14, 20, 29], [7, 9, 13, 19], [10, 13, 19, 27], [6, 8, 12, 17], [6, 9, 13, 19], [6, 8, 12, 17]],
    [[20, 27, 37, 50], [13, 17, 25, 35], [7, 10, 15, 22], [11, 15, 22, 31], [7, 9, 13, 20], [8, 11, 17, 24], [7, 9, 14, 20]],
    [[26, 33, 46, 61], [16, 22, 31, 43], [8, 11, 17, 25], [12, 17, 24, 35], [7, 10, 15, 23], [11, 15, 22, 31], [8, 10, 16, 23]],
    [[33, 42, 56, 73], [21, 28, 39, 53], [9, 13, 19, 28], [14, 19, 28, 39], [8, 11, 18, 26], [14, 19, 28, 39], [9, 12, 18, 26]],
    [[42, 52, 68, 87], [27, 35, 48, 64], [10, 15, 22, 31], [15, 21, 31, 43], [9, 13, 20, 29], [18, 25, 36, 48], [10, 14, 21, 30]],
  ],
  50: [
    [[12, 16, 23, 32], [7, 10, 15, 22], [7, 9, 13, 19], [10, 13, 19, 27], [6, 8, 12, 17], [5, 6, 9, 14], [7, 9, 14, 20]],
    [[14, 19, 27, 38], [9, 12, 18, 26], [7, 10, 15, 22], [11, 15, 22, 31], [7, 9, 13, 20], [6, 8, 12, 17], [8, 10, 16, 23]],
    [[18, 24, 34, 46], [11, 15, 23, 32], [8, 11, 17, 25], [12, 17, 24, 35], [7, 10, 15, 23], [7, 10, 15, 22], [9, 12, 18, 26]],
    [[22, 30, 41, 56], [14, 19, 28, 40], [9, 13, 19, 28], [14, 19, 28, 39], [8, 11, 18, 26], [9, 13, 19, 28], [10, 13, 20, 29]],
    [[28, 37, 51, 67], [18, 25, 36, 48], [10, 15, 22, 31], [15, 21, 31, 43], [9, 13, 20, 29], [12, 17, 25, 35], [11, 15, 23, 33]],
  ],
  40: [
    [[10, 13, 20, 28], [6, 9, 13, 19], [7, 9, 13, 19], [10, 13, 19, 27], [6, 8, 12, 17], [4, 5, 8, 12], [4, 5, 8, 12]],
    [[12, 16, 24, 34], [8, 11, 16, 23], [7, 10, 15, 22], [11, 15, 22, 31], [7, 9, 13, 20], [5, 7, 10, 15], [4, 6, 9, 14]],
    [[15, 20, 29, 41], [9, 13, 19, 28], [8, 11, 17, 25], [12, 17, 24, 35], [7, 10, 15, 23], [6, 8, 13, 19], [5, 7, 11, 16]],
    [[19, 25, 36, 49], [12, 16, 24, 35], [9, 13, 19, 28], [14, 19, 28, 39], [8, 11, 18, 26], [8, 11, 16, 24], [6, 8, 13, 19]],
    [[24, 31, 44, 59], [15, 21, 31, 42], [10, 15, 22, 31], [15, 21, 31, 43], [9, 13, 20, 29], [10, 14, 21, 30], [7, 9, 15, 22]],
  ],
};

const COLUMN: Readonly<Record<ClassifiedVegetation, number>> = { forest: 0, woodland: 1, shrubland: 2, scrub: 3, mallee_mulga: 4, rainforest: 5, grassland: 6 };

/** Vegetation farther than this is BAL-LOW (clause 2.2.3.2(a)), metres. */
export const ASSESSMENT_DISTANCE_M = 100;
/** Grassland's outer BAL-12.5 limit outside FDI 50 areas, metres (GA BAL toolbox). */
export const GRASSLAND_LIMIT_M = 50;

/** The four distance limits of a table cell (FZ/40/29/19 upper bounds), metres. */
export function method1Limits(fdi: TableFdi, veg: ClassifiedVegetation, slope: Exclude<SlopeClass, 'downslope_over_20'>): Limits {
  const table = TABLES[fdi];
  if (!table) throw invalidArgument('fdi', `no Method 1 table for FDI ${fdi}; use one of ${TABLE_FDIS.join(', ')}`);
  return table[SLOPE_CLASSES.indexOf(slope)][COLUMN[veg]];
}

/**
 * The BAL for vegetation of class `veg` at `distance` metres from the site with effective slope class
 * `slope`, or null when Method 1 does not apply (downslope over 20 degrees: Method 2 is required).
 * `low_threat` vegetation is always BAL-LOW.
 */
export function method1Bal(fdi: TableFdi, veg: VegetationClass, slope: SlopeClass, distance: number): BalBand | null {
  if (!(distance >= 0)) throw invalidArgument('distance', `distance must be a non-negative number of metres, got ${distance}`);
  if (veg === 'low_threat') return 'BAL-LOW';
  const outer = veg === 'grassland' && fdi !== 50 ? GRASSLAND_LIMIT_M : ASSESSMENT_DISTANCE_M;
  if (distance >= outer) return 'BAL-LOW';
  if (slope === 'downslope_over_20') return null;
  const [fz, b40, b29, b19] = method1Limits(fdi, veg, slope);
  if (distance < fz) return 'BAL-FZ';
  if (distance < b40) return 'BAL-40';
  if (distance < b29) return 'BAL-29';
  if (distance < b19) return 'BAL-19';
  return 'BAL-12.5';
}

/** Rank of a band in {@link BAL_BANDS} (BAL-LOW 0 ... BAL-FZ 5). */
export function balRank(b: BalBand): number {
  return BAL_BANDS.indexOf(b);
}

/** The FDI Method 1 uses for a state (upper-case abbreviation), or null for an unknown state. */
export function fdiForState(state: string | null | undefined): TableFdi | null {
  return state ? (STATE_FDI[state.toUpperCase()] ?? null) : null;
}

/**
 * The contour sources and the one-source-per-address rule (spec §2.7): VIC, QLD and TAS use that state's
 * contour-line dataset; NSW, ACT, WA, SA, NT and an undetermined state use isolines of the national 5 m DEM.
 * Sources are never mixed or substituted: a VIC address whose state dataset is missing, or has no lines in
 * the window, gets `available: false` naming it, never lines from the DEM.
 *
 * Victoria has two line datasets, metro (1 m) and statewide (10 m). The rule here: a line source may carry
 * a `footprint` polygon; a source whose footprint contains the subject applies, and among several the one
 * with the finest native interval; otherwise the state's source without a footprint (the statewide one)
 * applies. So the sample world (and the catalogue later) declares the VIC metro dataset with its footprint
 * and the statewide one without.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import { pointInPolygon } from '../../vector/point-in-polygon.js';

/** The national DEM: isolines are traced from it. */
export interface DemContourSource {
  kind: 'dem';
  /** Catalogue source id, e.g. `ga_elvis_5m_dem` or `sample_nsw_dem`. */
  id: string;
  /** Human-readable name, reported as `source_name`. */
  name: string;
  /** GeoTIFF (or COG) holding elevations in metres; no-data as the GDAL_NODATA tag. */
  path: string;
  /** The CRS the catalogue declares, used when the file has no GeoKeys (`EPSG:<code>`). */
  crs?: string;
  /** Reported as `native_interval_m`; default `floor_m` (a DEM holds every interval down to its floor). */
  native_interval_m?: number;
  /** The finest interval it supports, metres (spec §4: 1 m on the national model); default 1. */
  floor_m?: number;
}

/** A state contour-line dataset: lines are selected and clipped, never re-traced. */
export interface VectorContourSource {
  kind: 'vector';
  /** Catalogue source id, e.g. `vicmap_elevation_1_5m_contours` or `sample_vic_contours`. */
  id: string;
  /** Human-readable name, reported as `source_name`. */
  name: string;
  /** The state it serves: VIC, QLD or TAS. */
  state: string;
  /** GeoJSON of LineString / MultiLineString features with a numeric elevation property. */
  path: string;
  /** The file's CRS when it is not lon/lat and has no `crs` member. */
  crs?: string;
  /** Name of the elevation property, metres; default `elevation`. */
  elevation_property?: string;
  /** The spacing of the published lines, metres (VIC metro 1, VIC statewide 10, QLD 1, TAS 5). */
  native_interval_m: number;
  /** The finest interval it supports, metres; default `native_interval_m`. */
  floor_m?: number;
  /** Where this dataset applies (lon/lat polygon); omit for a statewide dataset. */
  footprint?: Polygon | MultiPolygon;
}

/** One of the two kinds of source. */
export type ContourSource = DemContourSource | VectorContourSource;

/** The sources available to the engine; the lead's catalogue fills this. */
export interface ContourSources {
  /** The national DEM (for NSW, ACT, WA, SA, NT and undetermined states). */
  dem?: DemContourSource | null;
  /** State contour-line datasets (VIC, QLD, TAS). */
  vector?: VectorContourSource[];
}

/** States served by their own contour-line dataset (spec §2.7). */
export const STATE_LINE_STATES = ['VIC', 'QLD', 'TAS'] as const;

/**
 * The interval floors of spec §4, metres, for the catalogue to copy into its source descriptors: the
 * national model 1 m, VIC metro 1 m, QLD 1 m, VIC statewide 10 m, TAS 5 m.
 */
export const SPEC_INTERVAL_FLOORS_M = { national_dem: 1, vic_metro: 1, qld: 1, vic_statewide: 10, tas: 5 } as const;

/** The source chosen for an address, or why there is none. */
export type SourceChoice =
  | { kind: 'dem'; source: DemContourSource }
  | { kind: 'vector'; source: VectorContourSource }
  | { kind: 'none'; state: string | null; note: string };

/** Normalises a state name or abbreviation to its upper-case abbreviation; null when undetermined. */
export function normaliseState(state: string | null | undefined): string | null {
  if (!state) return null;
  const s = state.trim().toUpperCase();
  const names: Record<string, string> = {
    VICTORIA: 'VIC',
    QUEENSLAND: 'QLD',
    TASMANIA: 'TAS',
    'NEW SOUTH WALES': 'NSW',
    'AUSTRALIAN CAPITAL TERRITORY': 'ACT',
    'WESTERN AUSTRALIA': 'WA',
    'SOUTH AUSTRALIA': 'SA',
    'NORTHERN TERRITORY': 'NT',
  };
  return names[s] ?? (s || null);
}

/** Chooses the one source for a subject at (lon, lat) in `state` (see the module comment for the rules). */
export function chooseContourSource(lon: number, lat: number, state: string | null | undefined, sources: ContourSources): SourceChoice {
  const st = normaliseState(state);
  if (st && (STATE_LINE_STATES as readonly string[]).includes(st)) {
    const own = (sources.vector ?? []).filter((s) => normaliseState(s.state) === st);
    const inFootprint = own
      .filter((s) => s.footprint && pointInPolygon(lon, lat, s.footprint))
      .sort((a, b) => a.native_interval_m - b.native_interval_m);
    const chosen = inFootprint[0] ?? own.find((s) => !s.footprint);
    if (chosen) return { kind: 'vector', source: chosen };
    return {
      kind: 'none',
      state: st,
      note: `${st} contours come only from the state's own contour-line dataset, and none is configured for this location; the national DEM is not substituted.`,
    };
  }
  if (sources.dem) return { kind: 'dem', source: sources.dem };
  return { kind: 'none', state: st, note: `Contours for ${st ?? 'an undetermined state'} come from the national 5 m DEM, which is not configured.` };
}

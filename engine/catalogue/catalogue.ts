/**
 * The dataset catalogue: one `catalogue.json` per dataset directory, listing every source the engine may
 * read, what it feeds, where it holds data, under what terms, how current it is, and its files.
 *
 * `meta.coverage_status`, `meta.coverage_notes`, `meta.attribution` and `meta.source_currency` are generated
 * from this file and the records a response used, never written by hand per response.
 */
import type { PayloadPath } from './payload-paths.js';
import type { StateCode } from './states.js';

/** The catalogue format version this engine reads. */
export const CATALOGUE_VERSION = 1;

/** How completely a source covers a state: `complete` (a miss means "checked, none") or `partial`. */
export type CoverageExtent = 'complete' | 'partial';

/** What a licence obliges a reseller to do with a source's data. */
export const OBLIGATION_STATUSES = [
  /** No obligation (public domain, CC0). */
  'none',
  /** Attribution text must accompany the data (CC BY). */
  'attribution_required',
  /** The licence schedule must be passed on with the data (spec 2.8 `sources_requiring_licence_schedule`). */
  'schedule_required',
  /** Derived data must carry the same licence (ODbL). */
  'share_alike',
  /** The publisher's terms forbid delivery to customers; the engine withholds the rows. */
  'withheld',
] as const;
/** One of {@link OBLIGATION_STATUSES}. */
export type ObligationStatus = (typeof OBLIGATION_STATUSES)[number];

/**
 * File formats the engine loads. `shapefile`: the `.shp` path, its `.dbf`, `.prj` and `.cpg` beside it.
 * `geopackage`: a `.gpkg` file; the file entry's `table` names the feature table when it holds several.
 * `gnaf`: a G-NAF `Standard` folder of pipe-separated tables, read for the file entry's `state`.
 * `osm`: an OpenStreetMap extract, XML (`.osm`) or PBF (`.osm.pbf`); `layer: "roads"` keeps the road ways. `mvt`: a directory of Mapbox Vector Tiles laid out `z/x/y.mvt` (or `.pbf`), as
 * tiled vector services publish them; the file entry's `tile_layer` names the layer inside the tiles.
 */
export const SOURCE_FORMATS = ['geojson', 'csv', 'jsonl', 'geotiff', 'mvt', 'shapefile', 'geopackage', 'gnaf', 'osm'] as const;
/** One of {@link SOURCE_FORMATS}. */
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** How current a source is (spec 2.8 `source_currency`). */
export interface SourceCurrency {
  /** When the data was last pulled from its publisher (ISO 8601 timestamp). */
  last_fetched_at: string;
  /** How it was established: e.g. "bulk download", "API pull", "generated". */
  established: string;
  /** When it is pulled again: e.g. "daily", "quarterly", "on regeneration". */
  repull: string;
}

/** One file of a source. Paths are relative to the dataset directory. */
export interface SourceFile {
  path: string;
  /** The state this file covers, when the source is split by state. */
  state?: StateCode;
  /** The file's CRS (`EPSG:<code>`); checked against the file's own declaration when it has one. */
  crs?: string;
  /** Which layer of the source the file holds, when a source has several (e.g. `ghi`, `dni`, `crossings`). */
  layer?: string;
  /** The file's format when it differs from the source's (a road network with a CSV of crossings). */
  format?: SourceFormat;
  /** `geopackage` only: the feature table to read (needed when the file holds more than one). */
  table?: string;
  /** `mvt` only: the layer inside the tiles to read (required for `mvt`). */
  tile_layer?: string;
  /** `mvt` only: the zoom level to read (default: the deepest zoom present). */
  zoom?: number;
}

/** One source in the catalogue. */
export interface CatalogueSource {
  /** Unique id, lower-case letters, digits and underscores (sample-world ids start with `sample_`). */
  id: string;
  title: string;
  /** The payload paths this source feeds. */
  paths: PayloadPath[];
  /** States covered, each complete or partial. */
  coverage: Partial<Record<StateCode, CoverageExtent>>;
  custodian: string;
  licence: string;
  /** The attribution text shown with the data. */
  attribution: string;
  obligation_status: ObligationStatus;
  /** Whether the publisher's licence lets geometry be redistributed (clipped GeoJSON in responses). */
  geometry_redistribution: boolean;
  currency: SourceCurrency;
  format: SourceFormat;
  files: SourceFile[];
  /**
   * The publisher schema the engine reads the properties with (e.g. `vicmap_planning_zone`,
   * `wa_plan_zone`); the source's own id stays free.
   */
  schema?: string;
  /** Plain-English note on coverage and caveats (feeds `meta.coverage_notes`). */
  notes?: string;
  /** Role-specific settings (e.g. contour `native_interval_m` and `floor_m`, flood overlay `verified`). */
  options?: Record<string, unknown>;
}

/** A loaded, validated catalogue. */
export interface Catalogue {
  /** Absolute path of the dataset directory. */
  dir: string;
  version: number;
  name: string;
  description?: string;
  /** True for generated data (the sample world). */
  synthetic: boolean;
  /** The generator stamp of a generated world: its version, seed and the tile ids it wrote. */
  generator?: { name: string; version: string; seed: number; tiles?: string[] };
  /** The sandbox address list, relative to `dir`. */
  sandbox?: string;
  sources: CatalogueSource[];
}

/**
 * The bushfire inputs and their indexes. Official mapping and modelled inputs are held apart from the
 * start: official overlays are per state with their coverage and publisher-native properties; vegetation,
 * fire history and the DEM feed only the modelled score and the indicative BAL.
 *
 * Inputs (the sample world's schema):
 * - official bushfire-prone-area overlay GeoJSON polygons per state, publisher-native properties (VIC
 *   `ZONE_CODE` "BMO"/"BPA", NSW `category` "Vegetation Category 1", ...), coverage `complete` | `partial`;
 * - vegetation GeoJSON polygons with `veg_class` (forest, woodland, shrubland, scrub, mallee_mulga,
 *   rainforest, grassland, low_threat) and `source`;
 * - fire history GeoJSON polygons with `fire_year`, `fire_type` (bushfire | prescribed) and `source`.
 */
import type { Feature, Geometry, MultiPolygon, Polygon } from 'geojson';
import { invalidData } from '../../errors.js';
import { PolygonIndex } from '../../vector/polygon-index.js';
import type { MissingLayer } from '../../score-kit/layer-input.js';
import { isMissing } from '../../score-kit/layer-input.js';
import { VEGETATION_CLASSES, type VegetationClass } from './as3959-method1.js';

/** One state's official overlay as loaded. */
export interface OfficialOverlayInput {
  /** Coverage of the state's mapping: `partial` means a miss proves nothing. */
  coverage: 'complete' | 'partial';
  /** Source id from the catalogue. */
  source: string;
  /** Polygons with publisher-native properties. */
  features: Feature<Geometry>[];
}

/** Vegetation polygons with `veg_class`. */
export interface VegetationInput {
  features: Feature<Geometry>[];
  /** Source id used when a feature carries none. */
  source: string;
}

/** Fire history polygons with `fire_year` and `fire_type`. */
export interface FireHistoryInput {
  features: Feature<Geometry>[];
  source: string;
}

/** Everything the bushfire screening reads. An absent state or layer is not integrated. */
export interface BushfireInput {
  /** Official overlays by state abbreviation (VIC, NSW, ...). */
  officialOverlays?: Record<string, OfficialOverlayInput | MissingLayer>;
  vegetation?: VegetationInput | MissingLayer | null;
  fireHistory?: FireHistoryInput | MissingLayer | null;
}

/** An indexed official overlay. */
export interface OfficialOverlayLayer {
  status: 'available';
  coverage: 'complete' | 'partial';
  source: string;
  index: PolygonIndex;
  properties: Record<string, unknown>[];
}

/** Indexed vegetation: class per polygon. */
export interface VegetationLayer {
  status: 'available';
  index: PolygonIndex;
  vegClass: VegetationClass[];
  /** The source of each polygon (a feature's own `source`, else the layer's). */
  sources: string[];
  /** The layer's source id: what a search that found nothing searched. */
  source: string;
}

/** Indexed fire history. */
export interface FireHistoryLayer {
  status: 'available';
  index: PolygonIndex;
  year: (number | null)[];
  type: ('bushfire' | 'prescribed' | 'other')[];
  /** The source of each polygon (a feature's own `source`, else the layer's). */
  sources: string[];
  /** The layer's source id: what a search that found nothing searched. */
  source: string;
}

/** The indexed bushfire layers (built once, queried per subject). */
export interface BushfireLayers {
  officialOverlays: Record<string, OfficialOverlayLayer | MissingLayer>;
  vegetation: VegetationLayer | MissingLayer;
  fireHistory: FireHistoryLayer | MissingLayer;
}

const NOT_INTEGRATED: MissingLayer = { status: 'not_integrated', reason: 'no dataset held for this input' };

function polygons(features: Feature<Geometry>[], file: string): (Polygon | MultiPolygon)[] {
  return features.map((f, i) => {
    if (f.geometry.type !== 'Polygon' && f.geometry.type !== 'MultiPolygon') throw invalidData(file, `feature ${i} is a ${f.geometry.type}, expected a Polygon or MultiPolygon`, { feature: i });
    return f.geometry;
  });
}

/** Builds the indexes. Throws `INVALID_DATA` naming the layer for a bad `veg_class` or a non-polygon. */
export function buildBushfireLayers(input: BushfireInput): BushfireLayers {
  const officialOverlays: BushfireLayers['officialOverlays'] = {};
  for (const [state, o] of Object.entries(input.officialOverlays ?? {})) {
    const key = state.toUpperCase();
    officialOverlays[key] = isMissing(o)
      ? (o ?? NOT_INTEGRATED)
      : { status: 'available', coverage: o.coverage, source: o.source, index: PolygonIndex.build(polygons(o.features, `${o.source} overlay`)), properties: o.features.map((f) => (f.properties ?? {}) as Record<string, unknown>) };
  }
  let vegetation: BushfireLayers['vegetation'];
  if (isMissing(input.vegetation)) vegetation = input.vegetation ?? NOT_INTEGRATED;
  else {
    const v = input.vegetation;
    const vegClass = v.features.map((f, i) => {
      const c = String(f.properties?.veg_class ?? '').trim().toLowerCase();
      if (!(VEGETATION_CLASSES as readonly string[]).includes(c)) {
        throw invalidData(`${v.source} vegetation`, `feature ${i} has veg_class ${JSON.stringify(f.properties?.veg_class)}; expected one of ${VEGETATION_CLASSES.join(', ')}`, { feature: i });
      }
      return c as VegetationClass;
    });
    vegetation = { status: 'available', index: PolygonIndex.build(polygons(v.features, `${v.source} vegetation`)), vegClass, sources: v.features.map((f) => String(f.properties?.source ?? v.source)), source: v.source };
  }
  let fireHistory: BushfireLayers['fireHistory'];
  if (isMissing(input.fireHistory)) fireHistory = input.fireHistory ?? NOT_INTEGRATED;
  else {
    const h = input.fireHistory;
    fireHistory = {
      status: 'available',
      index: PolygonIndex.build(polygons(h.features, `${h.source} fire history`)),
      year: h.features.map((f) => {
        const y = Number(f.properties?.fire_year);
        return Number.isInteger(y) ? y : null;
      }),
      type: h.features.map((f) => {
        const t = String(f.properties?.fire_type ?? '').toLowerCase();
        return t === 'bushfire' || t === 'prescribed' ? t : 'other';
      }),
      sources: h.features.map((f) => String(f.properties?.source ?? h.source)),
      source: h.source,
    };
  }
  return { officialOverlays, vegetation, fireHistory };
}

/** The normalised category of an official overlay polygon, from its publisher-native properties. */
export function overlayCategory(props: Record<string, unknown>): 'bushfire_management_overlay' | 'bushfire_prone_area' | 'bush_fire_prone_land' | 'mapped_bushfire_prone' {
  const zone = String(props.ZONE_CODE ?? props.zone_code ?? '').toUpperCase();
  if (zone.startsWith('BMO')) return 'bushfire_management_overlay'; // Victoria Planning Provisions clause 44.06
  if (zone.startsWith('BPA')) return 'bushfire_prone_area'; // Victorian designated bushfire prone area
  const cat = String(props.category ?? props.CATEGORY ?? props.d_Category ?? '');
  if (/vegetation (category|buffer)/i.test(cat)) return 'bush_fire_prone_land'; // NSW RFS bush fire prone land map
  return 'mapped_bushfire_prone';
}

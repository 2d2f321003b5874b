/**
 * hazards.flood: the mapped flood overlays that cover a subject, with their publisher-native properties,
 * and (only with `includeGeometry`, and only for sources whose licence allows redistribution) their
 * geometry clipped to the analysis window (spec 2.1).
 */
import { bboxClip } from '@turf/turf';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { invalidArgument } from '../../errors.js';
import { createWindow, windowLonLatBBox } from '../../geo/window.js';
import { PolygonIndex } from '../../vector/polygon-index.js';
import { classifyFloodOverlay, isFloodOverlay, type FloodOverlayKind } from './overlay-codes.js';

/** Per-state coverage of an overlay source, from the catalogue: complete, partial, or none held. */
export type OverlayCoverage = 'complete' | 'partial' | 'none';

/** One flood-overlay source as the catalogue describes it, with its features (lon/lat). */
export interface FloodOverlaySource {
  /** Catalogue source id, e.g. `vic_planning_overlay`. */
  source: string;
  /** Readable layer name used in notes, e.g. "Victorian planning scheme overlays"; default the source id. */
  name?: string;
  /** State or territory the source covers (`VIC`, `NSW`, ...). */
  state: string;
  /** How much of the state the source covers. */
  coverage: OverlayCoverage;
  /** True when the mapping is verified (official, current); only verified sources feed the score. */
  verified: boolean;
  /** True when the publisher's licence allows redistributing geometry. */
  redistribution: boolean;
  /** What a hit means for the owner, e.g. "a planning permit may be required: contact the council". */
  response_path: string;
  /** Polygon features with publisher-native properties (the whole layer or the part near the subject). */
  features: Feature<Polygon | MultiPolygon>[];
  /** A prebuilt index over `features` (same order); built and cached on first use when absent. */
  index?: PolygonIndex;
}

/** One overlay feature covering the subject. */
export interface FloodOverlayHit {
  source: string;
  state: string;
  kind: Exclude<FloodOverlayKind, 'not_flood'>;
  code: string | null;
  label: string | null;
  verified: boolean;
  response_path: string;
  /** The publisher's properties, unchanged. */
  properties: Record<string, unknown>;
  /** The feature clipped to the window (lon/lat), when asked for and licensed. */
  geometry?: Polygon | MultiPolygon;
  /** Why geometry is absent although it was asked for. */
  geometry_omitted?: 'licence_does_not_allow_redistribution' | 'outside_window';
}

/** Options for {@link floodOverlayHits}. */
export interface FloodOverlayOptions {
  /** Attach clipped geometry for sources whose licence allows it; default false. */
  includeGeometry?: boolean;
  /** Half-width of the clip window, metres; default 1,500. */
  clipHalfWidth?: number;
}

const built = new WeakMap<object, PolygonIndex>();

function indexOf(src: FloodOverlaySource): PolygonIndex {
  if (src.index) {
    if (src.index.count !== src.features.length) throw invalidArgument('overlays', `${src.source}: the index holds ${src.index.count} features but ${src.features.length} were given`);
    return src.index;
  }
  let idx = built.get(src.features);
  if (!idx) {
    idx = PolygonIndex.build(src.features.map((f) => f.geometry), { shared: false });
    built.set(src.features, idx);
  }
  return idx;
}

/** Every flood overlay feature (flood controls and evidence triggers, not other overlays) covering (lon, lat). */
export function floodOverlayHits(lon: number, lat: number, sources: readonly FloodOverlaySource[], options: FloodOverlayOptions = {}): FloodOverlayHit[] {
  const hits: FloodOverlayHit[] = [];
  let clipBox: [number, number, number, number] | null = null;
  for (const src of sources) {
    const idx = indexOf(src);
    for (const id of idx.containing(lon, lat)) {
      const f = src.features[id];
      const props = (f.properties ?? {}) as Record<string, unknown>;
      const cls = classifyFloodOverlay(props);
      if (!isFloodOverlay(cls.kind)) continue;
      const hit: FloodOverlayHit = {
        source: src.source,
        state: src.state,
        kind: cls.kind as FloodOverlayHit['kind'],
        code: cls.code,
        label: cls.label,
        verified: src.verified,
        response_path: src.response_path,
        properties: props,
      };
      if (options.includeGeometry) {
        if (!src.redistribution) hit.geometry_omitted = 'licence_does_not_allow_redistribution';
        else {
          clipBox ??= windowLonLatBBox(createWindow(lon, lat, options.clipHalfWidth ?? 1500));
          const clipped = bboxClip(f as Feature<Polygon | MultiPolygon>, clipBox).geometry as Polygon | MultiPolygon;
          const empty = clipped.type === 'Polygon' ? clipped.coordinates.length === 0 : clipped.coordinates.every((p) => p.length === 0);
          if (empty) hit.geometry_omitted = 'outside_window';
          else hit.geometry = clipped;
        }
      }
      hits.push(hit);
    }
  }
  return hits;
}

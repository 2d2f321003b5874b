/**
 * The tile routes: `GET /api/v1/tiles/{layer}/{z}/{x}/{y}.mvt|png`, the TileJSON of each layer and the map's
 * click summary (`/map/point`). The tiles come from the engine (`Engine.tile`, `Engine.terrainTile`); keyless on
 * the synthetic sample world, with the geometry licence on real data.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { isEngineError } from '../../engine/index.js';
import type { PropertyService } from '../../engine/entry/property.js';
import { chain, type MaybePromise } from '../maybe-promise.js';
import type { ApiKeyRecord } from '../store/store.js';
import { ApiError } from '../http/api-error.js';
import { JSON_TYPE, type ApiContext, type ApiRequest, type ApiResponse, type TileService } from './api-types.js';
import { acceptsGzip } from './payload-body.js';
import { decodeQuery, rejectUnknown } from './query.js';
import { mapPointDoc, tileDoc, tileJsonDoc } from './page-docs.js';
import { get, type RouteCall, type RouteValue } from './route-value.js';

/**
 * A tile's ETag and gzipped bytes, kept beside the tile while the engine's cache holds it: the engine answers a
 * cached tile with the same bytes object, so a cached tile is hashed and compressed once, not per request.
 */
const tileEncodings = new WeakMap<Uint8Array, { etag: string; gzip?: Buffer }>();

/** The tile routes of one API. */
export class TileRoutes {
  constructor(private readonly ctx: ApiContext) {}

  /** The tiles service of the engine, or null when the service makes none. */
  tiles(): TileService | null {
    const t = this.ctx.service as PropertyService & Partial<TileService>;
    return typeof t.tile === 'function' && typeof t.tileLayers === 'function' ? (t as unknown as TileService) : null;
  }

  /** Tiles of a synthetic dataset (the sample world) need no key; real data needs the geometry licence. */
  keyless(): boolean {
    return (this.ctx.service as { store?: { catalogue?: { synthetic?: boolean } } }).store?.catalogue?.synthetic === true;
  }

  /**
   * `GET /api/v1/tiles/{layer}/{z}/{x}/{y}.mvt`: the MVT (gzipped when accepted) with an ETag of its bytes and
   * a day's Cache-Control; 304 for a matching If-None-Match; 204 with no body for an empty tile. Unknown layer
   * 404; a tile outside the grid or the layer's zooms 422 `invalid_tile`.
   */
  tileRequest(req: ApiRequest, layer: string, zs: string, xs: string, ys: string, ext: 'mvt' | 'png', authenticate: () => MaybePromise<ApiKeyRecord>, onKey: (id: string) => void): MaybePromise<ApiResponse> {
    const tiles = this.tiles();
    if (!tiles) throw new ApiError('not_found', 'this server makes no tiles');
    const terrain = layer === 'terrain' && typeof tiles.terrainTile === 'function' && !!tiles.terrainLayer?.();
    // The terrain layer is PNG, every other layer MVT: a tile asked for in the other format has no layer.
    if (terrain !== (ext === 'png')) {
      throw new ApiError('unknown_layer', `no ${ext === 'png' ? 'PNG' : 'vector'} tile layer ${JSON.stringify(layer.slice(0, 40))}${layer === 'terrain' && ext === 'mvt' ? ' (terrain tiles are PNG: /api/v1/tiles/terrain/{z}/{x}/{y}.png)' : ''}`, { layers: tiles.tileLayers().map((l) => l.id) });
    }
    const type = terrain ? 'image/png' : 'application/vnd.mapbox-vector-tile';
    const make = terrain ? (z: number, x: number, y: number) => tiles.terrainTile!(z, x, y) : (z: number, x: number, y: number) => tiles.tile(layer, z, x, y);
    const int = (v: string, name: string) => {
      if (/^-\d+$/.test(v)) throw new ApiError('invalid_tile', `${name} is out of range: tile ${name === 'z' ? 'zooms' : 'columns and rows'} start at 0, got ${v.slice(0, 20)}`, { parameter: name });
      if (!/^\d{1,10}$/.test(v)) throw new ApiError('invalid_tile', `${name} must be a whole number${/^\d+$/.test(v) ? ' of at most 10 digits' : ''}, got ${JSON.stringify(v.slice(0, 20))}`, { parameter: name });
      return Number(v);
    };
    const z = int(zs, 'z'), x = int(xs, 'x'), y = int(ys, 'y');
    const answer = (): Promise<ApiResponse> =>
      make(z, x, y).then(
        ({ bytes }) => {
          const headers: Record<string, string> = { 'Cache-Control': 'public, max-age=86400', 'Access-Control-Allow-Origin': '*' };
          if (!bytes) return { status: 204, contentType: type, headers, body: '' };
          const done = tileEncodings.get(bytes) ?? { etag: `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"` };
          tileEncodings.set(bytes, done);
          const etag = done.etag;
          headers.ETag = etag;
          if (!terrain) headers.Vary = 'Accept-Encoding';
          // RFC 9110 13.1.2: `*` matches any current representation; else a listed tag (weakly compared).
          if (req.ifNoneMatch && (req.ifNoneMatch.trim() === '*' || req.ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`))) return { status: 304, contentType: type, headers, body: '' };
          const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          // A PNG is compressed already; an MVT is gzipped when the client takes it.
          if (!terrain && acceptsGzip(req.acceptEncoding)) {
            headers['Content-Encoding'] = 'gzip';
            done.gzip ??= gzipSync(buf, { level: 6 });
            return { status: 200, contentType: type, headers, body: done.gzip };
          }
          return { status: 200, contentType: type, headers, body: buf };
        },
        (err) => {
          if (isEngineError(err) && err.code === 'NOT_FOUND') throw new ApiError('unknown_layer', err.message, { layers: tiles.tileLayers().map((l) => l.id) });
          if (isEngineError(err) && err.code === 'INVALID_ARGUMENT') throw new ApiError('invalid_tile', err.message, { parameter: err.details?.parameter ?? 'tile' });
          throw err;
        },
      );
    if (this.keyless()) return answer();
    return chain(authenticate(), (key) => {
      onKey(key.id);
      if (!key.geometry) throw new ApiError('geometry_not_licensed', 'tiles carry geometry: they need a key with the geometry licence (`propintel keys create --geometry`)');
      return answer();
    });
  }

  /**
   * `GET /map/point?lat=&lng=`: the map's click summary on the synthetic sample world (404 on real data, where
   * the keyed property endpoint answers): address, scores with levels, hazards found, DAs near.
   */
  async mapPoint(req: ApiRequest): Promise<ApiResponse> {
    if (!this.keyless()) throw new ApiError('not_found', 'the map\'s point summary is for the sample world only; use /api/v1/property with a key');
    const p = decodeQuery(req.query);
    rejectUnknown(p, ['lat', 'lng'], req.path);
    const lat = Number(p.get('lat')), lng = Number(p.get('lng'));
    if (!p.has('lat') || !p.has('lng') || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) throw new ApiError('invalid_parameter', 'lat and lng must be WGS84 degrees', { parameter: 'lat' });
    const result = await this.ctx.service.property({ lat, lng }, {});
    const d = result.payload as Record<string, any>;
    const scores = Object.fromEntries(Object.entries((d.scores ?? {}) as Record<string, { score: number | null; level: string }>).map(([k, v]) => [k, v.score === null || v.score === undefined ? v.level : `${v.score} (${v.level})`]));
    const hazards = Object.fromEntries(Object.entries((d.hazards ?? {}) as Record<string, unknown[]>).map(([k, v]) => [k, Array.isArray(v) ? (v.length ? v.map((h: any) => h.label ?? h.code ?? h.kind ?? 'mapped').join('; ') : 'none mapped') : v]));
    const das = d.development_applications ?? {};
    const summary = { address: d.resolved?.address?.text ?? d.resolved?.address ?? null, ...scores, ...Object.fromEntries(Object.entries(hazards).map(([k, v]) => [`hazard: ${k}`, v])), 'DAs on the parcel': (das.on_parcel ?? []).length, 'DAs within 300 m': (das.nearby_300m ?? []).length };
    return { status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify(summary) };
  }

  /** `GET /api/v1/tiles/{layer}.json`: TileJSON 3.0.0 of one layer (the terrain layer's a raster-dem one). */
  tileJson(req: ApiRequest, layer: string): ApiResponse {
    const tiles = this.tiles();
    if (!tiles) throw new ApiError('not_found', 'this server makes no tiles');
    const host = /^[A-Za-z0-9.:[\]-]{1,255}$/.test(req.host ?? '') ? req.host : 'localhost';
    const terrain = layer === 'terrain' ? tiles.terrainLayer?.() : null;
    if (terrain) {
      const doc = {
        tilejson: '3.0.0',
        name: 'propintel terrain',
        description: terrain.description,
        version: '1.0.0',
        scheme: 'xyz',
        tiles: [`http://${host}/api/v1/tiles/terrain/{z}/{x}/{y}.png`],
        minzoom: terrain.minzoom,
        maxzoom: terrain.maxzoom,
        bounds: tiles.tileBounds(),
        attribution: tiles.tileAttribution('terrain'),
        encoding: terrain.encoding,
        tileSize: terrain.tileSize,
      };
      return { status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' }, body: JSON.stringify(doc) };
    }
    const spec = tiles.tileLayers().find((l) => l.id === layer);
    if (!spec) throw new ApiError('unknown_layer', `no tile layer ${JSON.stringify(layer.slice(0, 40))}`, { layers: tiles.tileLayers().map((l) => l.id) });
    const doc = {
      tilejson: '3.0.0',
      name: `propintel ${spec.id}`,
      description: spec.description,
      version: '1.0.0',
      scheme: 'xyz',
      tiles: [`http://${host}/api/v1/tiles/${spec.id}/{z}/{x}/{y}.mvt`],
      minzoom: spec.minzoom,
      maxzoom: spec.maxzoom,
      bounds: tiles.tileBounds(),
      attribution: tiles.tileAttribution(spec.id),
      vector_layers: [{ id: spec.id, description: spec.description, minzoom: spec.minzoom, maxzoom: spec.maxzoom, fields: spec.fields }],
    };
    return { status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' }, body: JSON.stringify(doc) };
  }
}

/** A tile of any layer as PNG: answered by the vector tiles' route (a clear error for a layer other than terrain), not documented. */
const ANY_PNG_TILE = '/api/v1/tiles/{layer}/{z}/{x}/{y}.png';

type TileCall = RouteCall<{ tiles: TileRoutes }>;

/** A tile request: no query parameters; the key is checked when the data needs one. */
function tile(c: TileCall): MaybePromise<ApiResponse> {
  rejectUnknown(decodeQuery(c.req.query), [], c.req.path);
  return c.modules.tiles.tileRequest(c.req, c.params.layer ?? 'terrain', c.params.z, c.params.x, c.params.y, c.template.endsWith('.png') ? 'png' : 'mvt', c.authenticate, c.onKey);
}

/** The vector tiles, the terrain tiles and the TileJSON of each layer. */
export const TILE_ROUTES: readonly RouteValue<{ tiles: TileRoutes }>[] = [
  {
    path: '/api/v1/tiles/{layer}/{z}/{x}/{y}.mvt',
    tag: 'Tiles',
    summary: 'A Mapbox Vector Tile of one layer',
    description:
      'MVT 2.1 (extent 4096, buffer 64) of `layer`: das, zones, overlays, flood, bushfire, schools, parcels (z >= 16), roads, water, contours (made on request from the DEM with the contours engine, `ele` and `level` as maplibre-contour names them; z >= 12), noise (the modelled Lden as nested polygons by 5 dB level, z 14-16), or hand (height above nearest drainage from the flood score\'s HAND tiles, nested polygons at most 1, 3, 5, 10 and 20 m, z 14-17). Gzipped when accepted; `ETag` and `Cache-Control`; 304 for a matching If-None-Match; 204 (no body) for an empty tile. Unknown layer 404; z outside the layer\'s zooms or x/y outside the grid 400. Keyed with the geometry licence, except on the synthetic sample world, where no key is needed.',
    operations: [get('lazy', tileDoc('mvt'), tile)],
    aliases: [ANY_PNG_TILE],
  },
  {
    path: '/api/v1/tiles/terrain/{z}/{x}/{y}.png',
    tag: 'Tiles',
    summary: 'A terrain tile (Terrarium PNG) for hillshade and 3D terrain',
    description:
      'The DEMs of the catalogue as a raster-dem tile: 256 x 256 pixels of Web Mercator, each the DEM\'s bilinear height at the pixel\'s centre, Terrarium-encoded (height = R * 256 + G + B / 256 - 32768 metres; the `encoding: "terrarium"` of a MapLibre raster-dem source, which draws hillshade, 3D terrain, and with maplibre-contour contours from it). Zooms 8 to 15 (clients overzoom past 15); every DEM whose extent reaches the tile is sampled. Opaque RGB: where no DEM has a value, the nearest DEM height easing to 0 m (sea level) within 2 km of the data, 0 m beyond, so 3D terrain and hillshade show no cliff. `ETag` and `Cache-Control`; 304 for a matching If-None-Match. Keyed as the vector tiles are.',
    operations: [get('lazy', tileDoc('terrain'), tile)],
  },
  {
    path: '/api/v1/tiles/{layer}.json',
    tag: 'Tiles',
    summary: 'TileJSON 3.0.0 of one tile layer',
    description: 'The layer\'s TileJSON: `tiles` (absolute URL), `vector_layers` with fields, bounds, min and max zoom, and the attribution of its sources.',
    operations: [
      get('none', tileJsonDoc, (c) => {
        rejectUnknown(decodeQuery(c.req.query), [], c.req.path);
        return c.modules.tiles.tileJson(c.req, c.params.layer);
      }),
    ],
  },
];

/** The map page's click summary. */
export const MAP_POINT_ROUTES: readonly RouteValue<{ tiles: TileRoutes }>[] = [
  {
    path: '/map/point',
    tag: 'Tiles',
    summary: 'The map\'s click summary of a point (sample world only)',
    description: 'For the map page on the synthetic sample world, without a key: the address the point resolves to, the nine scores with their levels, the hazards found (flood, bushfire, contamination) and the DAs on the parcel and within 300 m, from the property lookup of `lat` and `lng`. On real data it is 404: use /api/v1/property with a key.',
    operations: [get('none', mapPointDoc, (c) => c.modules.tiles.mapPoint(c.req))],
  },
];

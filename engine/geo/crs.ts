/**
 * The coordinate reference systems the engine understands, as proj4 definitions keyed by `EPSG:<code>`.
 *
 * Datums: GDA94, GDA2020 and WGS84 are treated as coincident (no Helmert shift), as proj4js's own EPSG
 * definitions do and as most Australian open-data extracts are published. The GDA94 -> GDA2020 shift is
 * 1.5-1.8 m (ICSM GDA2020 Technical Manual, section 3); every layer the engine reads is coarser than that
 * or already in GDA2020, so mixing the two moves features by less than their stated accuracy.
 */
import { createRequire } from 'node:module';
import type proj4Type from 'proj4';
import { EngineError } from '../errors.js';

// proj4 ships CommonJS only. Loaded with require rather than `import`, Node skips scanning its 140 kB bundle
// for named exports (cjs-module-lexer): about 14 ms off every process and worker thread that starts.
const proj4 = createRequire(import.meta.url)('proj4') as typeof proj4Type;

const GRS80_UTM = (zone: number) => `+proj=utm +zone=${zone} +south +ellps=GRS80 +units=m +no_defs`;
const WGS84_UTM = (zone: number, south: boolean) =>
  `+proj=utm +zone=${zone}${south ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`;

/** Zones of the Map Grid of Australia (MGA): 6-degree UTM zones 46-59 on the GRS80 ellipsoid. */
export const MGA_ZONES = [46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59] as const;

const DEFINITIONS: Record<string, string> = {
  'EPSG:4326': '+proj=longlat +datum=WGS84 +no_defs',
  'EPSG:4283': '+proj=longlat +ellps=GRS80 +no_defs', // GDA94 geographic
  'EPSG:7844': '+proj=longlat +ellps=GRS80 +no_defs', // GDA2020 geographic
  'EPSG:4939': '+proj=longlat +ellps=GRS80 +no_defs', // GDA94 geographic 3D (horizontal part)
  'EPSG:3857':
    '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs',
  // Australian Albers (GDA94 and GDA2020): ABS and Geoscience Australia national grids.
  'EPSG:3577': '+proj=aea +lat_0=0 +lon_0=132 +lat_1=-18 +lat_2=-36 +x_0=0 +y_0=0 +ellps=GRS80 +units=m +no_defs',
  'EPSG:9473': '+proj=aea +lat_0=0 +lon_0=132 +lat_1=-18 +lat_2=-36 +x_0=0 +y_0=0 +ellps=GRS80 +units=m +no_defs',
  // VicGrid94 and VicGrid2020 (Land Victoria): LCC, standard parallels 36S and 38S, origin 37S 145E,
  // false origin 2,500,000 m west and south.
  'EPSG:3111':
    '+proj=lcc +lat_0=-37 +lon_0=145 +lat_1=-36 +lat_2=-38 +x_0=2500000 +y_0=2500000 +ellps=GRS80 +units=m +no_defs',
  'EPSG:7899':
    '+proj=lcc +lat_0=-37 +lon_0=145 +lat_1=-36 +lat_2=-38 +x_0=2500000 +y_0=2500000 +ellps=GRS80 +units=m +no_defs',
};
for (const zone of MGA_ZONES) {
  DEFINITIONS[`EPSG:${28300 + zone}`] = GRS80_UTM(zone); // GDA94 / MGA zone N (28348-28358 are EPSG-registered)
  DEFINITIONS[`EPSG:${7800 + zone}`] = GRS80_UTM(zone); // GDA2020 / MGA zone N (7846-7859)
}
for (let zone = 46; zone <= 59; zone++) {
  DEFINITIONS[`EPSG:${32700 + zone}`] = WGS84_UTM(zone, true); // WGS 84 / UTM zone N south
  DEFINITIONS[`EPSG:${32600 + zone}`] = WGS84_UTM(zone, false); // WGS 84 / UTM zone N north
}
for (const [code, def] of Object.entries(DEFINITIONS)) proj4.defs(code, def);

const GEOGRAPHIC = new Set(['EPSG:4326', 'EPSG:4283', 'EPSG:7844', 'EPSG:4939']);

/** The CRS every engine output uses: WGS84 lon/lat, as RFC 7946 GeoJSON requires. */
export const LONLAT = 'EPSG:4326';

/** The CRS codes this build understands, sorted. */
export function supportedCrs(): string[] {
  return Object.keys(DEFINITIONS).sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
}

/**
 * Normalises the usual spellings of a CRS to `EPSG:<code>`: `7855`, `"EPSG:7855"`, `"epsg:7855"`,
 * `"urn:ogc:def:crs:EPSG::7855"`, `"urn:ogc:def:crs:OGC:1.3:CRS84"` (-> EPSG:4326). Returns null when the
 * input is not a recognisable CRS identifier at all (it may still be unsupported: see {@link isSupportedCrs}).
 */
export function normaliseCrs(input: string | number): string | null {
  if (typeof input === 'number') return Number.isInteger(input) && input > 0 ? `EPSG:${input}` : null;
  const s = input.trim();
  if (/^(urn:ogc:def:crs:OGC:(1\.3)?:CRS84|CRS84|OGC:CRS84)$/i.test(s)) return LONLAT;
  const m = /^(?:urn:ogc:def:crs:EPSG:[\d.]*:|EPSG:+|https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/)?(\d+)$/i.exec(s);
  return m ? `EPSG:${Number(m[1])}` : null;
}

/** True when the engine has a definition for the CRS. */
export function isSupportedCrs(crs: string): boolean {
  return crs in DEFINITIONS;
}

/** True for geographic (lon/lat degree) CRSs. */
export function isGeographic(crs: string): boolean {
  return GEOGRAPHIC.has(crs);
}

/**
 * Normalises and checks a CRS, throwing `UNSUPPORTED` naming `context` (a file or layer) when the engine has
 * no definition for it.
 */
export function requireCrs(input: string | number, context: string): string {
  const crs = normaliseCrs(input);
  if (!crs) throw new EngineError('UNSUPPORTED', `${context}: unrecognised CRS identifier ${JSON.stringify(input)}`, { file: context, crs: input });
  if (!isSupportedCrs(crs)) {
    throw new EngineError(
      'UNSUPPORTED',
      `${context}: unsupported CRS ${crs}; supported are lon/lat (EPSG:4326, 4283, 7844), MGA zones (EPSG:283xx, 78xx), UTM (EPSG:326xx/327xx), Albers (EPSG:3577, 9473), VicGrid (EPSG:3111, 7899) and EPSG:3857`,
      { file: context, crs },
    );
  }
  return crs;
}

/** The MGA zone whose 6-degree band contains `lon` (zone 55 spans 144-150 E). */
export function mgaZoneForLon(lon: number): number {
  const zone = Math.floor((lon + 180) / 6) + 1;
  return Math.min(59, Math.max(46, zone));
}

/** The GDA2020 / MGA CRS (`EPSG:78zz`) for the zone containing `lon`. */
export function mgaCrsForLon(lon: number): string {
  return `EPSG:${7800 + mgaZoneForLon(lon)}`;
}

/** A point transformer between two CRSs. Both directions are cached per pair. */
export interface Transformer {
  readonly from: string;
  readonly to: string;
  /** Transforms one coordinate; returns a new [x, y]. */
  forward(x: number, y: number): [number, number];
  /** Transforms in place an interleaved [x0, y0, x1, y1, ...] array. */
  forwardArray(xy: Float64Array | number[]): void;
}

const IDENTITY = (from: string, to: string): Transformer => ({
  from,
  to,
  forward: (x, y) => [x, y],
  forwardArray: () => {},
});

const cache = new Map<string, Transformer>();

/** A cached transformer from one supported CRS to another. Throws `UNSUPPORTED` for an unknown CRS. */
export function getTransformer(from: string, to: string): Transformer {
  const key = `${from}>${to}`;
  let t = cache.get(key);
  if (t) return t;
  const a = requireCrs(from, 'transform source');
  const b = requireCrs(to, 'transform target');
  if (a === b || DEFINITIONS[a] === DEFINITIONS[b] || (isGeographic(a) && isGeographic(b))) {
    t = IDENTITY(a, b);
  } else {
    const conv = proj4(DEFINITIONS[a], DEFINITIONS[b]);
    const p: [number, number] = [0, 0];
    t = {
      from: a,
      to: b,
      forward(x, y) {
        p[0] = x;
        p[1] = y;
        const r = conv.forward(p) as number[];
        return [r[0], r[1]];
      },
      forwardArray(xy) {
        for (let i = 0; i < xy.length; i += 2) {
          p[0] = xy[i];
          p[1] = xy[i + 1];
          const r = conv.forward(p) as number[];
          xy[i] = r[0];
          xy[i + 1] = r[1];
        }
      },
    };
  }
  cache.set(key, t);
  return t;
}

/**
 * Transforms a box between CRSs by sampling `densify` points along each edge (a projected box's edges are
 * curves in lon/lat and vice versa), returning the box of the transformed samples.
 */
export function transformBBox(bbox: readonly [number, number, number, number], from: string, to: string, densify = 21): [number, number, number, number] {
  const t = getTransformer(from, to);
  const [x0, y0, x1, y1] = bbox;
  const out: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (x: number, y: number) => {
    const [a, b] = t.forward(x, y);
    if (a < out[0]) out[0] = a;
    if (b < out[1]) out[1] = b;
    if (a > out[2]) out[2] = a;
    if (b > out[3]) out[3] = b;
  };
  for (let i = 0; i <= densify; i++) {
    const f = i / densify;
    add(x0 + (x1 - x0) * f, y0);
    add(x0 + (x1 - x0) * f, y1);
    add(x0, y0 + (y1 - y0) * f);
    add(x1, y0 + (y1 - y0) * f);
  }
  return out;
}

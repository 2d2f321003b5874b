/**
 * A minimal Mapbox Vector Tile 2.1 encoder for tests: the protobuf schema of the specification
 * (vector_tile.proto) written with pbf, so the reader is tested against bytes built from the spec, not from
 * the library that decodes them.
 */
import { PbfWriter } from 'pbf';

/** A tile-space geometry: 1 point, 2 line, 3 polygon; rings of integer tile coordinates. */
export type Geom = { type: 1 | 2 | 3; rings: [number, number][][] };
export interface TestFeature { id?: number; props: Record<string, string | number>; geom: Geom }

const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const command = (id: number, count: number) => (id & 7) | (count << 3);

/** Geometry commands (spec 4.3): MoveTo(1), LineTo(2), ClosePath(7), parameters zigzag-encoded deltas. */
function encodeGeometry(g: Geom): number[] {
  const out: number[] = [];
  let cx = 0, cy = 0;
  for (const ring of g.rings) {
    const pts = g.type === 3 ? ring.slice(0, -1) : ring; // polygons: the closing vertex is implied by ClosePath
    out.push(command(1, 1), zigzag(pts[0][0] - cx), zigzag(pts[0][1] - cy));
    [cx, cy] = pts[0];
    if (pts.length > 1) {
      out.push(command(2, pts.length - 1));
      for (const [x, y] of pts.slice(1)) {
        out.push(zigzag(x - cx), zigzag(y - cy));
        cx = x;
        cy = y;
      }
    }
    if (g.type === 3) out.push(command(7, 1));
  }
  return out;
}

/** One tile with one layer (Tile.layers = 3; Layer: name 1, features 2, keys 3, values 4, extent 5, version 15). */
export function encodeTile(layer: string, features: TestFeature[], extent = 4096): Uint8Array {
  const keys: string[] = [];
  const values: (string | number)[] = [];
  const pbf = new PbfWriter();
  pbf.writeMessage(3, () => {
    pbf.writeVarintField(15, 2);
    pbf.writeStringField(1, layer);
    for (const f of features) {
      const tags: number[] = [];
      for (const [k, v] of Object.entries(f.props)) {
        if (!keys.includes(k)) keys.push(k);
        if (!values.includes(v)) values.push(v);
        tags.push(keys.indexOf(k), values.indexOf(v));
      }
      pbf.writeMessage(2, () => {
        if (f.id !== undefined) pbf.writeVarintField(1, f.id);
        pbf.writePackedVarint(2, tags);
        pbf.writeVarintField(3, f.geom.type);
        pbf.writePackedVarint(4, encodeGeometry(f.geom));
      }, null);
    }
    for (const k of keys) pbf.writeStringField(3, k);
    for (const v of values) pbf.writeMessage(4, () => (typeof v === 'string' ? pbf.writeStringField(1, v) : pbf.writeDoubleField(3, v)), null);
    pbf.writeVarintField(5, extent);
  }, null);
  return pbf.finish();
}

/** The z/x/y tile holding (lon, lat) (the slippy-map formulas). */
export function tileAt(lon: number, lat: number, z: number): { z: number; x: number; y: number } {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  return { z, x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n) };
}

/** Web Mercator tile maths: lon/lat of tile-space point (x + u, y + v) at zoom z, u and v in [0, 1]. */
export function tileToLonLat(z: number, x: number, y: number, u: number, v: number): [number, number] {
  const n = 2 ** z;
  const lon = ((x + u) / n) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + v)) / n))) * 180) / Math.PI;
  return [lon, lat];
}

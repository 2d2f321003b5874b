// Tiles to the standard (issue 36): every layer, swept over a grid of tiles at every zoom it serves (z10-z18)
// around sandbox addresses in two states, decoded with @mapbox/vector-tile: no coordinate leaves
// [-buffer, extent + buffer] (MVT 2.1; MapLibre warns "Geometry exceeds allowed extent" past it), a z18 tile
// carries only what lies near it, and every attribute a tile carries is one its TileJSON fields declare, with
// the declared type.
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { BUFFER, EXTENT } from '../../../engine/tiles/vector-tiles.js';
import { tileAt, type TileId } from '../../../engine/tiles/tile-math.js';
import { useSampleEngine } from '../../helpers/sample-engine.js';

const world = useSampleEngine(2);

/** The 3 x 3 tiles around the tile of lon/lat at zoom z. */
function around(lon: number, lat: number, z: number): TileId[] {
  const c = tileAt(lon, lat, z);
  const out: TileId[] = [];
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) out.push({ z, x: c.x + dx, y: c.y + dy });
  return out;
}

/** Layers computed from rasters on the pool (one tile per zoom is enough to cover their code). */
const COMPUTED = new Set(['contours', 'noise', 'hand']);

describe('every tile layer, every zoom', () => {
  it('keeps every coordinate within the tile and its buffer, and declares every attribute it carries', async () => {
    const places = ['VIC', 'NSW'].map((st) => world.sandbox.find((s) => s.state === st)!);
    expect(new Set(places.map((p) => p.state)).size).toBe(2);
    const layers = world.engine.tileLayers();
    const outside: string[] = [];
    const undeclared: string[] = [];
    const drawn = new Map<string, number>();
    for (const layer of layers) {
      for (let z = Math.max(10, layer.minzoom); z <= Math.min(18, layer.maxzoom); z++) {
        for (const p of places) {
          const tiles = COMPUTED.has(layer.id) ? [tileAt(p.lng, p.lat, z)] : around(p.lng, p.lat, z);
          for (const t of tiles) {
            const { bytes } = await world.engine.tile(layer.id, t.z, t.x, t.y);
            if (!bytes) continue;
            const l = new VectorTile(new PbfReader(bytes)).layers[layer.id];
            expect(l.extent, layer.id).toBe(EXTENT);
            for (let i = 0; i < l.length; i++) {
              const f = l.feature(i);
              drawn.set(layer.id, (drawn.get(layer.id) ?? 0) + 1);
              for (const ring of f.loadGeometry()) {
                for (const { x, y } of ring) {
                  if (x < -BUFFER || x > EXTENT + BUFFER || y < -BUFFER || y > EXTENT + BUFFER) {
                    outside.push(`${layer.id} ${t.z}/${t.x}/${t.y}: (${x}, ${y})`);
                    break;
                  }
                }
              }
              for (const [name, value] of Object.entries(f.properties)) {
                const declared = layer.fields[name];
                const type = typeof value === 'number' ? 'Number' : typeof value === 'boolean' ? 'Boolean' : 'String';
                if (!declared?.split('|').includes(type)) undeclared.push(`${layer.id}.${name}: ${type}, declared ${declared ?? 'not at all'}`);
              }
            }
          }
        }
      }
    }
    expect(outside.slice(0, 10)).toEqual([]);
    expect([...new Set(undeclared)].slice(0, 20)).toEqual([]);
    // The sweep drew something of every layer (an empty sweep would prove nothing).
    expect(layers.filter((l) => !drawn.get(l.id)).map((l) => l.id)).toEqual([]);
  }, 180_000);
});

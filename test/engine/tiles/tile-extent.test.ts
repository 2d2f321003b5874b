// Tiles to the standard (issue 36): every layer, swept over a grid of tiles at every zoom it serves (z10-z18)
// around sandbox addresses in two states, decoded with @mapbox/vector-tile: no coordinate leaves
// [-buffer, extent + buffer] (MVT 2.1; MapLibre warns "Geometry exceeds allowed extent" past it), a z18 tile
// carries only what lies near it, and every attribute a tile carries is one its TileJSON fields declare, with
// the declared type. Issue 47: every polygon ring has at least three distinct points and an area, each
// polygon starts with an exterior (positive area, MVT 2.1 4.3.4.4), every line two distinct points, and GDAL
// (its MVT reader clips each geometry with GEOS, which throws a TopologyException on a collapsed ring) reads
// the whole sweep, written as one MBTiles, without an error.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import Database from 'better-sqlite3';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { BUFFER, EXTENT } from '../../../engine/tiles/vector-tiles.js';
import { tileAt, type TileId } from '../../../engine/tiles/tile-math.js';
import { useSampleEngine } from '../../helpers/sample-engine.js';
import { missingTool } from '../../helpers/skip.js';

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
    const degenerate: string[] = [];
    const swept = new Map<string, Uint8Array[]>();
    let polygonRings = 0;
    for (const layer of layers) {
      for (let z = Math.max(10, layer.minzoom); z <= Math.min(18, layer.maxzoom); z++) {
        for (const p of places) {
          const tiles = COMPUTED.has(layer.id) ? [tileAt(p.lng, p.lat, z)] : around(p.lng, p.lat, z);
          for (const t of tiles) {
            const { bytes } = await world.engine.tile(layer.id, t.z, t.x, t.y);
            if (!bytes) continue;
            const l = new VectorTile(new PbfReader(bytes)).layers[layer.id];
            expect(l.extent, layer.id).toBe(EXTENT);
            const key = `${t.z}/${t.x}/${t.y}`;
            if (!swept.has(key)) swept.set(key, []);
            swept.get(key)!.push(bytes);
            for (let i = 0; i < l.length; i++) {
              const f = l.feature(i);
              drawn.set(layer.id, (drawn.get(layer.id) ?? 0) + 1);
              const where = `${layer.id} ${t.z}/${t.x}/${t.y} feature ${i}`;
              const parts = f.loadGeometry();
              if (!parts.length) degenerate.push(`${where}: no geometry`);
              if (f.type === 3) {
                parts.forEach((ring, k) => {
                  const distinct = new Set(ring.map((p) => `${p.x},${p.y}`)).size;
                  const area = ring.reduce((a, p, j) => a + ring[(j + ring.length - 1) % ring.length].x * p.y - p.x * ring[(j + ring.length - 1) % ring.length].y, 0);
                  if (distinct < 3 || area === 0) degenerate.push(`${where} ring ${k}: ${distinct} distinct points, area ${area / 2}: ${JSON.stringify(ring.map((p) => [p.x, p.y]))}`);
                  if (k === 0 && area < 0) degenerate.push(`${where}: its first ring is a hole`);
                });
                polygonRings += parts.length;
              } else if (f.type === 2) {
                for (const line of parts) if (new Set(line.map((p) => `${p.x},${p.y}`)).size < 2) degenerate.push(`${where}: a line of one point`);
              }
              for (const ring of parts) {
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
    expect(degenerate.slice(0, 10)).toEqual([]);
    expect(polygonRings).toBeGreaterThan(1000);
    gdalReads(swept, layers.map((l) => l.id));
    expect([...new Set(undeclared)].slice(0, 20)).toEqual([]);
    // The sweep drew something of every layer (an empty sweep would prove nothing).
    expect(layers.filter((l) => !drawn.get(l.id)).map((l) => l.id)).toEqual([]);
  }, 180_000);
});

/**
 * GDAL reads every swept tile (the layers of one z/x/y concatenated: protobuf merges repeated fields) from an
 * MBTiles, a zoom at a time, with no error; skipped, saying why, without ogrinfo.
 */
function gdalReads(tiles: Map<string, Uint8Array[]>, layers: string[]): void {
  const missing = missingTool('ogrinfo', ['--version'], 'gdal-bin');
  if (missing) {
    console.warn(`GDAL check skipped: ${missing}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'propintel-sweep-'));
  try {
    const file = join(dir, 'sweep.mbtiles');
    const db = new Database(file);
    db.exec('CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)');
    const meta = db.prepare('INSERT INTO metadata VALUES (?, ?)');
    for (const [k, v] of Object.entries({ name: 'sweep', format: 'pbf', minzoom: '10', maxzoom: '18', bounds: '112,-44,154,-10', json: JSON.stringify({ vector_layers: layers.map((id) => ({ id, fields: {} })) }) })) meta.run(k, v);
    const put = db.prepare('INSERT INTO tiles VALUES (?, ?, ?, ?)');
    const zooms = new Set<number>();
    for (const [key, parts] of tiles) {
      const [z, x, y] = key.split('/').map(Number);
      zooms.add(z);
      put.run(z, x, 2 ** z - 1 - y, gzipSync(Buffer.concat(parts)));
    }
    db.close();
    let features = 0;
    for (const z of [...zooms].sort((a, b) => a - b)) {
      const run = spawnSync('ogrinfo', ['-ro', '-al', '-q', '-oo', `ZOOM_LEVEL=${z}`, file], { encoding: 'utf8', maxBuffer: 1 << 30 });
      expect(run.status, `ogrinfo z${z}: ${run.stderr.slice(0, 500)}`).toBe(0);
      const errors = `${run.stderr}\n${run.stdout}`.split('\n').filter((line) => /ERROR|TopologyException|Warning/i.test(line));
      expect(errors.slice(0, 5), `GDAL reading z${z}`).toEqual([]);
      features += (run.stdout.match(/^OGRFeature\(/gm) ?? []).length;
    }
    expect(features, 'features GDAL read').toBeGreaterThan(1000);
    expect(execFileSync('ogrinfo', ['-ro', '-so', file], { encoding: 'utf8' })).toMatch(/zones/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}


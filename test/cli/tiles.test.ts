// `propintel tiles export` (issue 20): an MBTiles file of two layers over a small box, read back with SQLite:
// the metadata an MBTiles reader needs, every row the engine's own tiles (both layers, rows in TMS order),
// empty tiles left out; GDAL's MBTiles driver reads it where GDAL is installed; bad flags are named.
import { VectorTile } from '@mapbox/vector-tile';
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { tilesOf } from '../../engine/tiles/mbtiles.js';
import { tileBounds, tileAt } from '../../engine/tiles/tile-math.js';
import { useSampleEngine } from '../helpers/sample-engine.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/tmp.js';

const dir = tempDir('propintel-tiles-cli-');
const world = useSampleEngine(2);

describe('propintel tiles export', () => {
  it('writes an MBTiles file whose rows are the engine\'s tiles of both layers', async () => {
    const s = world.sandbox.find((x) => x.state === 'NSW')!;
    const t = tileAt(s.lng, s.lat, 14);
    const [w, so, e, n] = tileBounds(t);
    const bbox = [w + 0.001, so + 0.001, e - 0.001, n - 0.001];
    const out = join(dir, 'nsw.mbtiles');
    const r = await runCli(['tiles', 'export', '--layer', 'das,contours', '--bbox', bbox.join(','), '--zooms', '14-15', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const db = new Database(out, { readonly: true });
    const meta = Object.fromEntries((db.prepare('SELECT name, value FROM metadata').all() as { name: string; value: string }[]).map((m) => [m.name, m.value]));
    expect(meta).toMatchObject({ format: 'pbf', minzoom: '14', maxzoom: '15', type: 'overlay' });
    expect(JSON.parse(meta.json).vector_layers.map((l: { id: string }) => l.id)).toEqual(['das', 'contours']);
    expect(meta.attribution).toMatch(/Council planning registers/);
    const rows = db.prepare('SELECT zoom_level AS z, tile_column AS x, tile_row AS row, tile_data AS data FROM tiles ORDER BY z, x, row').all() as { z: number; x: number; row: number; data: Buffer }[];
    db.close();
    // One z14 tile and its four z15 children; every one holds DAs.
    const expected = [...tilesOf(bbox as [number, number, number, number], 14), ...tilesOf(bbox as [number, number, number, number], 15)];
    expect(expected.length).toBe(5);
    expect(rows.length).toBe(expected.length);
    for (const row of rows) {
      const y = (1 << row.z) - 1 - row.row;
      const vt = new VectorTile(new PbfReader(gunzipSync(row.data)));
      const das = (await world.engine.tile('das', row.z, row.x, y)).bytes!;
      expect(vt.layers.das.length).toBe(new VectorTile(new PbfReader(das)).layers.das.length);
      const contours = (await world.engine.tile('contours', row.z, row.x, y)).bytes;
      expect(vt.layers.contours?.length ?? 0).toBe(contours ? new VectorTile(new PbfReader(contours)).layers.contours.length : 0);
    }
    expect(r.stdout).toMatch(/5 tiles .* 0 empty left out/);
    if (existsSync('/usr/bin/ogrinfo')) {
      // GDAL reads it as a vector dataset with both layers (a reference reader, when installed).
      const info = execFileSync('ogrinfo', ['-ro', '-so', out], { encoding: 'utf8' });
      expect(info).toMatch(/das/);
      expect(info).toMatch(/contours/);
    }
    // An existing file is replaced only with --force.
    expect((await runCli(['tiles', 'export', '--layer', 'das', '--bbox', bbox.join(','), '--zooms', '14', '--out', out])).stderr).toMatch(/--force/);
    expect((await runCli(['tiles', 'export', '--layer', 'das', '--bbox', bbox.join(','), '--zooms', '14', '--out', out, '--force'])).code).toBe(0);
  });

  it('writes each layer over the zooms it has within the range asked, and metadata true to the file (issue 47)', async () => {
    // zones from z10, hand from z14: asked 12-15, hand's z12-13 are skipped and said.
    const s = world.sandbox.find((x) => x.state === 'VIC')!;
    const bbox = [s.lng - 0.004, s.lat - 0.003, s.lng + 0.004, s.lat + 0.003];
    const out = join(dir, 'vic.mbtiles');
    const r = await runCli(['tiles', 'export', '--layer', 'zones,hand', '--bbox', bbox.join(','), '--zooms', '12-15', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/skipped hand z12-13 \(made from z14\)/);
    const db = new Database(out, { readonly: true });
    const meta = Object.fromEntries((db.prepare('SELECT name, value FROM metadata').all() as { name: string; value: string }[]).map((m) => [m.name, m.value]));
    const rows = db.prepare('SELECT zoom_level AS z, tile_column AS x, tile_row AS row, tile_data AS data FROM tiles').all() as { z: number; x: number; row: number; data: Buffer }[];
    db.close();
    // What the tiles hold: the zooms of the file and of each layer, and their extent.
    const zooms = new Map<string, number[]>();
    const ext = [Infinity, Infinity, -Infinity, -Infinity];
    for (const row of rows) {
      const vt = new VectorTile(new PbfReader(gunzipSync(row.data)));
      for (const id of Object.keys(vt.layers)) zooms.set(id, [...(zooms.get(id) ?? []), row.z]);
      const b = tileBounds({ z: row.z, x: row.x, y: (1 << row.z) - 1 - row.row });
      ext[0] = Math.min(ext[0], b[0]);
      ext[1] = Math.min(ext[1], b[1]);
      ext[2] = Math.max(ext[2], b[2]);
      ext[3] = Math.max(ext[3], b[3]);
    }
    const all = rows.map((row) => row.z);
    expect([meta.minzoom, meta.maxzoom]).toEqual([String(Math.min(...all)), String(Math.max(...all))]);
    expect([meta.minzoom, meta.maxzoom]).toEqual(['12', '15']);
    const layers = JSON.parse(meta.json).vector_layers as { id: string; minzoom: number; maxzoom: number }[];
    expect(layers.map((l) => l.id)).toEqual(['zones', 'hand']);
    for (const l of layers) expect([l.id, l.minzoom, l.maxzoom]).toEqual([l.id, Math.min(...zooms.get(l.id)!), Math.max(...zooms.get(l.id)!)]);
    expect(layers.find((l) => l.id === 'hand')!.minzoom).toBe(14);
    // Bounds: the tiles' extent within the box asked (here the box, which the tiles cover).
    const bounds = meta.bounds.split(',').map(Number);
    const expected = [Math.max(ext[0], bbox[0]), Math.max(ext[1], bbox[1]), Math.min(ext[2], bbox[2]), Math.min(ext[3], bbox[3])];
    bounds.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 6));
    if (existsSync('/usr/bin/ogrinfo')) {
      // GDAL opens it at the file's own zooms, each layer at its own.
      const info = execFileSync('ogrinfo', ['-ro', '-so', '-oo', 'ZOOM_LEVEL=14', out], { encoding: 'utf8' });
      expect(info).toMatch(/zones/);
      expect(info).toMatch(/hand/);
    }
    // A layer with none of the zooms asked is refused, naming its zooms.
    expect((await runCli(['tiles', 'export', '--layer', 'zones,hand', '--bbox', bbox.join(','), '--zooms', '10-12', '--out', join(dir, 'none.mbtiles')])).stderr).toMatch(/hand layer is made at zooms 14 to 17, none of 10 to 12/);
  });

  it('names what is wrong', async () => {
    const out = join(dir, 'bad.mbtiles');
    expect((await runCli(['tiles', 'export', '--layer', 'contours', '--bbox', '150,-34,151,-33', '--zooms', '5-6', '--out', out])).stderr).toMatch(/zooms 12 to 17, none of 5 to 6/);
    expect((await runCli(['tiles', 'export', '--layer', 'nope', '--bbox', '150,-34,151,-33', '--zooms', '14', '--out', out])).stderr).toMatch(/no tile layer "nope"/);
    expect((await runCli(['tiles', 'export', '--layer', 'das', '--bbox', '150,-34', '--zooms', '14', '--out', out])).stderr).toMatch(/--bbox/);
    expect((await runCli(['tiles', 'export', '--layer', 'das', '--bbox', '110,-44,155,-10', '--zooms', '16', '--out', out])).stderr).toMatch(/more than 200000/);
    expect((await runCli(['tiles'])).code).toBe(2);
  });
});

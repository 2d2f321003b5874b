// Vector tiles: bytes written here by a minimal MVT 2.1 encoder (the protobuf schema of the Mapbox Vector Tile
// specification, vector_tile.proto), decoded by the reader, and checked against the Web Mercator tile maths.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { booleanPointInPolygon } from '@turf/turf';
import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { parseVectorTile, readVectorTile, readVectorTileLayer, tileAddressOfPath } from '../../../engine/vector/mvt-reader.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { encodeTile, tileAt, tileToLonLat, type Geom } from '../../helpers/mvt.js';
import { tempDir } from '../../helpers/tmp.js';

/** The z14 tile holding Melbourne's CBD (144.963 E, 37.814 S). */
const T = tileAt(144.963, -37.814, 14);

const square: Geom = { type: 3, rings: [[[1024, 1024], [3072, 1024], [3072, 3072], [1024, 3072], [1024, 1024]]] };

describe('MVT reader', () => {
  it('decodes points, lines and polygons to lon/lat at the tile maths positions, with properties and ids', () => {
    const bytes = encodeTile('zones', [
      { id: 7, props: { code: 'GRZ1', height: 11 }, geom: { type: 1, rings: [[[2048, 2048]]] } },
      { props: { code: 'road' }, geom: { type: 2, rings: [[[0, 0], [4096, 4096]]] } },
      { props: { code: 'LSIO' }, geom: square },
    ]);
    const t = parseVectorTile(bytes, T, 'mem.mvt');
    const [pt, line, poly] = t.layers.zones;
    expect(pt.id).toBe(7);
    expect(pt.properties).toEqual({ code: 'GRZ1', height: 11, __tile: `14/${T.x}/${T.y}` });
    const [lon, lat] = tileToLonLat(T.z, T.x, T.y, 0.5, 0.5);
    expect(pt.geometry).toEqual({ type: 'Point', coordinates: [expect.closeTo(lon, 9), expect.closeTo(lat, 9)] });
    // The line runs corner to corner: north-west to south-east of the tile.
    const nw = tileToLonLat(T.z, T.x, T.y, 0, 0);
    const se = tileToLonLat(T.z, T.x, T.y, 1, 1);
    expect(line.geometry.type).toBe('LineString');
    const lc = (line.geometry as { coordinates: number[][] }).coordinates;
    [nw, se].forEach((p, i) => p.forEach((v, j) => expect(lc[i][j]).toBeCloseTo(v, 9)));
    // The polygon is the tile's middle quarter: its centre is inside, a corner of the tile is not.
    expect(poly.geometry.type).toBe('Polygon');
    const ring = (poly.geometry as Polygon).coordinates[0];
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    expect(booleanPointInPolygon([lon, lat], poly.geometry as Polygon)).toBe(true);
    expect(booleanPointInPolygon(nw, poly.geometry as Polygon)).toBe(false);
  });

  it('decodes only the layers asked for; a layer the tile omits is an empty list', () => {
    const t = parseVectorTile(encodeTile('zones', [{ props: {}, geom: square }]), T, 'mem.mvt', { layers: ['overlays'] });
    expect(t.layers).toEqual({ overlays: [] });
  });

  it('reads a directory of z/x/y tiles as one layer, in tile order, at the deepest zoom', async () => {
    const dir = tempDir();
    const write = (z: number, x: number, y: number, bytes: Uint8Array) => {
      mkdirSync(join(dir, `${z}`, `${x}`), { recursive: true });
      writeFileSync(join(dir, `${z}`, `${x}`, `${y}.mvt`), bytes);
    };
    write(14, T.x + 1, T.y, encodeTile('zones', [{ props: { code: 'east' }, geom: square }]));
    write(14, T.x, T.y, encodeTile('zones', [{ props: { code: 'west' }, geom: square }]));
    write(13, T.x >> 1, T.y >> 1, encodeTile('zones', [{ props: { code: 'coarse' }, geom: square }]));
    const layer = await readVectorTileLayer(dir, 'zones');
    expect(layer.features.map((f) => f.properties!.code)).toEqual(['west', 'east']);
    const west = tileToLonLat(14, T.x, T.y, 0.25, 0.75);
    const east = tileToLonLat(14, T.x + 1, T.y, 0.75, 0.25);
    expect(layer.bbox[0]).toBeCloseTo(west[0], 9);
    expect(layer.bbox[2]).toBeCloseTo(east[0], 9);
    expect((await readVectorTileLayer(dir, 'zones', { zoom: 13 })).features.map((f) => f.properties!.code)).toEqual(['coarse']);
  });

  it('takes the tile address from a z/x/y path', async () => {
    expect(tileAddressOfPath('/data/tiles/14/14789/10052.mvt')).toEqual({ z: 14, x: 14789, y: 10052 });
    expect(tileAddressOfPath('tiles\\3\\1\\2.pbf')).toEqual({ z: 3, x: 1, y: 2 });
    expect(tileAddressOfPath('zones.mvt')).toBeNull();
  });

  it('bad input: garbage bytes, a bad tile address, a missing file or directory, each a named error', async () => {
    const dir = tempDir();
    const garbage = join(dir, 'garbage.mvt');
    writeFileSync(garbage, Buffer.from([0x1a, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3]));
    await expectEngineError(() => readVectorTile(garbage, T), 'INVALID_DATA', 'garbage.mvt');
    await expectEngineError(() => readVectorTile(garbage), 'INVALID_ARGUMENT', 'garbage.mvt', /no tile address/);
    expect(() => parseVectorTile(encodeTile('a', []), { z: 2, x: 4, y: 0 }, 'x.mvt')).toThrow(/2\/4\/0 is not a tile address/);
    await expectEngineError(() => readVectorTile(join(dir, '1', '0', '0.mvt')), 'NOT_FOUND', '0.mvt');
    await expectEngineError(() => readVectorTileLayer(join(dir, 'nope'), 'zones'), 'NOT_FOUND', 'nope');
    await expectEngineError(() => readVectorTileLayer(dir, 'zones'), 'INVALID_DATA', /no z\/x\/y\.mvt tiles/);
  });

  it('rejects a polygon ring too short to be a ring, naming layer and feature', () => {
    const degenerate: Geom = { type: 3, rings: [[[0, 0], [10, 0], [0, 0]]] };
    expect(() => parseVectorTile(encodeTile('zones', [{ props: {}, geom: square }, { props: {}, geom: degenerate }]), T, 'd.mvt')).toThrow(/d\.mvt: layer "zones" feature 1/);
  });
});

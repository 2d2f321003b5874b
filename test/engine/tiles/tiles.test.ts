// Vector tiles (issue 20) from the engine on the sample world, decoded with @mapbox/vector-tile: tile
// arithmetic against known values; DA points at their tile coordinates, exactly the brute-force set; a zone
// polygon containing a point in tile coordinates is the zone the source says holds it; contour tiles agree
// with engine.surfaces contours over the same ground and with their neighbour along the shared edge; the
// refusals (unknown layer, zooms, the grid).
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { booleanPointInPolygon } from '@turf/turf';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { distanceMetres } from '../../../engine/geo/distance.js';
import { EXTENT } from '../../../engine/tiles/vector-tiles.js';
import { tileAt, tileBounds, toTileCoords } from '../../../engine/tiles/tile-math.js';
import { createWindow, lonLatToWindow } from '../../../engine/geo/window.js';
import { noiseGridEnergy, nodeLevels } from '../../../engine/noise/noise-grid.js';
import { calibrateTransferAt, resolveTransferOptions } from '../../../engine/noise/transfer-calibration.js';
import { noiseTileLattice } from '../../../engine/tiles/noise-tiles.js';
import { useSampleEngine } from '../../helpers/sample-engine.js';
import { tempDir } from '../../helpers/tmp.js';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import { createEngine } from '../../../engine/runtime/engine.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';

const world = useSampleEngine(2);

const decode = (bytes: Uint8Array | null, layer: string) => {
  if (!bytes) return [];
  const l = new VectorTile(new PbfReader(bytes)).layers[layer];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
};
const nsw = () => world.sandbox.find((s) => s.state === 'NSW')!;

describe('tile arithmetic', () => {
  it('bounds z0 as the Web Mercator world and finds the tile of a point', () => {
    const [w, s, e, n] = tileBounds({ z: 0, x: 0, y: 0 });
    expect([w, e]).toEqual([-180, 180]);
    expect(n).toBeCloseTo(85.0511287798, 9);
    expect(s).toBeCloseTo(-85.0511287798, 9);
    expect(tileBounds({ z: 1, x: 1, y: 1 }).map((v) => Number(v.toFixed(6)))).toEqual([0, -85.051129, 180, 0]);
    // Sydney at z10 is tile 942/614 (the OSM slippy-map formula).
    expect(tileAt(151.2093, -33.8688, 10)).toEqual({ z: 10, x: 942, y: 614 });
    const t = tileAt(151.2093, -33.8688, 14);
    const [x, y] = toTileCoords(151.2093, -33.8688, t);
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x).toBeLessThan(EXTENT);
    expect(y).toBeGreaterThanOrEqual(0);
    expect(y).toBeLessThan(EXTENT);
  });
});

describe('vector layers', () => {
  it('das: every geocoded DA in the tile and its buffer, at its tile coordinates, with its fields', async () => {
    const s = nsw();
    const t = tileAt(s.lng, s.lat, 15);
    const got = decode((await world.engine.tile('das', t.z, t.x, t.y)).bytes, 'das');
    const all = world.engine.das().list({}, { limit: 1_000_000 }).filter((r) => r.lat !== null && r.lng !== null);
    const expected = all
      .map((r) => ({ r, xy: toTileCoords(r.lng!, r.lat!, t) }))
      .filter(({ xy: [x, y] }) => x >= -64 && x <= EXTENT + 64 && y >= -64 && y <= EXTENT + 64);
    expect(expected.length).toBeGreaterThan(10);
    // Points exactly on the buffer's edge may go either way: compare those clearly inside it.
    const inner = expected.filter(({ xy: [x, y] }) => x > -63 && x < EXTENT + 63 && y > -63 && y < EXTENT + 63);
    const byId = new Map(got.map((f) => [Number(f.properties.id), f]));
    // Every DA clearly inside the tile and its buffer is in the tile, and nothing outside the buffer is.
    expect(inner.filter(({ r }) => !byId.has(r.id)).map(({ r }) => r.id)).toEqual([]);
    const allowed = new Set(expected.map(({ r }) => r.id));
    expect([...byId.keys()].filter((id) => !allowed.has(id))).toEqual([]);
    for (const { r, xy } of inner) {
      const f = byId.get(r.id)!;
      const [[p]] = f.loadGeometry();
      expect(Math.abs(p.x - xy[0])).toBeLessThanOrEqual(1);
      expect(Math.abs(p.y - xy[1])).toBeLessThanOrEqual(1);
      expect(f.properties).toEqual({ id: r.id, category: r.category, status_group: r.status_group, lodged: r.lodged });
    }
    expect(got.length).toBeGreaterThanOrEqual(inner.length);
    expect(got.length).toBeLessThanOrEqual(expected.length);
  });

  it('zones: the polygon holding a point in tile coordinates is the zone the source says holds it', async () => {
    const s = nsw();
    const t = tileAt(s.lng, s.lat, 16);
    const layer = world.engine.store.vectorsFor('planning.zone', 'NSW')[0];
    // Exactly one zone of the source holds the point (zones tile the land without overlap).
    const holding = layer.features.filter((f) => booleanPointInPolygon([s.lng, s.lat], f as never));
    expect(holding).toHaveLength(1);
    const source = holding[0];
    const features = decode((await world.engine.tile('zones', t.z, t.x, t.y)).bytes, 'zones');
    const [px, py] = toTileCoords(s.lng, s.lat, t);
    // Even-odd over every ring of the feature, in tile coordinates.
    const holds = (f: VectorTileFeature) => {
      let inside = false;
      for (const ring of f.loadGeometry()) {
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const a = ring[i], b = ring[j];
          if (a.y > py !== b.y > py && px < ((b.x - a.x) * (py - a.y)) / (b.y - a.y) + a.x) inside = !inside;
        }
      }
      return inside;
    };
    const hits = features.filter(holds);
    expect(hits.length).toBe(1);
    const { source: _s, ...props } = hits[0].properties;
    const want = Object.fromEntries(Object.entries(source.properties ?? {}).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)));
    expect(props).toEqual(want);
  });

  it('parcels start at z16; an empty tile is null; unknown layers, coarse zooms and tiles off the grid are refused', async () => {
    const s = nsw();
    const t = tileAt(s.lng, s.lat, 16);
    expect(decode((await world.engine.tile('parcels', t.z, t.x, t.y)).bytes, 'parcels').length).toBeGreaterThan(20);
    await expectEngineError(() => world.engine.tile('parcels', 15, t.x >> 1, t.y >> 1), 'INVALID_ARGUMENT', /starts at zoom 16/);
    // The middle of the Pacific holds no DA.
    const sea = tileAt(-150, -20, 14);
    expect((await world.engine.tile('das', sea.z, sea.x, sea.y)).bytes).toBeNull();
    await expectEngineError(() => world.engine.tile('nope', 14, 1, 1), 'NOT_FOUND', /no tile layer/);
    await expectEngineError(() => world.engine.tile('contours', 0, 0, 0), 'INVALID_ARGUMENT', /starts at zoom 12/);
    await expectEngineError(() => world.engine.tile('das', 14, 16384, 0), 'INVALID_ARGUMENT', /not a tile/);
  });
});

describe('contour tiles', () => {
  /** Where each line of `features` crosses the line `axis` = `edge` (x: a vertical edge), as (elevation, the other coordinate). */
  const crossings = (features: VectorTileFeature[], axis: 'x' | 'y', edge: number) => {
    const other = axis === 'x' ? 'y' : 'x';
    const out: [number, number][] = [];
    for (const f of features) {
      for (const line of f.loadGeometry()) {
        for (let i = 1; i < line.length; i++) {
          const a = line[i - 1], b = line[i];
          if ((a[axis] - edge) * (b[axis] - edge) < 0) out.push([Number(f.properties.ele), a[other] + ((edge - a[axis]) * (b[other] - a[other])) / (b[axis] - a[axis])]);
        }
      }
    }
    return out.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  };

  /** The shortest distance from (px, py) to any line of `features` at level `ele`, the lines shifted by (dx, dy). */
  const distanceToLevel = (features: VectorTileFeature[], ele: number, px: number, py: number, dx: number, dy: number) => {
    let best = Infinity;
    for (const f of features) {
      if (Number(f.properties.ele) !== ele) continue;
      for (const line of f.loadGeometry()) {
        for (let i = 1; i < line.length; i++) {
          const ax = line[i - 1].x + dx, ay = line[i - 1].y + dy, bx = line[i].x + dx, by = line[i].y + dy;
          const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
          const k = len2 ? Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2)) : 0;
          best = Math.min(best, Math.hypot(px - (ax + k * (bx - ax)), py - (ay + k * (by - ay))));
        }
      }
    }
    return best;
  };

  it('match their neighbours along the shared edges', async () => {
    const s = nsw();
    // z15: a 2 m interval. The tile's four edges, each with the neighbour across it.
    const t = tileAt(s.lng, s.lat, 15);
    const contours = async (x: number, y: number) => decode((await world.engine.tile('contours', t.z, x, y)).bytes, 'contours');
    const mine = await contours(t.x, t.y);
    expect(mine.length).toBeGreaterThan(5);
    let total = 0;
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const theirs = await contours(t.x + dx, t.y + dy);
      const axis = dx ? 'x' : 'y';
      const edge = dx + dy > 0 ? EXTENT : 0;
      const here = crossings(mine, axis, edge), there = crossings(theirs, axis, dx + dy > 0 ? 0 : EXTENT);
      expect(there.length, `edge ${dx},${dy}`).toBe(here.length);
      // Each line of this tile that crosses the edge meets a line of the same level in the neighbour, in
      // this tile's coordinates, within geojson-vt's simplification tolerance (3 units each side) and rounding.
      for (const [ele, at] of here) {
        const [px, py] = axis === 'x' ? [edge, at] : [at, edge];
        expect(distanceToLevel(theirs, ele, px, py, dx * EXTENT, dy * EXTENT), `level ${ele} at ${Math.round(at)}`).toBeLessThan(7);
      }
      total += here.length;
    }
    expect(total).toBeGreaterThanOrEqual(4);
    for (const f of mine) expect(f.properties.level).toBe(Number(f.properties.ele) % 10 === 0 ? 1 : 0);
    // Asked again, the same tile comes from the cache.
    expect(decode((await world.engine.tile('contours', t.z, t.x, t.y)).bytes, 'contours').length).toBe(mine.length);
  });

  it('draw the lines engine.surfaces gives for the same ground, within the tile\'s resolution', async () => {
    const s = nsw();
    const t = tileAt(s.lng, s.lat, 14);
    const [w, so, e, n] = tileBounds(t);
    const lon = (w + e) / 2, lat = (so + n) / 2;
    const surfaces = await world.engine.surfaces(lon, lat, { layers: ['contours'], contourIntervalM: 5 });
    const layer = surfaces.surfaces.contours!;
    expect(layer.available).toBe(true);
    if (!layer.available) return;
    const byEle = new Map<number, number[][][]>();
    for (const f of layer.features.features) byEle.set(f.properties.elevation, [...(byEle.get(f.properties.elevation) ?? []), f.geometry.coordinates]);
    const tiles = decode((await world.engine.tile('contours', t.z, t.x, t.y)).bytes, 'contours');
    const size = 1 << t.z;
    let checked = 0;
    // Every level the tile draws is a level the surface traced there.
    expect(tiles.map((f) => Number(f.properties.ele)).filter((ele) => !byEle.has(ele))).toEqual([]);
    for (const f of tiles) {
      const lines = byEle.get(Number(f.properties.ele));
      for (const line of f.loadGeometry()) {
        for (const p of line.filter((_, i) => i % 7 === 0)) {
          if (p.x < 0 || p.x > EXTENT || p.y < 0 || p.y > EXTENT) continue;
          // The tile point back to lon/lat.
          const x = (t.x + p.x / EXTENT) / size, y = (t.y + p.y / EXTENT) / size;
          const plon = x * 360 - 180, plat = (180 / Math.PI) * Math.atan(Math.sinh(Math.PI * (1 - 2 * y)));
          // Within 3 m of a vertex of the same level's line (a z14 tile unit is about 0.5 m; the surface's
          // vertices are a 5 m cell apart at most, so the nearest vertex is within half a cell of the line).
          let best = Infinity;
          for (const l of lines!) for (const [vx, vy] of l) best = Math.min(best, distanceMetres(plon, plat, vx, vy));
          expect(best).toBeLessThan(3.6);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('noise tiles', () => {
  it('hold each lattice node in exactly the levels at or below its modelled Lden, nested, from the surface model', async () => {
    const s = nsw();
    const t = tileAt(s.lng, s.lat, 15);
    const features = decode((await world.engine.tile('noise', t.z, t.x, t.y)).bytes, 'noise');
    expect(features.length).toBeGreaterThan(2);
    const levels = features.map((f) => Number(f.properties.lden_db));
    for (const f of features) expect(f.properties.band).toBe(`${f.properties.lden_db}+ dB`);
    // The lattice's nodes, their physics energies and levels, by the surface's own functions, in this thread.
    const network = (await world.engine.noiseNetwork('NSW'))!;
    const { box: [w, so, e, n], nodes: N } = noiseTileLattice(t);
    const win = createWindow((w + e) / 2, (so + n) / 2, undefined, network.crs);
    const lon: number[] = [], lat: number[] = [], x: number[] = [], y: number[] = [];
    for (let row = 2; row < N - 2; row += 3) {
      for (let col = 2; col < N - 2; col += 3) {
        const lo = w + ((e - w) * col) / (N - 1), la = n - ((n - so) * row) / (N - 1);
        const [px, py] = toTileCoords(lo, la, t);
        if (px < 0 || px > EXTENT || py < 0 || py > EXTENT) continue;
        const [wx, wy] = lonLatToWindow(win, lo, la);
        lon.push(lo), lat.push(la), x.push(wx), y.push(wy);
      }
    }
    expect(lon.length).toBeGreaterThan(8);
    const energy = noiseGridEnergy(network.scene, Float64Array.from(x), Float64Array.from(y));
    const { lden } = nodeLevels(network, lon, lat, energy, calibrateTransferAt(network, (w + e) / 2, (so + n) / 2, resolveTransferOptions({})));
    let checked = 0;
    lon.forEach((lo, i) => {
      const level = lden[i];
      if (level === null) return;
      // Away from a level's edge (d3-contour interpolates between nodes), the node is inside exactly the levels <= its Lden.
      if (levels.some((l) => Math.abs(level - l) < 0.3)) return;
      const [px, py] = toTileCoords(lo, lat[i], t);
      const inside = features.filter((f) => ringsHold(f.loadGeometry(), px, py)).map((f) => Number(f.properties.lden_db)).sort((a, b) => a - b);
      expect(inside, `node ${i} at ${level} dB`).toEqual(levels.filter((l) => l <= level).sort((a, b) => a - b));
      checked++;
    });
    expect(checked).toBeGreaterThan(8);
  });
});

/** Even-odd point-in-polygon over every ring of a decoded feature, in tile coordinates. */
function ringsHold(rings: { x: number; y: number }[][], px: number, py: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i], b = ring[j];
      if (a.y > py !== b.y > py && px < ((b.x - a.x) * (py - a.y)) / (b.y - a.y) + a.x) inside = !inside;
    }
  }
  return inside;
}

describe('HAND tiles', () => {
  it('put each sandbox address inside exactly the classes at or above the HAND the flood score reports there', async () => {
    let checked = 0;
    for (const s of world.sandbox) {
      const flood = (await world.engine.scores(s.lng, s.lat, { only: ['flood'] })).scores.flood as { components?: { hand?: { value: number | null } } } | undefined;
      const hand = flood?.components?.hand?.value;
      if (hand === null || hand === undefined) continue;
      const t = tileAt(s.lng, s.lat, 16);
      const features = decode((await world.engine.tile('hand', t.z, t.x, t.y)).bytes, 'hand');
      const edges = features.map((f) => Number(f.properties.hand_max_m));
      // Away from a class edge (the lattice interpolates between points about 10 m apart at z16).
      if (edges.some((e) => Math.abs(e - hand) < 1.5)) continue;
      const [px, py] = toTileCoords(s.lng, s.lat, t);
      const inside = features.filter((f) => ringsHold(f.loadGeometry(), px, py)).map((f) => Number(f.properties.hand_max_m)).sort((a, b) => a - b);
      expect(inside, `${s.address}: HAND ${hand} m`).toEqual(edges.filter((e) => e >= hand).sort((a, b) => a - b));
      for (const f of features) expect(f.properties.class).toBe(`HAND <= ${f.properties.hand_max_m} m`);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });
});

describe('the disk tile cache', () => {
  it('keeps finished contour tiles for the next engine on the same dataset, which serves them without computing', async () => {
    const dir = tempDir('propintel-tile-cache-');
    const s = nsw();
    const t = tileAt(s.lng, s.lat, 16);
    const first = await createEngine({ datasets: defaultDataDir(), threads: 1, tileCache: dir });
    let a: Uint8Array | null;
    try {
      a = (await first.tile('contours', t.z, t.x, t.y)).bytes;
    } finally {
      await first.close();
    }
    expect(a).not.toBeNull();
    const second = await createEngine({ datasets: defaultDataDir(), threads: 1, tileCache: dir });
    try {
      let runs = 0;
      const run = second.pool.run.bind(second.pool);
      (second.pool as { run: typeof run }).run = ((...args: Parameters<typeof run>) => (runs++, run(...args))) as typeof run;
      const b = (await second.tile('contours', t.z, t.x, t.y)).bytes;
      expect(Buffer.from(b!).equals(Buffer.from(a!))).toBe(true);
      expect(runs).toBe(0);
      // A tile it has not stored is computed.
      await second.tile('contours', t.z, t.x + 1, t.y);
      expect(runs).toBe(1);
    } finally {
      await second.close();
    }
  });
});

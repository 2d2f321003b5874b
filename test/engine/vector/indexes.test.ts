import { booleanPointInPolygon, nearestPointOnLine as turfNearestPointOnLine, lineString, point } from '@turf/turf';
import fc from 'fast-check';
import type { LineString, Polygon, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import { distanceMetres, metresPerDegree } from '../../../engine/geo/distance.js';
import { seededRandom, type Random } from '../../../engine/random/seeded-random.js';
import { closestOnSegment } from '../../../engine/vector/metric-search.js';
import { MutablePointIndex } from '../../../engine/vector/mutable-point-index.js';
import { nearestPointOnLine } from '../../../engine/vector/nearest-point-on-line.js';
import { pointInPolygon } from '../../../engine/vector/point-in-polygon.js';
import { PointIndex } from '../../../engine/vector/point-index.js';
import { PolygonIndex } from '../../../engine/vector/polygon-index.js';
import { SegmentIndex } from '../../../engine/vector/segment-index.js';

// A 30 x 30 km area around Brisbane.
const BOX = { lon: 152.9, lat: -27.6, dLon: 0.3, dLat: 0.27 };

function randomPoints(rnd: Random, n: number): Float64Array {
  const c = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    c[2 * i] = BOX.lon + rnd.next() * BOX.dLon;
    c[2 * i + 1] = BOX.lat + rnd.next() * BOX.dLat;
  }
  return c;
}

/** Brute force: every point within r, sorted by distance then id. */
function bruteWithin(c: Float64Array, lon: number, lat: number, r: number) {
  const out: { id: number; distance: number }[] = [];
  for (let i = 0; i < c.length / 2; i++) {
    const d = distanceMetres(lon, lat, c[2 * i], c[2 * i + 1]);
    if (d <= r) out.push({ id: i, distance: d });
  }
  return out.sort((a, b) => a.distance - b.distance || a.id - b.id);
}

describe('PointIndex (flatbush) against brute force', () => {
  const rnd = seededRandom(2024);
  const coords = randomPoints(rnd, 20_000);
  const index = PointIndex.build(coords);

  it('returns exactly the brute-force ids for radius queries from 10 m to 3 km', () => {
    for (let q = 0; q < 300; q++) {
      const lon = BOX.lon + rnd.next() * BOX.dLon;
      const lat = BOX.lat + rnd.next() * BOX.dLat;
      const r = 10 + rnd.next() * 3000;
      expect(index.within(lon, lat, r).map((h) => h.id)).toEqual(bruteWithin(coords, lon, lat, r).map((h) => h.id));
    }
  });

  it('returns exactly the brute-force k nearest, including from outside the data', () => {
    for (let q = 0; q < 120; q++) {
      const outside = q % 10 === 0;
      const lon = outside ? BOX.lon - 0.5 : BOX.lon + rnd.next() * BOX.dLon;
      const lat = BOX.lat + rnd.next() * BOX.dLat;
      const k = [1, 3, 10, 50][q % 4];
      const brute = bruteWithin(coords, lon, lat, Infinity).slice(0, k);
      const got = index.nearest(lon, lat, k);
      expect(got.map((h) => h.id)).toEqual(brute.map((h) => h.id));
      got.forEach((h, i) => expect(h.distance).toBeCloseTo(brute[i].distance, 9));
    }
  });

  it('honours maxDistance in kNN and handles an empty index', () => {
    const lon = BOX.lon + 0.1, lat = BOX.lat + 0.1;
    const near = index.nearest(lon, lat, 1000, 250);
    expect(near.length).toBe(bruteWithin(coords, lon, lat, 250).length);
    expect(near.every((h) => h.distance <= 250)).toBe(true);
    const empty = PointIndex.build([]);
    expect(empty.count).toBe(0);
    expect(empty.within(lon, lat, 1e6)).toEqual([]);
    expect(empty.nearest(lon, lat, 3)).toEqual([]);
  });

  it('is backed by SharedArrayBuffers and reattaches to the same memory', () => {
    const shared = index.toShared();
    expect(shared.index).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.coords).toBeInstanceOf(SharedArrayBuffer);
    const clone = structuredClone(shared);
    const again = PointIndex.fromShared(clone);
    expect(again.within(BOX.lon + 0.15, BOX.lat + 0.13, 700)).toEqual(index.within(BOX.lon + 0.15, BOX.lat + 0.13, 700));
    // Same memory, not a copy: a write through one view is visible through the other.
    const before = index.coords[0];
    again.coords[0] = 123;
    expect(index.coords[0]).toBe(123);
    again.coords[0] = before;
  });

  it('agrees with brute force on arbitrary inputs (property test)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 145, max: 145.05, noNaN: true }), fc.double({ min: -37.85, max: -37.8, noNaN: true })), { minLength: 0, maxLength: 200 }),
        fc.tuple(fc.double({ min: 144.99, max: 145.06, noNaN: true }), fc.double({ min: -37.86, max: -37.79, noNaN: true })),
        fc.double({ min: 0, max: 4000, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        (pts, [lon, lat], r, k) => {
          const c = Float64Array.from(pts.flat());
          const idx = PointIndex.build(c, { shared: false });
          expect(idx.within(lon, lat, r).map((h) => h.id)).toEqual(bruteWithin(c, lon, lat, r).map((h) => h.id));
          expect(idx.nearest(lon, lat, k).map((h) => h.id)).toEqual(bruteWithin(c, lon, lat, Infinity).slice(0, k).map((h) => h.id));
        },
      ),
      { seed: 17, numRuns: 200 },
    );
  });
});

function randomLines(rnd: Random, n: number): LineString[] {
  return Array.from({ length: n }, () => {
    let lon = BOX.lon + rnd.next() * BOX.dLon;
    let lat = BOX.lat + rnd.next() * BOX.dLat;
    const coords: Position[] = [[lon, lat]];
    for (let v = 0, m = 2 + rnd.int(6); v < m; v++) {
      lon += rnd.range(-0.004, 0.004);
      lat += rnd.range(-0.004, 0.004);
      coords.push([lon, lat]);
    }
    return { type: 'LineString', coordinates: coords };
  });
}

describe('SegmentIndex against brute force', () => {
  const rnd = seededRandom(77);
  const lines = randomLines(rnd, 3000);
  const index = SegmentIndex.fromGeometries(lines);

  function bruteSegments(lon: number, lat: number, r: number) {
    const { kx, ky } = metresPerDegree(lat);
    const hits: { id: number; distance: number }[] = [];
    for (let i = 0; i < index.count; i++) {
      const s = index.segments;
      const c = closestOnSegment(0, 0, (s[4 * i] - lon) * kx, (s[4 * i + 1] - lat) * ky, (s[4 * i + 2] - lon) * kx, (s[4 * i + 3] - lat) * ky);
      const d = distanceMetres(lon, lat, lon + c.x / kx, lat + c.y / ky);
      if (d <= r) hits.push({ id: i, distance: d });
    }
    return hits.sort((a, b) => a.distance - b.distance || a.id - b.id);
  }

  it('finds exactly the segments within a radius', () => {
    for (let q = 0; q < 200; q++) {
      const lon = BOX.lon + rnd.next() * BOX.dLon;
      const lat = BOX.lat + rnd.next() * BOX.dLat;
      const r = 5 + rnd.next() * 1500;
      expect(index.segmentsWithin(lon, lat, r).map((h) => h.id)).toEqual(bruteSegments(lon, lat, r).map((h) => h.id));
    }
  });

  it('reports each feature once, by its closest segment, and finds the k nearest features', () => {
    for (let q = 0; q < 100; q++) {
      const lon = BOX.lon + rnd.next() * BOX.dLon;
      const lat = BOX.lat + rnd.next() * BOX.dLat;
      const perFeature = new Map<number, number>();
      for (const h of bruteSegments(lon, lat, Infinity)) {
        const f = index.features[h.id];
        if (!perFeature.has(f)) perFeature.set(f, h.distance);
      }
      const expected = [...perFeature.entries()].sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, 5);
      const got = index.nearestFeatures(lon, lat, 5);
      expect(got.map((h) => h.feature)).toEqual(expected.map((e) => e[0]));
      got.forEach((h, i) => expect(h.distance).toBeCloseTo(expected[i][1], 6));
    }
  });

  it('matches turf.nearestPointOnLine within the sphere-ellipsoid gap (turf measures on a sphere, under 0.7%)', () => {
    for (const line of lines.slice(0, 200)) {
      const lon = BOX.lon + rnd.next() * BOX.dLon;
      const lat = BOX.lat + rnd.next() * BOX.dLat;
      const ours = nearestPointOnLine(line.coordinates, lon, lat)!;
      const theirs = turfNearestPointOnLine(lineString(line.coordinates), point([lon, lat]), { units: 'meters' });
      const turfD = theirs.properties.dist as number;
      expect(Math.abs(ours.distance - turfD)).toBeLessThan(Math.max(0.5, turfD * 0.007));
      expect(distanceMetres(ours.lon, ours.lat, lon, lat)).toBeCloseTo(ours.distance, 3);
    }
  });

  it('gives the perpendicular foot on a straight east-west line', () => {
    const hit = nearestPointOnLine([[145, -37.8], [145.02, -37.8]], 145.01, -37.801)!;
    expect(hit.lon).toBeCloseTo(145.01, 9);
    expect(hit.lat).toBeCloseTo(-37.8, 9);
    expect(hit.distance).toBeCloseTo(metresPerDegree(-37.8).ky * 0.001, 3);
    expect(hit.index).toBe(0);
    expect(hit.t).toBeCloseTo(0.5, 9);
  });
});

function randomPolygon(rnd: Random): Polygon {
  // A star-shaped ring around a centre (always simple), sometimes with a square hole at the centre.
  const cx = BOX.lon + rnd.next() * BOX.dLon, cy = BOX.lat + rnd.next() * BOX.dLat;
  const n = 5 + rnd.int(12);
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const rad = 0.004 + rnd.next() * 0.01;
    ring.push([cx + rad * Math.cos(a), cy + rad * Math.sin(a)]);
  }
  ring.push(ring[0]);
  const rings = [ring];
  if (rnd.chance(0.4)) {
    const h = 0.0015;
    rings.push([[cx - h, cy - h], [cx - h, cy + h], [cx + h, cy + h], [cx + h, cy - h], [cx - h, cy - h]]);
  }
  return { type: 'Polygon', coordinates: rings };
}

describe('PolygonIndex and point-in-polygon', () => {
  const rnd = seededRandom(31);
  const polys = Array.from({ length: 800 }, () => randomPolygon(rnd));
  const index = PolygonIndex.build(polys);

  it('agrees with turf.booleanPointInPolygon, holes excluded', () => {
    let insideCount = 0;
    for (let q = 0; q < 400; q++) {
      const lon = BOX.lon + rnd.next() * BOX.dLon;
      const lat = BOX.lat + rnd.next() * BOX.dLat;
      const expected = polys.map((p, i) => (booleanPointInPolygon([lon, lat], p) ? i : -1)).filter((i) => i >= 0);
      expect(index.containing(lon, lat)).toEqual(expected);
      insideCount += expected.length;
      for (const i of expected.slice(0, 3)) expect(pointInPolygon(lon, lat, polys[i])).toBe(true);
    }
    expect(insideCount).toBeGreaterThan(50); // the test exercised hits, not only misses
  });

  it('excludes a point inside a hole and includes it in a MultiPolygon part', () => {
    const withHole: Polygon = { type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]]] };
    expect(pointInPolygon(5, 5, withHole)).toBe(false);
    expect(pointInPolygon(2, 2, withHole)).toBe(true);
    expect(pointInPolygon(5, 5, { type: 'MultiPolygon', coordinates: [withHole.coordinates, [[[4.5, 4.5], [5.5, 4.5], [5.5, 5.5], [4.5, 5.5], [4.5, 4.5]]]] })).toBe(true);
    const idx = PolygonIndex.build([withHole]);
    expect(idx.containing(5, 5)).toEqual([]);
    expect(idx.geometry(0)).toEqual(withHole);
  });

  it('finds polygons within a radius with edge distances matching brute force', () => {
    for (let q = 0; q < 100; q++) {
      const lon = BOX.lon + rnd.next() * BOX.dLon;
      const lat = BOX.lat + rnd.next() * BOX.dLat;
      const r = 50 + rnd.next() * 800;
      const expected = polys
        .map((p, i) => {
          if (booleanPointInPolygon([lon, lat], p)) return { id: i, distance: 0 };
          let best = Infinity;
          for (const ring of p.coordinates) best = Math.min(best, nearestPointOnLine(ring, lon, lat)!.distance);
          return { id: i, distance: best };
        })
        .filter((h) => h.distance <= r)
        .sort((a, b) => a.distance - b.distance || a.id - b.id);
      const got = index.within(lon, lat, r);
      expect(got.map((h) => h.id)).toEqual(expected.map((h) => h.id));
      got.forEach((h, i) => {
        expect(h.distance).toBeCloseTo(expected[i].distance, 6);
        expect(h.inside).toBe(h.distance === 0);
      });
    }
  });

  it('finds exactly the brute-force k nearest polygons (containing ones first), within maxDistance', () => {
    const bruteDistance = (p: Polygon, lon: number, lat: number) => {
      if (booleanPointInPolygon([lon, lat], p)) return 0;
      let best = Infinity;
      for (const ring of p.coordinates) best = Math.min(best, nearestPointOnLine(ring, lon, lat)!.distance);
      return best;
    };
    for (let q = 0; q < 60; q++) {
      // Some queries start well outside the data, so the radius has to grow several times.
      const lon = BOX.lon - 0.2 * BOX.dLon + rnd.next() * 1.4 * BOX.dLon;
      const lat = BOX.lat - 0.2 * BOX.dLat + rnd.next() * 1.4 * BOX.dLat;
      const k = 1 + Math.floor(rnd.next() * 8);
      const all = polys.map((p, i) => ({ id: i, distance: bruteDistance(p, lon, lat) })).sort((a, b) => a.distance - b.distance || a.id - b.id);
      const got = index.nearest(lon, lat, k);
      expect(got.map((h) => h.id)).toEqual(all.slice(0, k).map((h) => h.id));
      got.forEach((h, i) => expect(h.distance).toBeCloseTo(all[i].distance, 6));
      const cap = all[Math.min(k, all.length) - 1].distance * 0.5;
      expect(index.nearest(lon, lat, k, cap).map((h) => h.id)).toEqual(all.filter((h) => h.distance <= cap).slice(0, k).map((h) => h.id));
    }
    expect(PolygonIndex.build([]).nearest(BOX.lon, BOX.lat, 3)).toEqual([]);
    expect(() => index.nearest(BOX.lon, BOX.lat, 0)).toThrow(/k must be a positive integer/);
  });

  it('reattaches from shared buffers', () => {
    const again = PolygonIndex.fromShared(structuredClone(index.toShared()));
    for (let q = 0; q < 50; q++) {
      const lon = BOX.lon + rnd.next() * BOX.dLon;
      const lat = BOX.lat + rnd.next() * BOX.dLat;
      expect(again.containing(lon, lat)).toEqual(index.containing(lon, lat));
    }
  });
});

describe('flatbush-style search and neighbors on the three indexes (propintel/geo)', () => {
  const rnd = seededRandom(99);
  const coords = randomPoints(rnd, 3000);
  const points = PointIndex.build(coords);
  const lines = SegmentIndex.fromGeometries(randomLines(rnd, 600));
  const polys = Array.from({ length: 300 }, () => randomPolygon(rnd));
  const polygons = PolygonIndex.build(polys);
  const even = (id: number) => id % 2 === 0;

  it('search: exactly the items whose boxes meet the box, filtered, never the empty index placeholder', () => {
    for (let q = 0; q < 50; q++) {
      const x0 = BOX.lon + rnd.next() * BOX.dLon, y0 = BOX.lat + rnd.next() * BOX.dLat;
      const x1 = x0 + rnd.next() * 0.05, y1 = y0 + rnd.next() * 0.05;
      const meets = (bx0: number, by0: number, bx1: number, by1: number) => bx0 <= x1 && bx1 >= x0 && by0 <= y1 && by1 >= y0;
      const brutePoints = [...Array(points.count).keys()].filter((i) => meets(coords[2 * i], coords[2 * i + 1], coords[2 * i], coords[2 * i + 1]));
      expect(points.search(x0, y0, x1, y1).sort((a, b) => a - b)).toEqual(brutePoints);
      expect(points.search(x0, y0, x1, y1, even).sort((a, b) => a - b)).toEqual(brutePoints.filter(even));
      const s = lines.segments;
      const bruteSegs = [...Array(lines.count).keys()].filter((i) => meets(Math.min(s[4 * i], s[4 * i + 2]), Math.min(s[4 * i + 1], s[4 * i + 3]), Math.max(s[4 * i], s[4 * i + 2]), Math.max(s[4 * i + 1], s[4 * i + 3])));
      expect(lines.search(x0, y0, x1, y1).sort((a, b) => a - b)).toEqual(bruteSegs);
      const brutePolys = polys.map((p, i) => {
        const xs = p.coordinates[0].map((c) => c[0]), ys = p.coordinates[0].map((c) => c[1]);
        return meets(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)) ? i : -1;
      }).filter((i) => i >= 0);
      expect(polygons.search(x0, y0, x1, y1).sort((a, b) => a - b)).toEqual(brutePolys);
    }
    let visited = 0;
    expect(points.search(BOX.lon, BOX.lat, BOX.lon + BOX.dLon, BOX.lat + BOX.dLat, () => (visited++, false))).toEqual([]);
    expect(visited).toBe(points.count); // a filter that keeps nothing still sees every hit
    expect(PointIndex.build([]).search(-180, -90, 180, 90)).toEqual([]);
    expect(SegmentIndex.build([], []).search(-180, -90, 1e10, 1e10)).toEqual([]);
    expect(() => points.search(NaN, 0, 1, 1)).toThrow(/search box must be four finite numbers/);
  });

  it('neighbors: ids nearest first in metres, filtered, up to maxResults and maxDistance (agrees with within)', () => {
    for (let q = 0; q < 30; q++) {
      const lon = BOX.lon + rnd.next() * BOX.dLon, lat = BOX.lat + rnd.next() * BOX.dLat;
      const brute = bruteWithin(coords, lon, lat, Infinity);
      expect(points.neighbors(lon, lat, 7)).toEqual(brute.slice(0, 7).map((h) => h.id));
      expect(points.neighbors(lon, lat, 5, Infinity, even)).toEqual(brute.filter((h) => even(h.id)).slice(0, 5).map((h) => h.id));
      expect(points.neighbors(lon, lat, Infinity, 400)).toEqual(brute.filter((h) => h.distance <= 400).map((h) => h.id));
      expect(lines.neighbors(lon, lat, 4, Infinity, even)).toEqual(lines.segmentsWithin(lon, lat, 1e6).filter((h) => even(h.id)).slice(0, 4).map((h) => h.id));
      expect(polygons.neighbors(lon, lat, 3, 2000, even)).toEqual(polygons.within(lon, lat, 2000).filter((h) => even(h.id)).slice(0, 3).map((h) => h.id));
    }
    expect(() => points.neighbors(BOX.lon, BOX.lat, 0)).toThrow(/maxResults must be a positive whole number or Infinity/);
    expect(PolygonIndex.build([]).neighbors(BOX.lon, BOX.lat)).toEqual([]);
  });
});

describe('MutablePointIndex (rbush) against brute force', () => {
  it('tracks inserts, moves and deletes', () => {
    const rnd = seededRandom(8);
    const idx = new MutablePointIndex();
    const live = new Map<number, [number, number]>();
    const initial = Array.from({ length: 2000 }, (_, id) => ({ id, lon: BOX.lon + rnd.next() * BOX.dLon, lat: BOX.lat + rnd.next() * BOX.dLat }));
    idx.load(initial);
    for (const p of initial) live.set(p.id, [p.lon, p.lat]);
    for (let step = 0; step < 3000; step++) {
      const id = rnd.int(2500);
      if (rnd.chance(0.3)) {
        expect(idx.delete(id)).toBe(live.delete(id));
      } else {
        const p: [number, number] = [BOX.lon + rnd.next() * BOX.dLon, BOX.lat + rnd.next() * BOX.dLat];
        idx.set(id, p[0], p[1]);
        live.set(id, p);
      }
    }
    expect(idx.size).toBe(live.size);
    for (let q = 0; q < 100; q++) {
      const lon = BOX.lon + rnd.next() * BOX.dLon;
      const lat = BOX.lat + rnd.next() * BOX.dLat;
      const r = rnd.next() * 3000;
      const expected = [...live.entries()]
        .map(([id, [x, y]]) => ({ id, distance: distanceMetres(lon, lat, x, y) }))
        .filter((h) => h.distance <= r)
        .sort((a, b) => a.distance - b.distance || a.id - b.id);
      expect(idx.within(lon, lat, r).map((h) => h.id)).toEqual(expected.map((h) => h.id));
    }
  });
});

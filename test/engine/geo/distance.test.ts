import { distance as turfDistance, point } from '@turf/turf';
import { describe, expect, it } from 'vitest';
import { bearingDegrees, compass8, COMPASS_8, destination, distanceMetres, metresPerDegree } from '../../../engine/geo/distance.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';

// Meridional and prime-vertical radii of curvature on WGS84, written out independently of the engine.
const a = 6378137;
const f = 1 / 298.257223563;
const e2 = f * (2 - f);
const M = (lat: number) => (a * (1 - e2)) / Math.pow(1 - e2 * Math.sin((lat * Math.PI) / 180) ** 2, 1.5);
const N = (lat: number) => a / Math.sqrt(1 - e2 * Math.sin((lat * Math.PI) / 180) ** 2);

/**
 * Vincenty's inverse formula on WGS84 (T. Vincenty, Survey Review 23(176), 1975): the slow, iterative,
 * obviously-correct reference for geodesic distance (sub-millimetre for non-antipodal points).
 */
function vincenty(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const b = a * (1 - f);
  const L = (lon2 - lon1) * rad;
  const U1 = Math.atan((1 - f) * Math.tan(lat1 * rad));
  const U2 = Math.atan((1 - f) * Math.tan(lat2 * rad));
  const sinU1 = Math.sin(U1), cosU1 = Math.cos(U1), sinU2 = Math.sin(U2), cosU2 = Math.cos(U2);
  let lambda = L;
  let sinSigma = 0, cosSigma = 0, sigma = 0, cos2Alpha = 0, cos2SigmaM = 0;
  for (let iter = 0; iter < 200; iter++) {
    const sinL = Math.sin(lambda), cosL = Math.cos(lambda);
    sinSigma = Math.hypot(cosU2 * sinL, cosU1 * sinU2 - sinU1 * cosU2 * cosL);
    if (sinSigma === 0) return 0;
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinL) / sinSigma;
    cos2Alpha = 1 - sinAlpha * sinAlpha;
    cos2SigmaM = cos2Alpha !== 0 ? cosSigma - (2 * sinU1 * sinU2) / cos2Alpha : 0;
    const C = (f / 16) * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
    const prev = lambda;
    lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
    if (Math.abs(lambda - prev) < 1e-13) break;
  }
  const u2 = (cos2Alpha * (a * a - b * b)) / (b * b);
  const A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
  const B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
  const dSigma = B * sinSigma * (cos2SigmaM + (B / 4) * (cosSigma * (-1 + 2 * cos2SigmaM ** 2) - (B / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
  return b * A * (sigma - dSigma);
}

describe('metresPerDegree', () => {
  it('matches the ellipsoid radii of curvature (M for latitude, N cos(lat) for longitude)', () => {
    for (const lat of [-10, -27.5, -37.8, -43]) {
      const { kx, ky } = metresPerDegree(lat);
      expect(ky).toBeCloseTo((M(lat) * Math.PI) / 180, 6);
      expect(kx).toBeCloseTo((N(lat) * Math.cos((lat * Math.PI) / 180) * Math.PI) / 180, 6);
    }
  });

  it('gives the textbook 110.57 km per degree of latitude at the equator and 111.69 km near the poles', () => {
    expect(metresPerDegree(0).ky / 1000).toBeCloseTo(110.574, 2);
    expect(metresPerDegree(89.9).ky / 1000).toBeCloseTo(111.694, 2);
  });
});

describe('distanceMetres', () => {
  it('is zero for the same point and symmetric', () => {
    expect(distanceMetres(145, -37.8, 145, -37.8)).toBe(0);
    const rnd = seededRandom(7);
    for (let i = 0; i < 200; i++) {
      const p = [140 + rnd.next() * 10, -40 + rnd.next() * 15];
      const q = [p[0] + rnd.range(-0.2, 0.2), p[1] + rnd.range(-0.2, 0.2)];
      expect(distanceMetres(p[0], p[1], q[0], q[1])).toBeCloseTo(distanceMetres(q[0], q[1], p[0], p[1]), 9);
    }
  });

  it('agrees with the meridian arc for a north-south step of 0.01 degrees', () => {
    // Over 0.01 degrees the arc is M(mid) * dphi to better than a micrometre.
    const d = distanceMetres(145, -37.805, 145, -37.795);
    expect(d).toBeCloseTo((M(-37.8) * 0.01 * Math.PI) / 180, 4);
  });

  it('stays within 0.1% of the ellipsoidal geodesic (Vincenty) up to 500 km, and within 0.01% up to 5 km', () => {
    const rnd = seededRandom(11);
    for (let i = 0; i < 500; i++) {
      const lon = rnd.range(113, 153);
      const lat = rnd.range(-43, -10);
      const spread = i % 2 ? 3.2 : 0.03;
      const lon2 = lon + rnd.range(-spread, spread);
      const lat2 = lat + rnd.range(-spread, spread);
      const exact = vincenty(lon, lat, lon2, lat2);
      const err = Math.abs(distanceMetres(lon, lat, lon2, lat2) - exact) / exact;
      expect(err).toBeLessThan(exact < 5000 ? 1e-4 : 1e-3);
    }
  });

  it('differs from turf (a sphere) by no more than the sphere-ellipsoid gap, under 0.7%', () => {
    const rnd = seededRandom(12);
    for (let i = 0; i < 200; i++) {
      const lon = rnd.range(113, 153);
      const lat = rnd.range(-43, -10);
      const lon2 = lon + rnd.range(-0.9, 0.9);
      const lat2 = lat + rnd.range(-0.9, 0.9);
      const turf = turfDistance(point([lon, lat]), point([lon2, lat2]), { units: 'meters' });
      expect(Math.abs(distanceMetres(lon, lat, lon2, lat2) - turf) / turf).toBeLessThan(0.007);
    }
  });
});

describe('bearing and compass', () => {
  it('points due north, east, south and west correctly', () => {
    expect(bearingDegrees(145, -38, 145, -37.9)).toBeCloseTo(0, 9);
    expect(bearingDegrees(145, -38, 145.1, -38)).toBeCloseTo(90, 9);
    expect(bearingDegrees(145, -38, 145, -38.1)).toBeCloseTo(180, 9);
    expect(bearingDegrees(145, -38, 144.9, -38)).toBeCloseTo(270, 9);
  });

  it('maps each 45-degree sector to its compass point, boundaries going clockwise', () => {
    expect(COMPASS_8.map((_, i) => compass8(i * 45))).toEqual(COMPASS_8);
    expect(compass8(22.4)).toBe('N');
    expect(compass8(22.5)).toBe('NE');
    expect(compass8(337.5)).toBe('N');
    expect(compass8(337.4)).toBe('NW');
    expect(compass8(-90)).toBe('W');
    expect(compass8(720 + 135)).toBe('SE');
  });

  it('round-trips through destination to the millimetre within 10 km', () => {
    const rnd = seededRandom(3);
    for (let i = 0; i < 300; i++) {
      const lon = rnd.range(115, 153);
      const lat = rnd.range(-42, -12);
      const dist = rnd.range(1, 10_000);
      const brg = rnd.range(0, 360);
      const [lon2, lat2] = destination(lon, lat, dist, brg);
      expect(Math.abs(distanceMetres(lon, lat, lon2, lat2) - dist)).toBeLessThan(0.001);
      const back = bearingDegrees(lon, lat, lon2, lat2);
      expect(Math.abs(((back - brg + 540) % 360) - 180)).toBeLessThan(1e-6);
    }
  });
});

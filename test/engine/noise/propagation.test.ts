import { describe, expect, it } from 'vitest';
import { cortnBarrierCorrection, cortnPathDifference } from '../../../engine/noise/cortn.js';
import { buildNoiseNetwork, type NoiseNetworkOptions } from '../../../engine/noise/noise-network.js';
import type { RoadInput } from '../../../engine/noise/noise-inputs.js';
import { ENERGY_STRIDE, KIND_ROAD, OFFSET_DEN } from '../../../engine/noise/noise-scene.js';
import { evaluateNoisePoint } from '../../../engine/noise/point-evaluation.js';
import { accumulateReceiverFactors, gridLdenEnergy, subtendedAngle } from '../../../engine/noise/propagation.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';
import { at, northSouth, railLine, road } from './noise-fixtures.js';

const HARD: NoiseNetworkOptions = { groundCover: 0, maxDistanceM: 20_000 };
// An arterial's source line is 7 - 3.5 = 3.5 m east of its centreline for a receiver to the east.
const ARTERIAL_SOURCE_OFFSET = 3.5;

function ldenAt(roads: RoadInput[], dx: number, dy: number, options: NoiseNetworkOptions = HARD): number {
  const net = buildNoiseNetwork({ roads }, options);
  const [lon, lat] = at(dx, dy);
  return evaluateNoisePoint(net, lon, lat).ldenDb;
}

describe('line-source propagation', () => {
  it('a long straight road falls about 3 dB per doubling of distance (hard ground)', () => {
    const longRoad = [northSouth('m', 0, 100_000, { aadt: 20_000 })];
    const net = buildNoiseNetwork({ roads: longRoad }, HARD);
    const level = (d: number) => evaluateNoisePoint(net, ...at(ARTERIAL_SOURCE_OFFSET + d, 0)).ldenDb;
    // Slant distance to the source line sqrt(D^2 + 3.5^2) doubles almost exactly with D; theta ~ 180 deg.
    expect(level(100) - level(200)).toBeCloseTo(3.01, 1);
    expect(level(200) - level(400)).toBeCloseTo(3.01, 1);
    expect(level(400) - level(800)).toBeCloseTo(3.01, 1);
    expect(Math.abs(level(200) - level(400) - 10 * Math.log10(2))).toBeLessThan(0.05);
  });

  it('soft ground adds CoRTN\'s ground attenuation on top of the 3 dB', () => {
    const longRoad = [northSouth('m', 0, 100_000, { aadt: 20_000 })];
    const soft = buildNoiseNetwork({ roads: longRoad }, { groundCover: 1, maxDistanceM: 20_000 });
    const level = (d: number) => evaluateNoisePoint(soft, ...at(ARTERIAL_SOURCE_OFFSET + d, 0)).ldenDb;
    // Ground term 5.2 I lg((6H - 1.5)/(d + 3.5)) grows by 5.2 lg 2 = 1.57 dB per doubling once far enough.
    expect(level(200) - level(400)).toBeGreaterThan(4.3);
    expect(level(200) - level(400)).toBeLessThan(4.8);
  });

  it('a short segment falls about 6 dB per doubling far away (a point source)', () => {
    const short = [road('s', [[0, -10], [0, 10]], { aadt: 20_000 })];
    const net = buildNoiseNetwork({ roads: short }, HARD);
    const level = (d: number) => evaluateNoisePoint(net, ...at(d, 0)).ldenDb;
    expect(level(400) - level(800)).toBeCloseTo(6.02, 1);
    expect(level(800) - level(1600)).toBeCloseTo(6.02, 1);
  });

  it('two equal roads sum to +3 dB', () => {
    const west = northSouth('w', -150, 5000, { aadt: 15_000 });
    const east = northSouth('e', 150, 5000, { aadt: 15_000 });
    const one = ldenAt([west], 0, 0);
    const both = ldenAt([west, east], 0, 0);
    expect(both - one).toBeCloseTo(10 * Math.log10(2), 6);
    // A road four times as busy is +6 dB.
    expect(ldenAt([northSouth('w', -150, 5000, { aadt: 60_000 })], 0, 0) - one).toBeCloseTo(6.0206, 3);
  });

  it('the angle of view: a road ending beside the receiver gives half the energy (-3 dB)', () => {
    const full = ldenAt([road('f', [[0, -50_000], [0, 50_000]], { aadt: 20_000 })], ARTERIAL_SOURCE_OFFSET + 60, 0);
    const half = ldenAt([road('h', [[0, 0], [0, 50_000]], { aadt: 20_000 })], ARTERIAL_SOURCE_OFFSET + 60, 0);
    expect(full - half).toBeCloseTo(3.01, 1);
  });

  it('a receiver on the road is finite: CoRTN\'s 4 m minimum distance applies', () => {
    const l = ldenAt([northSouth('m', 0, 5000, { aadt: 20_000 })], 0, 0);
    expect(Number.isFinite(l)).toBe(true);
    expect(l).toBeCloseTo(ldenAt([northSouth('m', 0, 5000, { aadt: 20_000 })], 7 + 4, 0), 6); // 4 m past the 7 m half-width
  });

  it('a noise wall replaces the ground term with the Chart 9 barrier correction behind it, and does nothing in front', () => {
    const wall = { aadt: 60_000, roadClass: 'motorway' as const, barrierHeightM: 4, barrierOffsetM: 20 };
    const walled = [northSouth('m', 0, 100_000, wall)];
    const open = [northSouth('m', 0, 100_000, { aadt: 60_000, roadClass: 'motorway' })];
    // Motorway half-width 11 m: source line at 7.5 m from the centreline, 0.5 m up; receiver 4 m up.
    const perp = 60;
    const { delta, shadow } = cortnPathDifference({ sourceToBarrier: 20 - 7.5, barrierToReceiver: perp - 20, barrierHeight: 4 - 0.5, receiverHeight: 4 - 0.5 });
    expect(shadow).toBe(true);
    const expected = cortnBarrierCorrection(delta, shadow); // hard ground: the ground term would be 0
    expect(ldenAt(walled, perp, 0) - ldenAt(open, perp, 0)).toBeCloseTo(expected, 2);
    expect(expected).toBeLessThan(-5);
    // In front of the wall (between road and wall) nothing changes.
    expect(ldenAt(walled, 15, 0)).toBeCloseTo(ldenAt(open, 15, 0), 10);
  });

  it('rail lines are line sources too, with the Schall 03 reference at 25 m', () => {
    const net = buildNoiseNetwork({ roads: [], rail: [railLine('r', 'rail', [[0, -100_000], [0, 100_000]], { servicesPerDay: 200, speedKmh: 80 })] }, HARD);
    const l25 = evaluateNoisePoint(net, ...at(25, 0)).ldenDb;
    const l50 = evaluateNoisePoint(net, ...at(50, 0)).ldenDb;
    expect(l25).toBeCloseTo(net.features[0].emission.lden, 1);
    expect(l25 - l50).toBeCloseTo(3.01, 1);
  });
});

describe('the subtended angle', () => {
  it('matches Math.atan2 within 2e-6 rad (and 3e-5 relative) over the half plane y >= 0', () => {
    const rnd = seededRandom(2);
    let maxAbs = 0, maxRel = 0;
    for (let i = 0; i < 200_000; i++) {
      const y = rnd.next() * 10 ** rnd.range(-3, 4);
      const x = (rnd.next() - 0.5) * 10 ** rnd.range(-3, 4);
      const ref = Math.atan2(y, x);
      const err = Math.abs(subtendedAngle(y, x) - ref);
      maxAbs = Math.max(maxAbs, err);
      if (ref > 0) maxRel = Math.max(maxRel, err / ref);
    }
    expect(maxAbs).toBeLessThan(2e-6);
    expect(maxRel).toBeLessThan(3e-5);
    expect(subtendedAngle(0, 5)).toBe(0);
    expect(subtendedAngle(1, 0)).toBeCloseTo(Math.PI / 2, 12);
  });
});

describe('the grid kernel', () => {
  it('equals the per-receiver sums it shares its set-up across (with walls, rail and soft ground)', () => {
    const rnd = seededRandom(11);
    const roads: RoadInput[] = [];
    for (let i = 0; i < 40; i++) {
      const x = rnd.range(-2000, 2000), y = rnd.range(-2000, 2000);
      const pts: [number, number][] = [[x, y]];
      for (let k = 0; k < 4; k++) pts.push([pts[k][0] + rnd.range(-300, 300), pts[k][1] + rnd.range(-300, 300)]);
      roads.push(road(`r${i}`, pts, { roadClass: rnd.pick(['motorway', 'arterial', 'collector', 'local'] as const), ...(i % 7 === 0 ? { barrierHeightM: 3, barrierOffsetM: 25 } : {}) }));
    }
    const rail = [railLine('t', 'tram', [[-1500, -1500], [1500, 1500]])];
    const net = buildNoiseNetwork({ roads, rail }, { groundCover: 0.6, maxDistanceM: 1500 });
    const scene = net.scene;
    const xs: number[] = [], ys: number[] = [];
    for (let i = 0; i < 25; i++) {
      xs.push(scene.segments[0] + rnd.range(-1500, 1500));
      ys.push(scene.segments[1] + rnd.range(-1500, 1500));
    }
    const roadOut = new Float64Array(xs.length);
    const other = new Float64Array(xs.length);
    gridLdenEnergy(scene, xs, ys, roadOut, other);
    const factors = new Float64Array(scene.featureCount);
    let heardTram = 0;
    for (let j = 0; j < xs.length; j++) {
      const touched: number[] = [];
      accumulateReceiverFactors(scene, xs[j], ys[j], factors, touched);
      let eRoad = 0, eOther = 0;
      for (const f of touched) {
        const e = factors[f] * scene.featureEnergy[f * ENERGY_STRIDE + OFFSET_DEN];
        if (scene.featureKind[f] === KIND_ROAD) eRoad += e;
        else eOther += e;
        factors[f] = 0;
      }
      // Road and rail/tram land in their own outputs (the transfer relation scales road only).
      expect(roadOut[j]).toBeGreaterThan(0);
      expect(Math.abs(roadOut[j] - eRoad) / eRoad).toBeLessThan(1e-12);
      if (eOther > 0) heardTram++;
      expect(Math.abs(other[j] - eOther)).toBeLessThanOrEqual(eOther * 1e-12);
    }
    expect(heardTram).toBeGreaterThan(0);
  });
});

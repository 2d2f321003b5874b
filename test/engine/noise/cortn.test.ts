import { describe, expect, it } from 'vitest';
import {
  cortnAngleOfViewCorrection,
  cortnBarrierCorrection,
  cortnBasicLevelHourly,
  cortnDistanceCorrection,
  cortnGradientCorrection,
  cortnGradientSpeedReduction,
  cortnGroundCorrection,
  cortnPathDifference,
  cortnReferenceL10,
  cortnScreenedPathCorrection,
  cortnSlantDistance,
  cortnSpeedHeavyCorrection,
} from '../../../engine/noise/cortn.js';
import { periodShares } from '../../../engine/noise/diurnal-profile.js';
import { roadEmission } from '../../../engine/noise/road-emission.js';

describe('CoRTN terms, hand-worked', () => {
  it('basic hourly level: L10 = 42.2 + 10 lg q', () => {
    // q = 1000 veh/h: 42.2 + 10 * 3 = 72.2
    expect(cortnBasicLevelHourly(1000)).toBeCloseTo(72.2, 10);
    // Doubling the flow adds 10 lg 2 = 3.01 dB.
    expect(cortnBasicLevelHourly(2000) - cortnBasicLevelHourly(1000)).toBeCloseTo(3.0103, 4);
  });

  it('speed and heavy vehicles move the level as 33 lg(V + 40 + 500/V) + 10 lg(1 + 5p/V) - 68.8', () => {
    // V = 50, p = 10: V + 40 + 500/V = 100 -> 33 lg 100 = 66; 1 + 5*10/50 = 2 -> 10 lg 2 = 3.0103;
    // 66 + 3.0103 - 68.8 = 0.2103
    expect(cortnSpeedHeavyCorrection(50, 10)).toBeCloseTo(0.2103, 4);
    // Cars only at 50 km/h: 66 + 0 - 68.8 = -2.8
    expect(cortnSpeedHeavyCorrection(50, 0)).toBeCloseTo(-2.8, 10);
    // V = 100, p = 10: 100 + 40 + 5 = 145 -> 33 lg 145 = 71.3252; 1 + 50/100 = 1.5 -> 1.7609;
    // 71.3252 + 1.7609 - 68.8 = 4.2861: doubling the speed adds 4.08 dB here
    expect(cortnSpeedHeavyCorrection(100, 10)).toBeCloseTo(4.2861, 4);
    // V = 50, p = 20: 1 + 100/50 = 3 -> 4.7712; 66 + 4.7712 - 68.8 = 1.9712 (+1.76 dB for twice the lorries)
    expect(cortnSpeedHeavyCorrection(50, 20)).toBeCloseTo(1.9712, 4);
  });

  it('gradient: speed falls by [0.73 + (2.3 - 1.15 p/100) p/100] G and the level rises 0.3 G', () => {
    // G = 5 %, p = 10: (0.73 + (2.3 - 0.115) * 0.1) * 5 = (0.73 + 0.2185) * 5 = 4.7425 km/h
    expect(cortnGradientSpeedReduction(5, 10)).toBeCloseTo(4.7425, 10);
    expect(cortnGradientCorrection(5)).toBeCloseTo(1.5, 10);
    expect(cortnGradientCorrection(-5)).toBeCloseTo(1.5, 10); // two-way flow: the sign does not matter
    // q = 1000, V = 50 - 4.7425 = 45.2575, p = 10: 72.2 + (33 lg 96.3053 + 10 lg 2.1048 - 68.8) + 1.5 = 73.5926
    expect(cortnReferenceL10({ flowPerHour: 1000, speedKmh: 50, heavyPct: 10, gradientPct: 5 })).toBeCloseTo(73.5926, 3);
    // Flat: 72.2 + 0.2103 = 72.4103
    expect(cortnReferenceL10({ flowPerHour: 1000, speedKmh: 50, heavyPct: 10 })).toBeCloseTo(72.4103, 4);
  });

  it('distance: d\' = sqrt((d + 3.5)^2 + h^2) and -10 lg(d\'/13.5)', () => {
    expect(cortnSlantDistance(10, 0)).toBeCloseTo(13.5, 10);
    expect(cortnDistanceCorrection(cortnSlantDistance(10, 0))).toBeCloseTo(0, 10);
    // d = 23.5: d + 3.5 = 27 = 2 * 13.5 -> -3.0103 dB
    expect(cortnDistanceCorrection(cortnSlantDistance(23.5, 0))).toBeCloseTo(-3.0103, 4);
    // h = 3.5 (a 4 m receiver over a 0.5 m source): d' = sqrt(13.5^2 + 3.5^2) = 13.946 -> -0.1413 dB
    expect(cortnDistanceCorrection(cortnSlantDistance(10, 3.5))).toBeCloseTo(-0.1413, 4);
    // Closer than 4 m from the kerb is taken at 4 m.
    expect(cortnSlantDistance(1, 0)).toBeCloseTo(7.5, 10);
  });

  it('ground cover: 5.2 I lg(3/(d + 3.5)) low, 5.2 I lg((6H - 1.5)/(d + 3.5)) higher, 0 high above', () => {
    // d = 96.5, H = 0.5, I = 1: 5.2 lg(3/100) = 5.2 * -1.5229 = -7.9190
    expect(cortnGroundCorrection(96.5, 0.5, 1)).toBeCloseTo(-7.919, 3);
    // d = 96.5, H = 2.25, I = 0.5: 2.6 lg(12/100) = 2.6 * -0.9208 = -2.3941
    expect(cortnGroundCorrection(96.5, 2.25, 0.5)).toBeCloseTo(-2.3941, 3);
    // d = 4: (d + 5)/6 = 1.5 <= H = 2.25 -> no correction
    expect(cortnGroundCorrection(4, 2.25, 1)).toBe(0);
    expect(cortnGroundCorrection(500, 2.25, 0)).toBe(0); // all hard ground
  });

  it('angle of view: 10 lg(theta/180)', () => {
    expect(cortnAngleOfViewCorrection(180)).toBeCloseTo(0, 10);
    expect(cortnAngleOfViewCorrection(90)).toBeCloseTo(-3.0103, 4);
  });

  it('barrier: Chart 9a polynomials in x = lg(delta)', () => {
    // delta = 1 m (x = 0): shadow -15.4, illuminated 0
    expect(cortnBarrierCorrection(1, true)).toBeCloseTo(-15.4, 10);
    expect(cortnBarrierCorrection(1, false)).toBeCloseTo(0, 10);
    // delta = 0.1 m (x = -1): -15.4 + 8.26 - 2.787 + 0.831 - 0.198 - 0.1539 + 0.12248 - 0.02175 = -9.34717
    expect(cortnBarrierCorrection(0.1, true)).toBeCloseTo(-9.34717, 5);
    // illuminated: -0.109 - 0.815 - 0.479 + 0.3284 - 0.04385 = -1.11845
    expect(cortnBarrierCorrection(0.1, false)).toBeCloseTo(-1.11845, 5);
    // Limits: -5 below x = -3, -30 above x = 1.2 (shadow)
    expect(cortnBarrierCorrection(1e-4, true)).toBe(-5);
    expect(cortnBarrierCorrection(100, true)).toBe(-30);
    // Deeper shadow (larger path difference) always screens more
    let prev = 0;
    for (const d of [0.001, 0.01, 0.1, 1, 5, 15]) {
      const a = cortnBarrierCorrection(d, true);
      expect(a).toBeLessThan(prev);
      prev = a;
    }
  });

  it('barrier geometry: path difference over the wall top', () => {
    // 10 m each side of a wall 3 m above the source line, receiver level with the source:
    // SB = BR = sqrt(100 + 9) = 10.4403, SR = 20 -> delta = 0.8806, in the shadow
    const r = cortnPathDifference({ sourceToBarrier: 10, barrierToReceiver: 10, barrierHeight: 3, receiverHeight: 0 });
    expect(r.delta).toBeCloseTo(0.8806, 4);
    expect(r.shadow).toBe(true);
    // A low wall under a high receiver's sight line: illuminated
    expect(cortnPathDifference({ sourceToBarrier: 10, barrierToReceiver: 10, barrierHeight: 1, receiverHeight: 10 }).shadow).toBe(false);
  });

  it('uses the barrier or the ground term, never both: the more attenuating one', () => {
    expect(cortnScreenedPathCorrection(-8, -3)).toBe(-8);
    expect(cortnScreenedPathCorrection(-1, -3)).toBe(-3);
  });
});

describe('road emission', () => {
  it('reproduces a hand-worked Lden from a flat 24-hour profile', () => {
    // AADT 24,000 spread evenly: q = 1000 veh/h in every hour; V = 50, p = 10 %:
    // L10 = 72.2 + 0.2103 = 72.4103, LAeq = L10 - 3 = 69.4103 in every period;
    // Lden = 69.4103 + 10 lg((12 + 4 * 10^0.5 + 8 * 10) / 24) = 69.4103 + 6.3952 = 75.8055
    const flat = periodShares(new Array(24).fill(1 / 24));
    const e = roadEmission({ aadt: 24_000, heavyShare: 0.1, speedKmh: 50, gradientPct: 0 }, flat);
    expect(e.ld).toBeCloseTo(69.4103, 4);
    expect(e.le).toBeCloseTo(69.4103, 4);
    expect(e.ln).toBeCloseTo(69.4103, 4);
    expect(e.lden).toBeCloseTo(75.8055, 3);
    expect(e.referenceDistanceM).toBe(13.5);
  });

  it('gives silence, not NaN, for a road without traffic', () => {
    const e = roadEmission({ aadt: 0, heavyShare: 0.05, speedKmh: 50, gradientPct: 0 }, periodShares(new Array(24).fill(1 / 24)));
    expect(e.lden).toBe(-Infinity);
    expect(Number.isNaN(e.ld)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { anefBandValue, anefToLden, loudestBand } from '../../../engine/noise/aircraft.js';
import { energySumDb, reportDb } from '../../../engine/noise/decibels.js';
import { DEFAULT_RAIL_SHARES, DEFAULT_ROAD_PROFILE, diurnalProfile, meanHourlyFlows, periodShares } from '../../../engine/noise/diurnal-profile.js';
import { ldenEnergy, ldenFromPeriods, ldenPeriodOfHour } from '../../../engine/noise/lden.js';
import { noiseScoreFromLden } from '../../../engine/noise/noise-score-scale.js';
import { railEmission, schall03EmissionLevel } from '../../../engine/noise/rail-emission.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';

describe('decibel sums and Lden', () => {
  it('two equal sources sum to +3 dB, ten to +10 dB', () => {
    expect(energySumDb([60, 60])).toBeCloseTo(63.0103, 4);
    expect(energySumDb(new Array(10).fill(55))).toBeCloseTo(65, 10);
    expect(energySumDb([])).toBe(-Infinity);
    expect(reportDb(-Infinity)).toBeNull();
  });

  it('Lden of Directive 2002/49/EC: a constant level L gives L + 10 lg((12 + 4*10^0.5 + 8*10)/24) = L + 6.395', () => {
    expect(ldenFromPeriods(60, 60, 60)).toBeCloseTo(66.3952, 4);
    // Only the night: 8 h at L + 10 over 24 h -> L + 10 + 10 lg(8/24) = L + 5.229
    expect(ldenFromPeriods(-Infinity, -Infinity, 50)).toBeCloseTo(55.2288, 4);
    // The weighting is linear in energy, so Lden of a sum is the sum of Lden energies.
    const a = ldenEnergy(1, 2, 3), b = ldenEnergy(4, 5, 6);
    expect(ldenEnergy(5, 7, 9)).toBeCloseTo(a + b, 12);
  });

  it('assigns hours to the Annex I periods: day 07-19, evening 19-23, night 23-07', () => {
    const periods = Array.from({ length: 24 }, (_, h) => ldenPeriodOfHour(h));
    expect(periods.filter((p) => p === 'day')).toHaveLength(12);
    expect(periods.filter((p) => p === 'evening')).toHaveLength(4);
    expect(periods.filter((p) => p === 'night')).toHaveLength(8);
    expect(periods[7]).toBe('day');
    expect(periods[19]).toBe('evening');
    expect(periods[23]).toBe('night');
    expect(periods[6]).toBe('night');
  });
});

describe('diurnal profiles', () => {
  it('the default road profile sums to 1 and peaks in the day', () => {
    expect(DEFAULT_ROAD_PROFILE.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const s = periodShares(DEFAULT_ROAD_PROFILE);
    expect(s.day + s.evening + s.night).toBeCloseTo(1, 12);
    expect(s.day).toBeCloseTo(0.767, 3);
    expect(s.evening).toBeCloseTo(0.136, 3);
    expect(s.night).toBeCloseTo(0.097, 3);
  });

  it('mean hourly flows: share of the day over the period hours', () => {
    // 12,000 vehicles, half in the day: 6000 / 12 h = 500 veh/h
    const q = meanHourlyFlows(12_000, { day: 0.5, evening: 0.25, night: 0.25 });
    expect(q).toEqual({ day: 500, evening: 750, night: 375 });
  });

  it('rejects a malformed profile naming the parameter', async () => {
    await expectEngineError(() => diurnalProfile([1, 2, 3]), 'INVALID_ARGUMENT', /24 hourly values/);
    await expectEngineError(() => diurnalProfile(new Array(24).fill(-1)), 'INVALID_ARGUMENT', /non-negative/);
    expect(diurnalProfile(new Array(24).fill(2))[5]).toBeCloseTo(1 / 24, 12);
  });
});

describe('rail emission (Schall 03, 1990)', () => {
  it('is 51 dB for one 100 m disc-braked train per hour at 100 km/h, +3 dB per doubled train length, +6 dB per doubled speed', () => {
    expect(schall03EmissionLevel(1, 100, 100, 100)).toBeCloseTo(51, 10);
    expect(schall03EmissionLevel(2, 100, 100, 100)).toBeCloseTo(54.0103, 4);
    expect(schall03EmissionLevel(1, 100, 200, 100)).toBeCloseTo(57.0206, 4);
    // Tread-braked (p = 0): 10 lg 5 = +6.99 dB
    expect(schall03EmissionLevel(1, 100, 100, 0)).toBeCloseTo(57.9897, 4);
    expect(schall03EmissionLevel(0, 100, 100, 100)).toBe(-Infinity);
  });

  it('trams below 50 km/h are taken at 50 km/h', () => {
    const slow = railEmission({ mode: 'tram', servicesPerDay: 200, speedKmh: 20 }, DEFAULT_RAIL_SHARES);
    const fifty = railEmission({ mode: 'tram', servicesPerDay: 200, speedKmh: 50 }, DEFAULT_RAIL_SHARES);
    expect(slow.lden).toBeCloseTo(fifty.lden, 10);
    expect(slow.referenceDistanceM).toBe(25);
  });
});

describe('aircraft from ANEF', () => {
  it('uses the band midpoint, or the lower edge of the open band, plus 35 dB', () => {
    expect(anefBandValue({ anefMin: 20, anefMax: 25 })).toBe(22.5);
    expect(anefBandValue({ anefMin: 40, anefMax: null })).toBe(40);
    expect(anefToLden(22.5)).toBe(57.5);
    expect(loudestBand([{ anefMin: 20, anefMax: 25 }, { anefMin: 25, anefMax: 30 }])).toEqual({ anefMin: 25, anefMax: 30 });
    expect(loudestBand([])).toBeNull();
  });
});

describe('the 0-100 score', () => {
  it('is 2.5 points per dB from 40 dB (0) to 80 dB (100), clamped', () => {
    expect(noiseScoreFromLden(40)).toBe(0);
    expect(noiseScoreFromLden(53)).toBe(32.5);
    expect(noiseScoreFromLden(80)).toBe(100);
    expect(noiseScoreFromLden(30)).toBe(0);
    expect(noiseScoreFromLden(95)).toBe(100);
    expect(noiseScoreFromLden(-Infinity)).toBeNull();
  });
});

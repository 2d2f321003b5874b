/**
 * Worked cases against AS 3959-2009 Method 1 tables (as transcribed by Geoscience Australia's BAL toolbox,
 * utilities/bal_database.py). Each case names its table, row (vegetation, slope) and the cell's distance
 * limits, and checks distances either side of the limits.
 */
import { describe, expect, it } from 'vitest';
import { FDI_TABLE, fdiForState, method1Bal, method1Limits, slopeClassOf } from '../../../../engine/scores/bushfire/as3959-method1.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';

describe('AS 3959-2009 Method 1 worked cases', () => {
  it('Table 2.4.2 (FDI 100), forest, upslope/flat: FZ < 19, 40 19-<25, 29 25-<35, 19 35-<48, 12.5 48-<100', () => {
    expect(FDI_TABLE[100]).toBe('Table 2.4.2');
    expect(method1Limits(100, 'forest', 'upslope_or_flat')).toEqual([19, 25, 35, 48]);
    expect([0, 18.9, 19, 24.9, 25, 34, 35, 47.9, 48, 99.9, 100, 150].map((d) => method1Bal(100, 'forest', 'upslope_or_flat', d))).toEqual([
      'BAL-FZ', 'BAL-FZ', 'BAL-40', 'BAL-40', 'BAL-29', 'BAL-29', 'BAL-19', 'BAL-19', 'BAL-12.5', 'BAL-12.5', 'BAL-LOW', 'BAL-LOW',
    ]);
  });

  it('Table 2.4.2 (FDI 100), woodland, downslope >5-10 deg: limits 20, 26, 37, 50', () => {
    expect(method1Limits(100, 'woodland', 'downslope_5_10')).toEqual([20, 26, 37, 50]);
    expect(method1Bal(100, 'woodland', slopeClassOf(7), 36)).toBe('BAL-29');
    expect(method1Bal(100, 'woodland', slopeClassOf(7), 37)).toBe('BAL-19');
  });

  it('Table 2.4.2 (FDI 100), forest, downslope >15-20 deg: limits 50, 61, 78, 98', () => {
    expect(method1Bal(100, 'forest', slopeClassOf(20), 77)).toBe('BAL-29'); // 20 deg is in the >15-20 class
    expect(method1Bal(100, 'forest', slopeClassOf(18), 98)).toBe('BAL-12.5');
    expect(method1Bal(100, 'forest', slopeClassOf(18), 49)).toBe('BAL-FZ');
  });

  it('Table 2.4.3 (FDI 80), scrub, upslope/flat: limits 10, 13, 19, 27', () => {
    expect(FDI_TABLE[80]).toBe('Table 2.4.3');
    expect(method1Bal(80, 'scrub', 'upslope_or_flat', 12)).toBe('BAL-40');
    expect(method1Bal(80, 'scrub', 'upslope_or_flat', 26)).toBe('BAL-19');
    expect(method1Bal(80, 'scrub', 'upslope_or_flat', 27)).toBe('BAL-12.5');
  });

  it('Table 2.4.4 (FDI 50), rainforest, downslope >10-15 deg: limits 9, 13, 19, 28', () => {
    expect(method1Limits(50, 'rainforest', 'downslope_10_15')).toEqual([9, 13, 19, 28]);
    expect(method1Bal(50, 'rainforest', slopeClassOf(12.5), 8)).toBe('BAL-FZ');
    expect(method1Bal(50, 'rainforest', slopeClassOf(12.5), 18)).toBe('BAL-29');
  });

  it('Table 2.4.5 (FDI 40), mallee/mulga, downslope >0-5 deg: limits 7, 9, 13, 20', () => {
    expect(FDI_TABLE[40]).toBe('Table 2.4.5');
    expect(method1Bal(40, 'mallee_mulga', slopeClassOf(3), 8)).toBe('BAL-40');
    expect(method1Bal(40, 'mallee_mulga', slopeClassOf(3), 19)).toBe('BAL-19');
  });

  it('grassland is assessed to 50 m outside FDI 50 areas and to 100 m in them', () => {
    // FDI 100 grassland upslope/flat: 6, 9, 13, 19; FDI 50: 7, 9, 14, 20.
    expect(method1Bal(100, 'grassland', 'upslope_or_flat', 30)).toBe('BAL-12.5');
    expect(method1Bal(100, 'grassland', 'upslope_or_flat', 50)).toBe('BAL-LOW');
    expect(method1Bal(50, 'grassland', 'upslope_or_flat', 60)).toBe('BAL-12.5');
    expect(method1Bal(50, 'grassland', 'upslope_or_flat', 6.5)).toBe('BAL-FZ');
  });

  it('Method 1 does not apply beyond 20 deg downslope; low-threat vegetation is BAL-LOW', () => {
    expect(slopeClassOf(20.01)).toBe('downslope_over_20');
    expect(method1Bal(100, 'forest', 'downslope_over_20', 40)).toBeNull();
    expect(method1Bal(100, 'forest', 'downslope_over_20', 120)).toBe('BAL-LOW'); // beyond the assessment distance
    expect(method1Bal(100, 'low_threat', 'upslope_or_flat', 0)).toBe('BAL-LOW');
  });

  it('slope classes put the upper bound inside: 0 is flat, 5 is >0-5, 5.01 is >5-10; upslope is negative', () => {
    expect([-8, 0, 0.1, 5, 5.01, 10, 15, 20].map(slopeClassOf)).toEqual([
      'upslope_or_flat', 'upslope_or_flat', 'downslope_0_5', 'downslope_0_5', 'downslope_5_10', 'downslope_5_10', 'downslope_10_15', 'downslope_15_20',
    ]);
  });

  it('uses AS 3959-2009 Table 2.1 FDIs, the higher one where a state has districts', () => {
    expect(['VIC', 'NSW', 'ACT', 'QLD', 'NT', 'SA', 'WA', 'TAS', 'vic', 'XX'].map(fdiForState)).toEqual([100, 100, 100, 40, 40, 80, 80, 50, 100, null]);
  });

  it('rejects a negative distance and an FDI with no table', async () => {
    await expectEngineError(() => method1Bal(100, 'forest', 'upslope_or_flat', -1), 'INVALID_ARGUMENT', /distance/);
    await expectEngineError(() => method1Limits(70 as never, 'forest', 'upslope_or_flat'), 'INVALID_ARGUMENT', /FDI 70/);
  });
});

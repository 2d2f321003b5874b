import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../engine/random/seeded-random.js';
import { contourFeature, coordinateJsonLength, featureJsonLength, roundCoordinate } from '../../../../engine/surfaces/contours/feature-size.js';
import { applyLimits, CONTOUR_LINE_CAP, MAX_FEATURE_BYTES, MAX_LAYER_BYTES, truncatedNote } from '../../../../engine/surfaces/contours/limits.js';
import { NO_LIMITS, SPEC_LIMITS } from '../../../../engine/surfaces/contours/request.js';

describe('feature sizes', () => {
  it('counts a rounded coordinate exactly as JSON.stringify writes it (reference: JSON.stringify)', () => {
    const rnd = seededRandom(1);
    const samples = [0, -0, 1, -1, 0.5, 145, -37.8, 100.000001, -0.000001, 0.1 + 0.2, 144.9999995, -37.0000004];
    for (let i = 0; i < 5000; i++) samples.push(rnd.range(-180, 180), rnd.range(-1, 1), Math.round(rnd.range(-1e4, 1e4)));
    for (const s of samples) {
      const v = roundCoordinate(s);
      expect(coordinateJsonLength(v), String(v)).toBe(JSON.stringify(v).length);
    }
  });

  it('counts a whole feature exactly (reference: JSON.stringify of the feature)', () => {
    const rnd = seededRandom(8);
    for (let i = 0; i < 50; i++) {
      const n = 2 + rnd.int(40);
      const xy = Float64Array.from({ length: 2 * n }, (_, k) => roundCoordinate(k % 2 ? rnd.range(-44, -10) : rnd.range(113, 154)));
      const elevation = rnd.pick([5, 12.5, -3, 0, 1234.25]);
      expect(featureJsonLength(elevation, xy, 0, n)).toBe(JSON.stringify(contourFeature(elevation, xy, 0, n)).length);
    }
  });
});

describe('limits, in the spec order', () => {
  it('are the documented constants', () => {
    expect(CONTOUR_LINE_CAP).toBe(1200);
    expect(MAX_FEATURE_BYTES).toBe(256 * 1024);
    expect(MAX_LAYER_BYTES).toBe(4 * 1024 * 1024);
    expect(SPEC_LIMITS).toMatchObject({ maxLines: 1200, maxFeatureBytes: MAX_FEATURE_BYTES, maxLayerBytes: MAX_LAYER_BYTES });
  });

  it('(1) the cap keeps the first 1,200 lines in source order and counts none as segments dropped', () => {
    const n = 1500;
    const out = applyLimits(new Float64Array(n).fill(10), new Float64Array(n).fill(100), SPEC_LIMITS);
    expect(out.keep).toEqual(Array.from({ length: 1200 }, (_, i) => i));
    expect(out).toMatchObject({ capDropped: 300, featureDropped: 0, budgetDropped: 0 });
  });

  it('(2) drops a line over the per-feature limit even when it is the only line', () => {
    expect(applyLimits([10], [MAX_FEATURE_BYTES + 1], SPEC_LIMITS)).toEqual({ keep: [], capDropped: 0, featureDropped: 1, budgetDropped: 0 });
    expect(applyLimits([10, 20], [MAX_FEATURE_BYTES, 5], SPEC_LIMITS).keep).toEqual([0, 1]); // at the limit is kept
  });

  it('(3) drops band by band in rotation, each band\'s last line first, until the layer fits', () => {
    // Nine 100-byte lines in three bands (10: lines 0 3 6; 20: 1 4 7; 30: 2 5 8): 900 bytes + 8 separators.
    const elevation = [10, 20, 30, 10, 20, 30, 10, 20, 30];
    const bytes = new Array(9).fill(100);
    // Budget 750: drop 6 (band 10) -> 807, drop 7 (band 20) -> 706, which fits.
    expect(applyLimits(elevation, bytes, { maxLines: 1200, maxFeatureBytes: 1000, maxLayerBytes: 750 })).toEqual({ keep: [0, 1, 2, 3, 4, 5, 8], capDropped: 0, featureDropped: 0, budgetDropped: 2 });
    // Budget 300: 908 -> 807 -> 706 -> 605 (first round) -> 504 (line 3) -> 403 (4) -> 302 (5) -> 201 (0).
    expect(applyLimits(elevation, bytes, { maxLines: 1200, maxFeatureBytes: 1000, maxLayerBytes: 300 }).keep).toEqual([1, 2]);
  });

  it('apply the cap before the size rules', () => {
    // 1,201 lines: the last (huge) one goes to the cap, so nothing counts as dropped for size.
    const bytes = new Array(1201).fill(10);
    bytes[1200] = MAX_FEATURE_BYTES * 2;
    const out = applyLimits(new Array(1201).fill(5), bytes, SPEC_LIMITS);
    expect(out).toMatchObject({ capDropped: 1, featureDropped: 0, budgetDropped: 0 });
  });

  it('keep everything with no limits', () => {
    expect(applyLimits([1, 2, 3], [1e9, 1e9, 1e9], NO_LIMITS).keep).toEqual([0, 1, 2]);
  });

  it('explain a truncation in three parts: drops, range, remedy', () => {
    const spanned = truncatedNote({ lines: 1500, capDropped: 300, sizeDropped: 0, fullRange: [20, 145], deliveredRange: [20, 145], interval: 5, maxLines: 1200 });
    expect(spanned).toMatch(/^300 of 1500 contour lines were left out: 300 beyond the 1,200-line cap .* and 0 dropped for size/);
    expect(spanned).toMatch(/still span the window's full elevation range, 20 m to 145 m\./);
    expect(spanned).toMatch(/coarser contour_interval_m \(for example 10\)\.$/);
    const cut = truncatedNote({ lines: 10, capDropped: 0, sizeDropped: 4, fullRange: [0, 50], deliveredRange: [10, 40], interval: 2.5, maxLines: 1200 });
    expect(cut).toMatch(/no longer span the window's full elevation range: they cover 10 m to 40 m of 0 m to 50 m/);
    expect(cut).toMatch(/for example 5\)/);
    expect(truncatedNote({ lines: 1, capDropped: 0, sizeDropped: 1, fullRange: [50, 50], deliveredRange: null, interval: 50, maxLines: 1200 })).toMatch(/No lines were delivered/);
  });
});

import { describe, expect, it } from 'vitest';
import { AUTO_MAX_LEVELS, chooseInterval, countLevels, DEFAULT_INTERVAL_M, isMultipleOf, levelsInRange, MAX_LEVELS, validateInterval } from '../../../../engine/surfaces/contours/interval.js';
import { seededRandom } from '../../../../engine/random/seeded-random.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';

describe('contour_interval_m validation', () => {
  it('accepts no value and numbers in (0, 200]', () => {
    expect(validateInterval(undefined)).toBeUndefined();
    expect(validateInterval(null)).toBeUndefined();
    expect(validateInterval(0.1)).toBe(0.1);
    expect(validateInterval(200)).toBe(200);
  });

  it.each([0, -1, 200.5, 1000, NaN, Infinity, '5', true])('rejects %s with INVALID_ARGUMENT naming contour_interval_m', async (bad) => {
    const e = await expectEngineError(() => validateInterval(bad), 'INVALID_ARGUMENT', /contour_interval_m/);
    expect(e.details.parameter).toBe('contour_interval_m');
  });
});

describe('levels', () => {
  it('are the multiples of the interval strictly above the minimum and up to the maximum', () => {
    expect([...levelsInRange(0.3, 10.2, 2.5)]).toEqual([2.5, 5, 7.5, 10]);
    // A level equal to the minimum has nothing below it: no line. One equal to the maximum does.
    expect([...levelsInRange(5, 15, 5)]).toEqual([10, 15]);
    expect([...levelsInRange(-7, 3, 5)]).toEqual([-5, 0]);
    // Decimal intervals give decimal levels, not 0.30000000000000004.
    expect([...levelsInRange(0.25, 0.55, 0.1)]).toEqual([0.3, 0.4, 0.5]);
  });

  it('are counted arithmetically without building them (seeded property check)', () => {
    const rnd = seededRandom(3);
    for (let i = 0; i < 2000; i++) {
      const min = rnd.range(-50, 500);
      const max = min + rnd.range(0, 300);
      const interval = rnd.pick([0.5, 1, 2, 2.5, 5, 10, 20, 25, 50]);
      expect(countLevels(min, max, interval)).toBe(levelsInRange(min, max, interval).length);
    }
  });

  it('knows multiples, to a millionth of the interval', () => {
    expect(isMultipleOf(12.5, 2.5)).toBe(true);
    expect(isMultipleOf(0.3, 0.1)).toBe(true);
    expect(isMultipleOf(15, 10)).toBe(false);
    expect(isMultipleOf(-20, 10)).toBe(true);
  });
});

describe('choosing the interval', () => {
  const dem = (min: number, max: number) => (i: number) => countLevels(min, max, i);

  it('auto: the default 5 m when nothing is asked and the relief is moderate', () => {
    // 100 m of relief at 5 m: 20 levels, within the automatic allowance.
    expect(chooseInterval(undefined, { floorM: 1 }, dem(0, 100))).toEqual({ interval_m: DEFAULT_INTERVAL_M, interval_source: 'auto' });
  });

  it('auto: widened over steep relief when nothing is asked', () => {
    // 400 m of relief: 80 levels at 5 m (> 50), 40 at 10 m.
    expect(AUTO_MAX_LEVELS).toBe(50);
    expect(chooseInterval(undefined, { floorM: 1 }, dem(0, 400))).toEqual({ interval_m: 10, interval_source: 'auto' });
    // 2,000 m: the ladder x2, x5, x10 of 5 m gives 200 levels at 10 m, 80 at 25 m, 40 at 50 m.
    expect(chooseInterval(undefined, { floorM: 1 }, dem(0, 2000))).toEqual({ interval_m: 50, interval_source: 'auto' });
  });

  it('requested: used as asked when the source supports it', () => {
    expect(chooseInterval(2, { floorM: 1 }, dem(0, 100))).toEqual({ interval_m: 2, interval_source: 'requested' });
  });

  it('raised_to_floor: a request finer than the source floor is raised to it', () => {
    expect(chooseInterval(0.5, { floorM: 1 }, dem(0, 50))).toEqual({ interval_m: 1, interval_source: 'raised_to_floor' });
    expect(chooseInterval(5, { floorM: 10, multipleOfM: 10 }, () => 3)).toEqual({ interval_m: 10, interval_source: 'raised_to_floor' });
  });

  it('widened_to_fit: too many levels, x2, x5, x10 of the request until they fit', () => {
    expect(MAX_LEVELS).toBe(120);
    // 1 m over 300 m: 300 levels; 2 m: 150; 5 m: 60.
    expect(chooseInterval(1, { floorM: 1 }, dem(0, 300))).toEqual({ interval_m: 5, interval_source: 'widened_to_fit' });
    // Raised to the floor first, then widened: the last change names the source.
    expect(chooseInterval(0.5, { floorM: 1 }, dem(0, 300))).toEqual({ interval_m: 5, interval_source: 'widened_to_fit' });
  });

  it('widened_to_fit: a line dataset cannot deliver a spacing that is not a multiple of its own', () => {
    // A 10 m dataset asked for 15 m: 20 m is the next spacing it holds.
    expect(chooseInterval(15, { floorM: 10, multipleOfM: 10 }, () => 4)).toEqual({ interval_m: 20, interval_source: 'widened_to_fit' });
    expect(chooseInterval(30, { floorM: 10, multipleOfM: 10 }, () => 4)).toEqual({ interval_m: 30, interval_source: 'requested' });
    // With nothing asked, a 10 m dataset's default is its own spacing.
    expect(chooseInterval(undefined, { floorM: 10, multipleOfM: 10 }, () => 4)).toEqual({ interval_m: 10, interval_source: 'auto' });
  });

  it('never widens without limits', () => {
    expect(chooseInterval(0.5, { floorM: 0.5, maxLevels: Infinity, autoMaxLevels: Infinity }, dem(0, 1000))).toEqual({ interval_m: 0.5, interval_source: 'requested' });
    expect(chooseInterval(undefined, { floorM: 1, maxLevels: Infinity, autoMaxLevels: Infinity }, dem(0, 1000))).toEqual({ interval_m: 5, interval_source: 'auto' });
  });
});

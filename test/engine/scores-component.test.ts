import { describe, expect, it } from 'vitest';
import { clampScore, levelOf } from '../../engine/score-kit/component.js';
import { EXPOSURE_SCORES, SCORE_KEYS } from '../../engine/scores/registry.js';

describe('score conventions', () => {
  it('bands 0-100 values at 20-point steps, unknown for missing values', () => {
    expect([0, 19.9, 20, 39.9, 40, 59.9, 60, 79.9, 80, 100].map(levelOf)).toEqual(['very_low', 'very_low', 'low', 'low', 'moderate', 'moderate', 'high', 'high', 'very_high', 'very_high']);
    expect(levelOf(null)).toBe('unknown');
    expect(levelOf(Number.NaN)).toBe('unknown');
  });

  it('lists the nine keys of spec 2.6 and marks the six exposure scores', () => {
    expect(SCORE_KEYS).toHaveLength(9);
    expect([...EXPOSURE_SCORES].sort()).toEqual(['aircraft_noise', 'bushfire', 'contamination', 'flood', 'heat_island', 'noise']);
  });

  it('clamps and rounds scores to one decimal', () => {
    expect(clampScore(-3)).toBe(0);
    expect(clampScore(104)).toBe(100);
    expect(clampScore(55.55)).toBe(55.6);
    expect(clampScore(Number.POSITIVE_INFINITY)).toBeNaN();
  });
});

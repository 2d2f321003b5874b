// The words and rounding of scores.walkability, apart from its computation: each sentence from its facts.
import { describe, expect, it } from 'vitest';
import { tenThousandth, WALK_DISCLAIMER, WALK_WORDS as W, wholeMetres } from '../../../../engine/scores/walkability/walkability-describe.js';

describe('the walkability describer', () => {
  it('words a category counted, or left out with why', () => {
    expect(W.category('public_transport', true, undefined)).toBe('Straight-line metres to delivered public transport points, adjusted for slope and barriers; opening hours, quality and entrances are not known.');
    expect(W.category('grocery', false, { name: 'shops', reason: 'file unreadable' })).toBe('The shops data did not answer (file unreadable); the category is left out of the score.');
    expect(W.category('grocery', false, { name: 'shops', status: 'not_integrated' })).toBe('The shops data did not answer (not_integrated); the category is left out of the score.');
    expect(W.category('grocery', false, undefined)).toBe('The grocery data did not answer (not held); the category is left out of the score.');
  });

  it('words the barrier checks and the crossings they need', () => {
    expect(W.crossingsMissing('degraded', 'timeout')).toBe('crossing points unavailable (timeout): barriers were not checked');
    expect(W.crossingsMissing('not_integrated', null)).toBe('crossing points not held: barriers were not checked');
    expect(W.motorway(false, 'no motorway layer')).toBe('Motorway check did not run: no motorway layer.');
    expect(W.majorWater(true, '')).toMatch(/^Amenities whose straight line crosses major water/);
    expect(W.adjustments(1200, 400, 200)[1]).toBe('Motorway: +400 m when the straight line crosses a motorway with no crossing point within 200 m.');
  });

  it('carries the disclaimer and names degraded checks in the score caveat; rounds as published', () => {
    expect(W.scoreCaveat([])).toBe(`${WALK_DISCLAIMER} Counts are of delivered amenity points; amenities missing from the source data are not counted.`);
    expect(W.scoreCaveat(['motorway_check', 'regional_slope'])).toMatch(/ Degraded checks: motorway_check, regional_slope\.$/);
    expect(wholeMetres(399.5)).toBe(400);
    expect(tenThousandth(0.123456)).toBe(0.1235);
  });
});

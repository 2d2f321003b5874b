// The words and rounding of scores.bushfire, apart from its computation: each sentence from its facts.
import { describe, expect, it } from 'vitest';
import { BUSHFIRE_DISCLAIMER, BUSHFIRE_LEVEL_LABEL, BUSHFIRE_WORDS as W, tenth, thousandth } from '../../../../engine/scores/bushfire/bushfire-describe.js';

describe('the bushfire describer', () => {
  it('says where the FDI came from', () => {
    expect(W.fdiBasis({ kind: 'caller', fdi: 80 })).toBe('FDI 80 supplied by the caller');
    expect(W.fdiBasis({ kind: 'table', state: 'QLD' })).toBe('AS 3959-2009 Table 2.1 for QLD');
    // NSW and VIC have two table values; the higher is used and the page says why.
    expect(W.fdiBasis({ kind: 'table', state: 'NSW' })).toBe("AS 3959-2009 Table 2.1 for NSW (the higher of the state's values: fire weather districts and alpine areas are not resolved)");
    expect(W.fdiBasis({ kind: 'default' })).toMatch(/^State undetermined: FDI 100/);
  });

  it('words the official mapping apart from the model', () => {
    expect(W.officialHit(['bushfire_prone_area', 'buffer'], 'nsw_bfpl')).toBe('The subject lies in bushfire prone area and buffer mapped by nsw_bfpl.');
    expect(W.officialChecked('VIC')).toBe("VIC's overlay was checked and does not cover the subject.");
    expect(W.officialPartial('WA')).toBe('Only partial overlay coverage is held for WA; a miss proves nothing.');
    expect(W.noOfficialMapping(null)).toBe('No official bushfire-prone-area overlay is held for an undetermined state; nothing is inferred in its place.');
    expect(W.officialLookupFailed('SA', 'timeout')).toBe('The official overlay lookup for SA failed (timeout); retry. The modelled score does not stand in for it.');
    expect(W.officialLookupFailed('SA', null)).toBe('The official overlay lookup for SA failed; retry. The modelled score does not stand in for it.');
  });

  it('words each component from its nearest feature, or its absence', () => {
    expect(W.fuel({ vegClass: 'shrub_land', distance: 123.6 }, 700)).toBe('Nearest weighted fuel: shrub/land at 124 m; mapped vegetation edges, not a site survey.');
    expect(W.fuel(null, 700)).toBe('No classified vegetation within 700 m in the mapped layer.');
    expect(W.history({ year: 2019, distance: 1500.4 }, 2000)).toBe('Nearest mapped bushfire 1500 m away (2019); prescribed burns are not counted.');
    expect(W.history({ year: null, distance: 10 }, 2000)).toBe('Nearest mapped bushfire 10 m away; prescribed burns are not counted.');
    expect(W.missing('Vegetation', 'not_integrated', null)).toBe('Vegetation not integrated.');
    expect(W.missing('DEM', 'unavailable', 'file unreadable')).toBe('DEM unavailable: file unreadable.');
    expect(W.subject('coordinate')).toMatch(/a BAL applies to a building site\.$/);
  });

  it('carries the disclaimer in the score caveat, labels every level, and rounds as published', () => {
    expect(W.scoreCaveat.startsWith(BUSHFIRE_DISCLAIMER)).toBe(true);
    expect(Object.keys(BUSHFIRE_LEVEL_LABEL).sort()).toEqual(['high', 'low', 'moderate', 'unknown', 'very_high', 'very_low']);
    expect(tenth(12.345)).toBe(12.3);
    expect(thousandth(0.12345)).toBe(0.123);
  });
});

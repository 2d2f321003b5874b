// The words and rounding of scores.noise, apart from its physics: each sentence from its facts.
import { describe, expect, it } from 'vitest';
import { latLng, metres, NOISE_WORDS as W, relationTerms } from '../../../engine/scores/noise/noise-describe.js';

describe('the noise describer', () => {
  it('names ANEF bands, open at the top', () => {
    expect(W.anefRange({ airport: 'YSSY', anefMin: 20, anefMax: 25 })).toBe('20-25');
    expect(W.anefRange({ airport: 'YSSY', anefMin: 40, anefMax: null })).toBe('40+');
    expect(W.anefSourceName({ airport: '', anefMin: 25, anefMax: 30 })).toBe('airport ANEF 25-30');
    expect(W.aircraftInside({ airport: 'YMML', anefMin: 25, anefMax: 30 }, 27)).toBe('inside the ANEF 25-30 band of YMML; converted as ANEF 27 + 35 dB (DOTARS 2000, App. A.2), a planning-grade approximation');
  });

  it('words each source kind by the path its level took', () => {
    expect(W.kindNotSupplied('tram')).toBe('no rail layer was supplied; tram noise was not assessed');
    expect(W.kindNoneInRange('rail', 600)).toBe('no train source within 600 m in the supplied network');
    expect(W.kindLevel('road', true, 61.2, 'Hoddle Street')).toBe('road traffic Lden by the transfer path: the physics road Lden (CoRTN (DoT 1988) emission, CoRTN propagation) of 61.2 dB through the relation calibrated on road noise at loggers beside counters; rail, tram and aircraft are added to it unscaled; loudest: Hoddle Street');
    expect(W.kindLevel('rail', false, 55, 'Hurstbridge line')).toBe('train Lden by the physics path (Schall 03 (1990) emission, CoRTN propagation without ground term); never scaled by the road-calibrated transfer relation; loudest: Hurstbridge line');
    expect(W.kindLevel('road', false, 55, 'x')).toBe('road traffic Lden by the physics path (CoRTN (DoT 1988) emission, CoRTN propagation); loudest: x');
  });

  it('notes defaults only when some were used', () => {
    expect(W.defaultsNote(0, 12, 600)).toBeNull();
    expect(W.defaultsNote(3, 12, 600)).toBe('3 of the 12 sources within 600 m lacked traffic data and took class or mode defaults (flagged per source in `defaulted`)');
  });

  it('rounds as published', () => {
    expect(metres(12.345)).toBe(12.3);
    expect(latLng(144.98765432, -37.81234567)).toEqual({ lat: -37.812346, lng: 144.987654 });
    expect(relationTerms(0.98765, 1.23456)).toEqual({ a: 0.99, b: 1.235 });
  });
});

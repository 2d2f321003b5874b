/**
 * The words and rounding of scores.noise (noise-score.ts computes; this module says): the ANEF band's name,
 * each source kind's caveat, the aircraft component's, the defaults note and the model's method line, and
 * the published rounding (metres to 0.1, coordinates to 1e-6 degrees, the transfer relation's a to 0.01
 * and b to 0.001; decibels by reportDb, decibels.ts). Each takes the facts and returns the text.
 */

/** Metres to 0.1. */
export const metres = (d: number): number => Math.round(d * 10) / 10;
/** A point to 1e-6 degrees (about 0.1 m). */
export const latLng = (lon: number, lat: number): { lat: number; lng: number } => ({ lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lon * 1e6) / 1e6 });
/** The transfer relation's slope and offset as published. */
export const relationTerms = (a: number, b: number): { a: number; b: number } => ({ a: Math.round(a * 100) / 100, b: Math.round(b * 1000) / 1000 });

/** An ANEF band: its airport and contour range. */
export interface AnefBandFacts {
  airport: string;
  anefMin: number;
  anefMax: number | null;
}

type Kind = 'road' | 'rail' | 'tram';
const LABEL: Record<Kind, string> = { road: 'road traffic', rail: 'train', tram: 'tram' };

/** The sentences of scores.noise, each from its facts. */
export const NOISE_WORDS = {
  /** `20-25`, or `40+` for the open top band. */
  anefRange: (b: AnefBandFacts): string => `${b.anefMin}${b.anefMax === null ? '+' : `-${b.anefMax}`}`,
  /** The dominant source's name when it is an airport's band. */
  anefSourceName: (b: AnefBandFacts): string => `${b.airport || 'airport'} ANEF ${NOISE_WORDS.anefRange(b)}`,
  aircraftNotAssessed: 'no ANEF contour layer was supplied; aircraft noise was not assessed',
  aircraftInside: (b: AnefBandFacts, anef: number): string => `inside the ANEF ${NOISE_WORDS.anefRange(b)} band of ${b.airport || 'the airport'}; converted as ANEF ${anef} + 35 dB (DOTARS 2000, App. A.2), a planning-grade approximation`,
  aircraftOutside: 'outside the lowest published ANEF contour; aircraft exposure is below it, not zero',
  kindNotSupplied: (kind: Kind): string => `no ${kind === 'road' ? 'road' : 'rail'} layer was supplied; ${LABEL[kind]} noise was not assessed`,
  kindNoneInRange: (kind: Kind, maxDistanceM: number): string => `no ${LABEL[kind]} source within ${maxDistanceM} m in the supplied network`,
  /** A source kind's level: by the transfer path (road calibrated at loggers) or by the physics path. */
  kindLevel(kind: Kind, calibrated: boolean, physicsDb: number | null, loudest: string): string {
    const emission = kind === 'road' ? 'CoRTN (DoT 1988) emission' : 'Schall 03 (1990) emission';
    return calibrated
      ? `${LABEL[kind]} Lden by the transfer path: the physics road Lden (${emission}, CoRTN propagation) of ${physicsDb} dB through the relation calibrated on road noise at loggers beside counters; rail, tram and aircraft are added to it unscaled; loudest: ${loudest}`
      : `${LABEL[kind]} Lden by the physics path (${emission}, CoRTN propagation${kind === 'road' ? '' : ' without ground term'})${kind === 'road' ? '' : '; never scaled by the road-calibrated transfer relation'}; loudest: ${loudest}`;
  },
  defaultsNote: (defaulted: number, total: number, maxDistanceM: number): string | null =>
    defaulted ? `${defaulted} of the ${total} sources within ${maxDistanceM} m lacked traffic data and took class or mode defaults (flagged per source in \`defaulted\`)` : null,
  method: 'CoRTN (UK DoT 1988) road emission and propagation, L10 - 3 dB to LAeq; Schall 03 (1990) rail and tram emission; aircraft from ANEF + 35 dB; Lden by Directive 2002/49/EC Annex I',
} as const;

/**
 * Address text normalisation and query parsing: case and punctuation, street-type abbreviations (the G-NAF
 * street type authority table's common Australian forms), unit forms ("3/12", "Unit 3 12", "U3 12",
 * "Apt 3, 12"), levels ("L2/5", "Level 2 5"), number ranges ("10-12"), state names and abbreviations,
 * postcodes.
 */
import type { StateCode } from '../catalogue/states.js';

/** Street-type abbreviations to the full G-NAF street type. */
export const STREET_TYPES: Record<string, string> = {
  ST: 'STREET', STR: 'STREET', RD: 'ROAD', AVE: 'AVENUE', AV: 'AVENUE', AVNU: 'AVENUE', DR: 'DRIVE', DRV: 'DRIVE', CT: 'COURT', CRT: 'COURT',
  PL: 'PLACE', CRES: 'CRESCENT', CR: 'CRESCENT', CRS: 'CRESCENT', GR: 'GROVE', GRV: 'GROVE', PDE: 'PARADE', PRDE: 'PARADE', HWY: 'HIGHWAY',
  TCE: 'TERRACE', TCES: 'TERRACE', LN: 'LANE', BVD: 'BOULEVARD', BLVD: 'BOULEVARD', BVDE: 'BOULEVARD', CL: 'CLOSE', CCT: 'CIRCUIT',
  ESP: 'ESPLANADE', SQ: 'SQUARE', PKWY: 'PARKWAY', TRL: 'TRAIL', WY: 'WAY', HTS: 'HEIGHTS', GDNS: 'GARDENS', GLDE: 'GLADE', RDGE: 'RIDGE',
  CIR: 'CIRCLE', CNR: 'CORNER', MWY: 'MOTORWAY', FWY: 'FREEWAY', RTT: 'RETREAT', VW: 'VIEW', VSTA: 'VISTA', WK: 'WALK', PROM: 'PROMENADE',
};

/** The full street types (the values of {@link STREET_TYPES} and others G-NAF uses unabbreviated). */
export const FULL_STREET_TYPES = new Set([...Object.values(STREET_TYPES), 'WAY', 'RISE', 'ROW', 'MEWS', 'WALK', 'LOOP', 'MALL', 'GATE', 'LINK', 'OUTLOOK', 'BEND', 'BROW']);

const STATE_NAMES: [string, StateCode][] = [
  ['AUSTRALIAN CAPITAL TERRITORY', 'ACT'], ['NEW SOUTH WALES', 'NSW'], ['NORTHERN TERRITORY', 'NT'], ['WESTERN AUSTRALIA', 'WA'],
  ['SOUTH AUSTRALIA', 'SA'], ['QUEENSLAND', 'QLD'], ['VICTORIA', 'VIC'], ['TASMANIA', 'TAS'],
];
const STATE_CODES = new Set<string>(['VIC', 'NSW', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT']);
const UNIT_WORDS = new Set(['UNIT', 'U', 'APT', 'APARTMENT', 'FLAT', 'SHOP', 'SUITE', 'VILLA', 'TOWNHOUSE', 'LOT']);

/** Upper case, punctuation to spaces, street types expanded. */
export function normaliseWords(text: string): string[] {
  return text.toUpperCase().replace(/[^A-Z0-9/ ]+/g, ' ').split(/\s+/).filter(Boolean).map((w) => STREET_TYPES[w] ?? w);
}

/** A parsed query. */
export interface ParsedQuery {
  unit: string | null;
  number: string | null;
  /** The remaining words (street name, type, suburb), normalised. */
  words: string[];
  state: StateCode | null;
  postcode: string | null;
}

/** Parses free text into unit, number, words, state and postcode. */
export function parseQuery(text: string): ParsedQuery {
  let t = ` ${text.toUpperCase().replace(/[,;.]+/g, ' ')} `;
  let state: StateCode | null = null;
  // A state name counts only at the end (before an optional postcode): "Victoria Street" is a street.
  for (const [name, code] of STATE_NAMES) {
    const m = new RegExp(` ${name}( [0-9]{4})? *$`).exec(t);
    if (m) {
      state = code;
      t = `${t.slice(0, m.index)} ${m[1] ?? ''} `;
      break;
    }
  }
  const raw = normaliseWords(t);
  const words: string[] = [];
  let unit: string | null = null;
  let number: string | null = null;
  let postcode: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const w = raw[i];
    // "3/12", "3A/10-12", and a level in G-NAF's short form "L2/5" (a level with no flat number).
    const slash = /^(L?[0-9]+[A-Z]?)\/([0-9]+[A-Z]?(?:-[0-9]+[A-Z]?)?)$/.exec(w);
    if (slash && number === null) {
      unit = slash[1];
      number = slash[2];
      continue;
    }
    const glued = /^(?:U|UNIT|APT|FLAT)([0-9]+[A-Z]?)$/.exec(w);
    if (glued && unit === null) {
      unit = glued[1];
      continue;
    }
    if (UNIT_WORDS.has(w) && unit === null && /^[0-9]+[A-Z]?$/.test(raw[i + 1] ?? '')) {
      unit = raw[++i];
      continue;
    }
    // "Level 2 5 O'Connor Street" or "L2 5 ...": the level stands for the unit (as G-NAF's L2/5 does).
    const level = /^L([0-9]+[A-Z]?)$/.exec(w);
    if (unit === null && number === null && (level || (w === 'LEVEL' && /^[0-9]+[A-Z]?$/.test(raw[i + 1] ?? '')))) {
      unit = `L${level ? level[1] : raw[++i]}`;
      continue;
    }
    if (!state && STATE_CODES.has(w) && i > 0) {
      state = w as StateCode;
      continue;
    }
    if (/^[0-9]{4}$/.test(w) && number !== null) {
      postcode = w;
      continue;
    }
    if (/^[0-9]+[A-Z]?(?:-[0-9]+[A-Z]?)?$/.test(w) && number === null) {
      number = w;
      continue;
    }
    words.push(w);
  }
  return { unit, number, words, state, postcode };
}

/** Edit distance at most 1 (one substitution, insertion or deletion). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0, j = 0, edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

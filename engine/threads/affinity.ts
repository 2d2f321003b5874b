/**
 * Which engine thread a call would rather run on: the one that owns the call's state. Each thread then holds
 * mostly its own states' windows, whole layers, models and decoded raster blocks, so N threads with 1/N of
 * the caches each hit as often as one thread with all of it, and hold about as much memory in all. It is a
 * preference only (engine-threads.ts sends a call elsewhere rather than let a thread idle), so a wrong guess
 * costs a cache miss, never a wrong answer.
 *
 * The state is guessed cheaply, without resolving anything: a point by the extents of the states' layers
 * (kept in the layer file), an address by the state or postcode written in it (Australia Post's ranges).
 */
import { STATES, type StateCode } from '../catalogue/states.js';

/** A lon/lat box. */
export type LonLatBox = readonly [number, number, number, number];

const STATE_WORD = new RegExp(`\\b(${STATES.join('|')})\\b`, 'i');
const POSTCODE = /\b(\d{4})\b(?!.*\b\d{4}\b)/;

/**
 * The state an address's text names: a state abbreviation written as a word, else its postcode's state
 * (the last four-digit number), else null.
 */
export function stateOfAddressText(text: string): StateCode | null {
  const word = STATE_WORD.exec(text);
  if (word) return word[1].toUpperCase() as StateCode;
  const m = POSTCODE.exec(text);
  return m ? stateOfPostcode(Number(m[1])) : null;
}

/** The state of a postcode by Australia Post's ranges (the ACT's ranges before NSW's that hold them). */
export function stateOfPostcode(p: number): StateCode | null {
  if ((p >= 200 && p <= 299) || (p >= 2600 && p <= 2618) || (p >= 2900 && p <= 2920)) return 'ACT';
  if (p >= 800 && p <= 999) return 'NT';
  if (p >= 1000 && p <= 2999) return 'NSW';
  if ((p >= 3000 && p <= 3999) || (p >= 8000 && p <= 8999)) return 'VIC';
  if ((p >= 4000 && p <= 4999) || (p >= 9000 && p <= 9999)) return 'QLD';
  if (p >= 5000 && p <= 5999) return 'SA';
  if (p >= 6000 && p <= 6999) return 'WA';
  if (p >= 7000 && p <= 7999) return 'TAS';
  return null;
}

/** The states whose boxes hold (lon, lat), smallest box first (a territory inside its neighbour's box wins). */
export function stateOfPoint(boxes: ReadonlyMap<StateCode, LonLatBox>, lon: number, lat: number): StateCode | null {
  let best: StateCode | null = null;
  let area = Infinity;
  for (const [state, b] of boxes) {
    if (lon < b[0] || lon > b[2] || lat < b[1] || lat > b[3]) continue;
    const a = (b[2] - b[0]) * (b[3] - b[1]);
    if (a < area) {
      area = a;
      best = state;
    }
  }
  return best;
}

/** The thread a state's calls prefer among `threads`: the states dealt out in turn (null: no preference). */
export function threadOfState(state: StateCode | null, threads: number): number | undefined {
  if (!state || threads < 2) return undefined;
  return STATES.indexOf(state) % threads;
}

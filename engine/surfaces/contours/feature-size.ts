/**
 * Output coordinates and the exact size of each contour feature as compact JSON, computed arithmetically
 * so the size limits can be applied before (and without) serialising anything.
 */

/**
 * Decimal places kept in output lon/lat: 6, i.e. 0.11 m of latitude and under 0.1 m of longitude at
 * Australian latitudes. That is a tenth of the finest source cell (1 m LiDAR), a fiftieth of the national
 * 5 m model, and ten times finer than the spec's 1 m geometry simplification (§8), while a seventh decimal
 * (1 cm) would only add bytes to the response budget.
 */
export const COORDINATE_DECIMALS = 6;
const SCALE = 10 ** COORDINATE_DECIMALS;

/** A coordinate rounded to {@link COORDINATE_DECIMALS} places. */
export function roundCoordinate(v: number): number {
  return Math.round(v * SCALE) / SCALE;
}

function digits(n: number): number {
  let d = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    d++;
  }
  return d;
}

/**
 * Length of `JSON.stringify(v)` for a finite number already rounded with {@link roundCoordinate} (at most
 * six decimals, magnitude below 1e15): sign, integer digits, and the fraction without trailing zeros, as
 * ECMAScript's Number::toString writes it (ECMA-262 §6.1.6.1.20; no exponent between 1e-6 and 1e21).
 */
export function coordinateJsonLength(v: number): number {
  const scaled = Math.round(Math.abs(v) * SCALE);
  if (scaled === 0) return 1; // "0" (JSON.stringify(-0) is "0" too)
  const int = Math.floor(scaled / SCALE);
  let frac = scaled - int * SCALE;
  let len = (v < 0 ? 1 : 0) + digits(int);
  if (frac > 0) {
    let fd = COORDINATE_DECIMALS;
    while (frac % 10 === 0) {
      frac /= 10;
      fd--;
    }
    len += 1 + fd;
  }
  return len;
}

// {"type":"Feature","properties":{"elevation":E},"geometry":{"type":"LineString","coordinates":[ ... ]}}
const FEATURE_HEAD = '{"type":"Feature","properties":{"elevation":'.length;
const FEATURE_MIDDLE = '},"geometry":{"type":"LineString","coordinates":['.length;
const FEATURE_TAIL = ']}}'.length;

/**
 * Bytes of one contour feature as compact JSON (`JSON.stringify` of the feature {@link contourFeature}
 * builds): points `start .. end - 1` of interleaved, rounded lon/lat `xy`.
 */
export function featureJsonLength(elevation: number, xy: ArrayLike<number>, start: number, end: number): number {
  let len = FEATURE_HEAD + String(elevation).length + FEATURE_MIDDLE + FEATURE_TAIL;
  const n = end - start;
  if (n > 0) len += n - 1; // commas between points
  for (let p = start; p < end; p++) len += 3 + coordinateJsonLength(xy[2 * p]) + coordinateJsonLength(xy[2 * p + 1]); // [x,y]
  return len;
}

/** A contour line as a GeoJSON Feature, with its properties and geometry in the order sizes assume. */
export interface ContourFeature {
  type: 'Feature';
  properties: { elevation: number };
  geometry: { type: 'LineString'; coordinates: [number, number][] };
}

/** Builds the GeoJSON Feature for points `start .. end - 1` of interleaved lon/lat `xy`. */
export function contourFeature(elevation: number, xy: ArrayLike<number>, start: number, end: number): ContourFeature {
  const coordinates: [number, number][] = new Array(end - start);
  for (let p = start; p < end; p++) coordinates[p - start] = [xy[2 * p], xy[2 * p + 1]];
  return { type: 'Feature', properties: { elevation }, geometry: { type: 'LineString', coordinates } };
}

/**
 * The size limits of the contours layer, applied in the spec's order (§2.7 "Order of limits", §8):
 *
 * 1. a window with more than {@link CONTOUR_LINE_CAP} lines keeps the first 1,200 the source returned;
 * 2. a line over the per-feature limit ({@link MAX_FEATURE_BYTES}) is dropped, at any spacing;
 * 3. while the layer is over the byte budget ({@link MAX_LAYER_BYTES}), lines are dropped band by band in
 *    rotation: one line from each elevation band in turn (lowest band first), always that band's last line
 *    in source order, until the rest fits. Spreading the drops over the bands keeps every band, and so the
 *    full elevation range, for as long as possible.
 *
 * `segments_dropped` counts the lines (LineString features) removed by 2 and 3, never those removed by 1.
 */

/** Lines kept per window before any size rule (spec §8: "1,200 per window"). */
export const CONTOUR_LINE_CAP = 1200;

/**
 * The per-feature limit: a line whose GeoJSON Feature is larger than this is dropped (256 KiB). The spec
 * gives no number. At 6-decimal lon/lat a vertex costs about 24 bytes, so this is about 11,000 vertices,
 * which on the 5 m national model is some 50 km of line: over fifteen times the width of the 3 km window.
 * Genuine contours are far shorter; lines this long are the flat-ground artefacts of a level that coincides
 * with a water surface, a bench or a cut, crenellating through every cell, and carry no information a
 * client could draw usefully.
 */
export const MAX_FEATURE_BYTES = 262_144;

/**
 * The byte budget of the whole layer (its features as compact JSON): 4 MiB. The spec gives no number.
 * It keeps a full payload with surfaces under the 6 MB response limit of synchronous AWS Lambda
 * invocations (AWS Lambda API reference, Invoke: "For synchronous invocations, the maximum payload size is
 * 6 MB") with room for the rest of the payload, and so under the 10 MB limit of common API gateways too.
 * 1,200 lines average 3.5 KB each within it (about 145 vertices a line).
 */
export const MAX_LAYER_BYTES = 4_194_304;

/** Limits for one layer; tests and the CLI's `--unlimited` pass their own. */
export interface ContourLimits {
  /** Lines kept before the size rules; default {@link CONTOUR_LINE_CAP}. */
  maxLines: number;
  /** Bytes of one feature above which it is dropped; default {@link MAX_FEATURE_BYTES}. */
  maxFeatureBytes: number;
  /** Bytes of all features together; default {@link MAX_LAYER_BYTES}. */
  maxLayerBytes: number;
  /** Levels a requested interval may give before widening; default MAX_LEVELS (interval.ts). */
  maxLevels: number;
  /** Levels the default interval may give before widening; default AUTO_MAX_LEVELS (interval.ts). */
  autoMaxLevels: number;
}

/** Which lines survive the limits, and why the others did not. */
export interface LimitOutcome {
  /** Indices of the lines kept, in source order. */
  keep: number[];
  /** Lines removed by the line cap (rule 1). */
  capDropped: number;
  /** Lines removed for their own size (rule 2). */
  featureDropped: number;
  /** Lines removed for the byte budget (rule 3). */
  budgetDropped: number;
}

/**
 * Applies the three rules to lines given in source order: `elevation[i]` and `bytes[i]` (the compact JSON
 * size of line i's feature). The layer's size is the sum of its features plus one separator between each.
 */
export function applyLimits(elevation: ArrayLike<number>, bytes: ArrayLike<number>, limits: Pick<ContourLimits, 'maxLines' | 'maxFeatureBytes' | 'maxLayerBytes'>): LimitOutcome {
  const n = elevation.length;
  const capped = Math.min(n, limits.maxLines);
  const capDropped = n - capped;
  const alive: number[] = [];
  let featureDropped = 0;
  for (let i = 0; i < capped; i++) {
    if (bytes[i] > limits.maxFeatureBytes) featureDropped++;
    else alive.push(i);
  }
  let total = alive.length ? alive.length - 1 : 0;
  for (const i of alive) total += bytes[i];
  let budgetDropped = 0;
  const dropped = new Set<number>();
  if (total > limits.maxLayerBytes) {
    const byBand = new Map<number, number[]>();
    for (const i of alive) {
      const band = byBand.get(elevation[i]);
      if (band) band.push(i);
      else byBand.set(elevation[i], [i]);
    }
    const bands = [...byBand.keys()].sort((a, b) => a - b).map((e) => byBand.get(e)!);
    rotation: while (total > limits.maxLayerBytes) {
      for (const band of bands) {
        const i = band.pop();
        if (i === undefined) continue;
        dropped.add(i);
        budgetDropped++;
        total -= bytes[i] + 1;
        if (total <= limits.maxLayerBytes) break rotation;
      }
    }
  }
  return { keep: dropped.size ? alive.filter((i) => !dropped.has(i)) : alive, capDropped, featureDropped, budgetDropped };
}

function thousands(n: number): string {
  return Number.isFinite(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(n);
}

function metres(v: number): string {
  return `${Math.round(v * 1000) / 1000} m`;
}

/** What {@link truncatedNote} reports on. */
export interface TruncationFacts {
  /** Lines in the window before any limit. */
  lines: number;
  /** Lines removed by the line cap. */
  capDropped: number;
  /** Lines removed by the per-feature limit and the byte budget. */
  sizeDropped: number;
  /** Lowest and highest level among all lines in the window, metres. */
  fullRange: [number, number];
  /** Lowest and highest level delivered, or null when nothing was delivered. */
  deliveredRange: [number, number] | null;
  /** The interval used, metres. */
  interval: number;
  /** The line cap that applied. */
  maxLines: number;
}

/**
 * The `truncated_note` (spec §2.7): what was dropped, whether the delivered lines still span the window's
 * full elevation range, and the usual remedy (a coarser `contour_interval_m`, with a concrete value).
 */
export function truncatedNote(f: TruncationFacts): string {
  const left = f.capDropped + f.sizeDropped;
  const parts: string[] = [];
  parts.push(
    `${left} of ${f.lines} contour lines were left out: ${f.capDropped} beyond the ${thousands(f.maxLines)}-line cap ` +
      `(the last the source returned) and ${f.sizeDropped} dropped for size (over the per-line limit, or over the layer's byte budget, ` +
      'taken band by band in rotation).',
  );
  const [lo, hi] = f.fullRange;
  const d = f.deliveredRange;
  if (!d) parts.push(`No lines were delivered, so the window's elevation range (${metres(lo)} to ${metres(hi)}) is not spanned.`);
  else if (d[0] <= lo && d[1] >= hi) parts.push(`The delivered lines still span the window's full elevation range, ${metres(lo)} to ${metres(hi)}.`);
  else parts.push(`The delivered lines no longer span the window's full elevation range: they cover ${metres(d[0])} to ${metres(d[1])} of ${metres(lo)} to ${metres(hi)}.`);
  const coarser = Math.min(200, Math.round(f.interval * 2 * 1e9) / 1e9);
  parts.push(`For a complete layer, request a coarser contour_interval_m (for example ${coarser}).`);
  return parts.join(' ');
}

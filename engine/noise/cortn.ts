/**
 * The terms of the UK "Calculation of Road Traffic Noise" (CoRTN; Department of Transport and Welsh Office,
 * HMSO 1988), the procedure Australian road authorities use for road traffic noise (with local adjustments).
 * Each term is a pure function in dB(A) so tests can check it against hand-worked numbers.
 *
 * Verification: the equations below were checked against two independent CoRTN implementations and the Arup
 * Strutt reference notes (shadow-zone barrier coefficients); the 1988 primary text itself was not available
 * here, so paragraph and chart numbers are given as they are commonly cited (Chart 2 basic level, Chart 4
 * speed and heavy vehicles, Charts 5-6 gradient, Chart 7 distance, Chart 8 ground cover, Charts 9/9a
 * barriers, Chart 10 angle of view) and may be off by one in the 1988 numbering. Where a constant could not
 * be checked at all it says so.
 */

/** Basic level constant of the hourly formula L10(1h) = 42.2 + 10 lg q (CoRTN para 7, Chart 2). */
export const CORTN_HOURLY_CONSTANT = 42.2;

/** Reference slant distance of the basic noise level, metres: 10 m from the nearside carriageway edge plus the 3.5 m to the source line (Chart 7: correction -10 lg(d'/13.5)). */
export const CORTN_REFERENCE_DISTANCE_M = 13.5;

/** The effective source line lies 3.5 m inside the nearside carriageway edge (Chart 7). */
export const CORTN_SOURCE_LINE_OFFSET_M = 3.5;

/** The source line is 0.5 m above the road surface (Chart 7 and the barrier geometry of Chart 9). */
export const CORTN_SOURCE_HEIGHT_M = 0.5;

/** CoRTN's predictions are not defined closer than 4 m to the nearside carriageway edge; closer receivers are taken at 4 m. */
export const CORTN_MIN_DISTANCE_M = 4;

/**
 * L10 to LAeq for the same period: LAeq = L10 - 3 dB, the conversion used for free-flowing traffic in
 * Australian CoRTN practice and by TRL (Abbott & Nelson 2002, "Converting the UK traffic noise index
 * LA10,18h to EU noise indices for noise mapping", TRL PR/SE/451/02) as its simple method. The report's
 * regression for hourly values (LAeq,1h = 0.94 LA10,1h + 0.77 dB, as cited) could not be checked against
 * the report here; at LA10 = 70 dB it gives L10 - 3.4 dB, within 0.4 dB of this constant. The conversion is
 * applied to each source's emission at the reference position, so levels at a receiver still add by energy.
 */
export const L10_TO_LAEQ_DB = -3;

/** Basic hourly noise level L10(1h) at the reference position for `q` vehicles per hour (Chart 2). */
export function cortnBasicLevelHourly(q: number): number {
  return CORTN_HOURLY_CONSTANT + 10 * Math.log10(q);
}

/**
 * Correction for mean traffic speed V (km/h) and percentage of heavy vehicles p (0-100) (Chart 4):
 * 33 lg(V + 40 + 500/V) + 10 lg(1 + 5p/V) - 68.8. For cars only it is zero near V = 75 km/h and
 * -2.8 dB at V = 50 km/h (33 lg 100 - 68.8); heavy vehicles and higher speeds raise it.
 */
export function cortnSpeedHeavyCorrection(speedKmh: number, heavyPct: number): number {
  const v = speedKmh;
  return 33 * Math.log10(v + 40 + 500 / v) + 10 * Math.log10(1 + (5 * heavyPct) / v) - 68.8;
}

/**
 * Reduction of mean speed on an upward gradient of G percent (Chart 5):
 * dV = [0.73 + (2.3 - 1.15 p/100) p/100] G km/h, p the heavy percentage.
 */
export function cortnGradientSpeedReduction(gradientPct: number, heavyPct: number): number {
  const f = heavyPct / 100;
  return (0.73 + (2.3 - 1.15 * f) * f) * Math.abs(gradientPct);
}

/** Correction for the extra noise of traffic on a gradient of G percent: +0.3 G dB (Chart 6). */
export function cortnGradientCorrection(gradientPct: number): number {
  return 0.3 * Math.abs(gradientPct);
}

/** Slant distance d' = sqrt((d + 3.5)^2 + h^2) from the source line to a receiver `d` metres from the nearside carriageway edge and `h` metres above the source (Chart 7). */
export function cortnSlantDistance(edgeDistance: number, relativeHeight: number): number {
  const d = Math.max(CORTN_MIN_DISTANCE_M, edgeDistance) + CORTN_SOURCE_LINE_OFFSET_M;
  return Math.sqrt(d * d + relativeHeight * relativeHeight);
}

/** Distance correction -10 lg(d'/13.5) for slant distance d' (Chart 7): a line source falls 3 dB per doubling. */
export function cortnDistanceCorrection(slantDistance: number): number {
  return -10 * Math.log10(slantDistance / CORTN_REFERENCE_DISTANCE_M);
}

/**
 * Ground cover correction for a receiver `d` metres from the nearside edge, mean propagation height `H`
 * metres and proportion of absorbent ground `I` (0-1) between road and receiver (Chart 8):
 *
 *   H < 0.75:                    5.2 I lg(3 / (d + 3.5))
 *   0.75 <= H < (d + 5) / 6:     5.2 I lg((6H - 1.5) / (d + 3.5))
 *   H >= (d + 5) / 6:            0
 *
 * Never positive (the logarithm is clamped at 0, where the two branches meet the "no correction" zone).
 */
export function cortnGroundCorrection(edgeDistance: number, meanHeight: number, absorbentShare: number): number {
  const d = Math.max(CORTN_MIN_DISTANCE_M, edgeDistance);
  if (absorbentShare <= 0 || meanHeight >= (d + 5) / 6) return 0;
  const numerator = meanHeight < 0.75 ? 3 : 6 * meanHeight - 1.5;
  return Math.min(0, 5.2 * absorbentShare * Math.log10(numerator / (d + CORTN_SOURCE_LINE_OFFSET_M)));
}

/** Angle-of-view correction 10 lg(theta/180) for a road segment subtending theta degrees (Chart 10). */
export function cortnAngleOfViewCorrection(thetaDegrees: number): number {
  return 10 * Math.log10(thetaDegrees / 180);
}

// CoRTN Chart 9a polynomials in x = lg(delta), delta the path difference in metres. Shadow-zone coefficients
// checked against Arup's Strutt reference notes and an independent implementation; illuminated-zone
// coefficients against the independent implementation only.
const SHADOW = [-15.4, -8.26, -2.787, -0.831, -0.198, 0.1539, 0.12248, 0.02175];
const ILLUMINATED = [0, 0.109, -0.815, 0.479, 0.3284, 0.04385];

function polynomial(c: readonly number[], x: number): number {
  let y = 0;
  for (let i = c.length - 1; i >= 0; i--) y = y * x + c[i];
  return y;
}

/**
 * Barrier (screening) correction for path difference `delta` metres (Charts 9 and 9a): in the shadow zone
 * -5 dB for lg(delta) < -3, the 7th-order polynomial up to lg(delta) = 1.2, and -30 dB beyond; in the
 * illuminated zone 0 for lg(delta) < -4, the 5th-order polynomial up to lg(delta) = 0, and 0 beyond.
 * Applied instead of the ground correction, never together with it (see {@link cortnScreenedPathCorrection}).
 */
export function cortnBarrierCorrection(delta: number, shadow: boolean): number {
  const x = Math.log10(Math.max(delta, 1e-12));
  if (shadow) {
    if (x < -3) return -5;
    if (x > 1.2) return -30;
    return polynomial(SHADOW, x);
  }
  if (x < -4 || x > 0) return 0;
  return Math.min(0, polynomial(ILLUMINATED, x));
}

/** A barrier parallel to the road, in the road's cross-section. */
export interface BarrierSection {
  /** Horizontal distance from the source line to the barrier, metres (> 0). */
  sourceToBarrier: number;
  /** Horizontal distance from the barrier to the receiver, metres (> 0). */
  barrierToReceiver: number;
  /** Barrier top above the source line (the road surface + 0.5 m), metres. */
  barrierHeight: number;
  /** Receiver above the source line, metres. */
  receiverHeight: number;
}

/**
 * Path difference delta = SB + BR - SR over the barrier top and whether the receiver is in its shadow (the
 * top is above the straight source-receiver line), for the cross-section geometry of Chart 9.
 */
export function cortnPathDifference(s: BarrierSection): { delta: number; shadow: boolean } {
  const a = Math.hypot(s.sourceToBarrier, s.barrierHeight);
  const b = Math.hypot(s.barrierToReceiver, s.barrierHeight - s.receiverHeight);
  const run = s.sourceToBarrier + s.barrierToReceiver;
  const c = Math.hypot(run, s.receiverHeight);
  const sightHeightAtBarrier = (s.receiverHeight * s.sourceToBarrier) / run;
  const shadow = s.barrierHeight > sightHeightAtBarrier;
  // In the illuminated zone the path difference is negative by convention; Chart 9a takes its magnitude.
  return { delta: Math.abs(a + b - c), shadow };
}

/**
 * The propagation-path correction when a barrier may screen the road: CoRTN applies either the barrier
 * correction or the ground cover correction, never both; this takes the one giving more attenuation (the
 * reading of CoRTN's "potential barrier correction" rule used by the implementations checked; the 1988
 * wording could not be verified here).
 */
export function cortnScreenedPathCorrection(barrierCorrection: number, groundCorrection: number): number {
  return Math.min(barrierCorrection, groundCorrection);
}

/** Inputs of the CoRTN hourly L10 at the reference position (10 m from the kerb, full 180-degree view, no ground or barrier). */
export interface CortnTraffic {
  /** Vehicles per hour (> 0). */
  flowPerHour: number;
  /** Mean traffic speed, km/h (> 0). */
  speedKmh: number;
  /** Heavy vehicles, percent 0-100. */
  heavyPct: number;
  /** Road gradient, percent (sign ignored). Default 0. */
  gradientPct?: number;
}

/**
 * L10(1h) at the reference position: basic level (Chart 2) + speed/heavy correction (Chart 4) at the speed
 * reduced for the gradient (Chart 5) + gradient correction (Chart 6).
 */
export function cortnReferenceL10(t: CortnTraffic): number {
  const g = t.gradientPct ?? 0;
  const v = Math.max(1, t.speedKmh - (g !== 0 ? cortnGradientSpeedReduction(g, t.heavyPct) : 0));
  return cortnBasicLevelHourly(t.flowPerHour) + cortnSpeedHeavyCorrection(v, t.heavyPct) + cortnGradientCorrection(g);
}

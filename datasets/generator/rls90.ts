/**
 * The "truth" behind the sample world's noise loggers: road traffic noise by the German RLS-90 method
 * (Richtlinien fuer den Laermschutz an Strassen, 1990), deliberately not the UK CoRTN method the engine uses,
 * so that calibrating the engine on these loggers is not circular.
 *
 * Emission (RLS-90 eq. 6-8, as implemented in MATSim's noise contrib, RLS90NoiseEmission):
 *   Lm,E = 37.3 + 10 lg[M (1 + 0.082 p)]        (M vehicles/h, p heavy-vehicle share in %, level at 25 m)
 *   Dv   = L_Pkw - 37.3 + 10 lg[(100 + (10^(0.1 D) - 1) p) / (100 + 8.23 p)]
 *   L_Pkw = 27.7 + 10 lg[1 + (0.02 v_Pkw)^3],  L_Lkw = 23.1 + 12.5 lg(v_Lkw),  D = L_Lkw - L_Pkw
 *   with v_Pkw clamped to 30-130 km/h and v_Lkw to 30-80 km/h.
 * Propagation for a long straight road (RLS-90 eq. 9, as in MATSim's NoiseEquations): 
 *   Ds = 15.8 - 10 lg(s) - 0.0142 s^0.9, with an angle-of-view term 10 lg(theta / 180) per segment, and the
 *   ground-and-meteorology term D_BM = (h_m / s)(34 + 600 / s) - 4.8, capped at 0 (h_m = 2.25 m).
 * Hourly flows from AADT after RLS-90 Table 3 (day 06-22 and night 22-06): M_day = 0.06 AADT for every road
 * class; M_night = 0.014 AADT on motorways, 0.011 on arterials and local streets, 0.008 on collectors. The
 * night factors are from the secondary literature on RLS-90 and were not checked against the primary text.
 */

/** Traffic on one road segment. */
export interface RlsRoad {
  /** Vehicles per day. */
  aadt: number;
  /** Heavy-vehicle share by day, 0-1. */
  heavyDay: number;
  /** Heavy-vehicle share by night, 0-1. */
  heavyNight: number;
  speedKmh: number;
  /** Night share of AADT per hour (Table 3). */
  nightFactor: number;
}

/** Emission level Lm,E + Dv at 25 m for hourly flow m and heavy share p (0-1), dB(A). */
export function rlsEmission(m: number, p: number, speedKmh: number): number {
  const pp = p * 100;
  const lm = 37.3 + 10 * Math.log10(m * (1 + 0.082 * pp));
  const vCar = Math.min(130, Math.max(30, speedKmh));
  const vHgv = Math.min(80, Math.max(30, speedKmh));
  const lCar = 27.7 + 10 * Math.log10(1 + Math.pow(0.02 * vCar, 3));
  const lHgv = 23.1 + 12.5 * Math.log10(vHgv);
  const d = lHgv - lCar;
  const dv = lCar - 37.3 + 10 * Math.log10((100 + (Math.pow(10, 0.1 * d) - 1) * pp) / (100 + 8.23 * pp));
  return lm + dv;
}

/** Distance, ground and angle terms for a segment at closest distance s (m) subtending theta degrees. */
export function rlsPropagation(s: number, thetaDeg: number): number {
  const d = Math.max(5, s);
  const ds = 15.8 - 10 * Math.log10(d) - 0.0142 * Math.pow(d, 0.9);
  const dbm = Math.min(0, (2.25 / d) * (34 + 600 / d) - 4.8);
  return ds + dbm + 10 * Math.log10(Math.max(1e-6, thetaDeg) / 180);
}

/** A segment of a road with its traffic, in local metres. */
export interface RlsSegment {
  ax: number;
  ay: number;
  bx: number;
  by: number;
  road: RlsRoad;
}

/** Day (06-22) and night (22-06) LAeq at (x, y) from every segment, and Lden with the evening as day. */
export function rlsLevels(x: number, y: number, segments: readonly RlsSegment[]): { day: number; night: number; lden: number } {
  let eDay = 0, eNight = 0;
  for (const s of segments) {
    const ax = s.ax - x, ay = s.ay - y, bx = s.bx - x, by = s.by - y;
    const dx = bx - ax, dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0;
    t = Math.min(1, Math.max(0, t));
    const dist = Math.hypot(ax + t * dx, ay + t * dy);
    const theta = Math.abs(Math.atan2(ax * by - ay * bx, ax * bx + ay * by)) * (180 / Math.PI);
    const prop = rlsPropagation(dist, theta);
    const r = s.road;
    eDay += Math.pow(10, (rlsEmission(0.06 * r.aadt, r.heavyDay, r.speedKmh) + prop) / 10);
    eNight += Math.pow(10, (rlsEmission(r.nightFactor * r.aadt, r.heavyNight, r.speedKmh) + prop) / 10);
  }
  const day = 10 * Math.log10(eDay);
  const night = 10 * Math.log10(eNight);
  // Directive 2002/49/EC Annex I: Lden from 12 h day, 4 h evening (+5 dB) and 8 h night (+10 dB).
  const lden = 10 * Math.log10((12 * Math.pow(10, day / 10) + 4 * Math.pow(10, (day + 5) / 10) + 8 * Math.pow(10, (night + 10) / 10)) / 24);
  return { day, night, lden };
}

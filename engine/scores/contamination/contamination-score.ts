/**
 * `scores.contamination` (spec 2.6): proximity to sites on the state's contaminated-land register.
 *
 * `epa_status` (closed): `site_at_subject` (a register site within {@link AT_SUBJECT_M} of the subject),
 * `sites_nearby` (within the search radius), `checked_clear` (the state's complete register was checked,
 * nothing within the radius), `checked_partial_coverage` (only part of the state's register is held: a miss
 * proves nothing and is not scored), `not_integrated` (the state's register is not held, e.g. WA: the site
 * list is null, never an empty list, and must not be read as clear), `unavailable` (the lookup failed).
 *
 * Score (exposure, 100 = worst): max over sites in the radius of weight(status) x proximity, proximity 1
 * within {@link AT_SUBJECT_M} falling linearly to 0 at the radius; weight 0.5 for sites whose register
 * status says the work is done (remediated, closed, completed, no further action), 1 otherwise. Our
 * choices, stated so they can be tuned; without the parcel boundary "at the subject" means within 30 m of
 * the address point (about half a suburban lot).
 */
import { clampScore, component, levelOf, type Level, type ScoreComponent } from '../../score-kit/component.js';
import type { ContaminationRegister, ContaminationSite, RegisterCoverage } from './contamination-register.js';

/** A site this close to the subject is "at the subject", metres. */
export const AT_SUBJECT_M = 30;
/** Default search radius, metres. */
export const CONTAMINATION_RADIUS_M = 500;
/** Statuses that mark a site as dealt with (weight 0.5). */
const RESOLVED = /remediat|closed|complet|no further action|delist|cleared/i;

/** `epa_status` values. */
export type EpaStatus = 'site_at_subject' | 'sites_nearby' | 'checked_clear' | 'checked_partial_coverage' | 'not_integrated' | 'unavailable';

/** A site in the result. */
export interface ContaminationHit extends ContaminationSite {
  distance_m: number;
}

/** `scores.contamination`. */
export interface ContaminationScore {
  /** 0-100 exposure; null when the register was not checked completely (partial, not integrated, unavailable). */
  score: number | null;
  level: Level;
  epa_status: EpaStatus;
  register_coverage: RegisterCoverage | 'unavailable';
  state: string | null;
  search_radius_m: number;
  /** Sites within the radius, nearest first; null when the register was not checked (never an empty list then). */
  sites: ContaminationHit[] | null;
  components: { nearest_register_site: ScoreComponent<number | null> };
  note: string;
  sources: string[];
  caveat: string;
}

/** Computes `scores.contamination` for one subject. */
export function contaminationScore(reg: ContaminationRegister, subject: { lon: number; lat: number; state: string | null }, options: { radiusM?: number } = {}): ContaminationScore {
  const radius = options.radiusM ?? CONTAMINATION_RADIUS_M;
  const state = subject.state?.toUpperCase() ?? null;
  const coverage: RegisterCoverage = (state && reg.coverage[state]) || 'not_integrated';
  const base = { state, search_radius_m: radius };
  const none = (epa: EpaStatus, cov: ContaminationScore['register_coverage'], note: string, caveat: string): ContaminationScore => ({
    score: null,
    level: 'unknown',
    epa_status: epa,
    register_coverage: cov,
    ...base,
    sites: null,
    components: { nearest_register_site: component({ value: null, unit: 'm', level: 'unknown', resolution: null, source: null, caveat }) },
    note,
    sources: [],
    caveat,
  });
  if (coverage === 'not_integrated') {
    return none('not_integrated', 'not_integrated', `The contaminated-land register for ${state ?? 'an undetermined state'} is not integrated. No sites are listed because none were checked.`, 'Register not integrated: an empty result here must not be read as clear.');
  }
  if (!reg.index) {
    return none('unavailable', 'unavailable', `The register lookup failed (${reg.unavailableReason}); retry.`, 'Register lookup unavailable: nothing was checked.');
  }
  const hits: ContaminationHit[] = reg.index.within(subject.lon, subject.lat, radius).map((h) => ({ ...reg.sites[h.id], distance_m: Math.round(h.distance * 10) / 10 }));
  const nearest = hits[0] ?? null;
  const sources = [...new Set(hits.map((h) => h.source))].sort();
  if (!nearest) {
    if (coverage === 'partial') {
      return { ...none('checked_partial_coverage', 'partial', `Only part of the ${state} register is held; no held site is within ${radius} m, which proves nothing.`, `Partial register for ${state}: a miss is not a clear result.`), sites: [] };
    }
    return {
      score: 0,
      level: levelOf(0),
      epa_status: 'checked_clear',
      register_coverage: coverage,
      ...base,
      sites: [],
      components: { nearest_register_site: component({ value: null, unit: 'm', level: 'very_low', resolution: null, source: null, caveat: `No register site within ${radius} m.` }) },
      note: `The ${state} register was checked: no listed site within ${radius} m. Checked-clear is scoped to the held register, not a site contamination certificate.`,
      sources: [],
      caveat: 'Registers list notified and regulated sites only; unreported contamination is not on them.',
    };
  }
  let exposure = 0;
  for (const h of hits) {
    const proximity = h.distance_m <= AT_SUBJECT_M ? 1 : 1 - (h.distance_m - AT_SUBJECT_M) / (radius - AT_SUBJECT_M);
    exposure = Math.max(exposure, (RESOLVED.test(h.status) ? 0.5 : 1) * proximity);
  }
  const score = clampScore(100 * exposure);
  const at = nearest.distance_m <= AT_SUBJECT_M;
  return {
    score,
    level: levelOf(score),
    epa_status: at ? 'site_at_subject' : 'sites_nearby',
    register_coverage: coverage,
    ...base,
    sites: hits,
    components: {
      nearest_register_site: component({ value: nearest.distance_m, unit: 'm', level: levelOf(score), resolution: null, source: nearest.source, caveat: `Nearest listed site: ${nearest.name || nearest.site_id} (${nearest.status || 'status not published'}), measured to its register point, not its boundary.` }),
    },
    note: at ? `A register site lies within ${AT_SUBJECT_M} m of the address point.` : `${hits.length} register site${hits.length > 1 ? 's' : ''} within ${radius} m.`,
    sources,
    caveat: 'Register points locate sites approximately; the listing says nothing about the extent of contamination on this property.',
  };
}

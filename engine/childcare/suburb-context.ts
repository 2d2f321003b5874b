/**
 * Suburb census context for a childcare site analysis (spec 2.3): ABS Census DataPack tables by Suburbs and
 * Localities (G01 persons by age, G02 medians and averages) joined to the ASGS names on `SAL_CODE_2021`. It is
 * a suburb fact: the figures describe the whole suburb, never the catchment, and the section says so.
 *
 * The tables are read as the catalogue gives them: files of `childcare.suburb_demographics` with the layers
 * `names` (SAL_CODE_2021, SAL_NAME_2021), `g01` and `g02`. A real DataPack's files load the same way. SAL
 * names carry a state qualifier where a name repeats across states ("Richmond (Vic.)"); matching ignores it.
 */
import type { StateCode } from '../catalogue/states.js';
import type { RecordTable } from '../data/dataset-store.js';

/** G01 age groups reported, in order, with their labels. */
const AGE_GROUPS = [
  ['Age_0_4_yr_P', '0-4'],
  ['Age_5_14_yr_P', '5-14'],
  ['Age_15_19_yr_P', '15-19'],
  ['Age_20_24_yr_P', '20-24'],
  ['Age_25_34_yr_P', '25-34'],
  ['Age_35_44_yr_P', '35-44'],
  ['Age_45_54_yr_P', '45-54'],
  ['Age_55_64_yr_P', '55-64'],
  ['Age_65_74_yr_P', '65-74'],
  ['Age_75_84_yr_P', '75-84'],
  ['Age_85ov_P', '85+'],
] as const;

/** G02 figures reported, by output name. */
const MEDIANS = {
  median_age: 'Median_age_persons',
  median_household_income_weekly: 'Median_tot_hhd_inc_weekly',
  median_family_income_weekly: 'Median_tot_fam_inc_weekly',
  median_personal_income_weekly: 'Median_tot_prsnl_inc_weekly',
  median_rent_weekly: 'Median_rent_weekly',
  median_mortgage_repayment_monthly: 'Median_mortgage_repay_monthly',
  average_household_size: 'Average_household_size',
} as const;

/** The note every suburb context carries. */
export const SUBURB_FACT_NOTE = 'Suburb-level census figures (ABS Census 2021, suburbs and localities): they describe the whole suburb, never the catchment, and are not a radius or polygon statistic.';

/** A name compared without case, punctuation or a trailing state qualifier like "(Vic.)". */
export function suburbKey(name: string): string {
  return name.replace(/\s*\([^)]*\)\s*$/, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

const num = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** How the suburb was chosen: named in the request, or the locality of the nearest address to the site. */
export type SuburbSource = 'request' | 'nearest_address';

/** Census tables of one state, indexed by suburb name. */
export class SuburbCensus {
  private readonly byName = new Map<string, { code: string; name: string; g01?: Record<string, unknown>; g02?: Record<string, unknown>; attribution: string; source: string }[]>();

  /** Joins the tables' rows on SAL_CODE_2021 (rows of a code without a name are unreachable and skipped). */
  constructor(tables: readonly RecordTable[]) {
    const byCode = new Map<string, { g01?: Record<string, unknown>; g02?: Record<string, unknown> }>();
    for (const t of tables) {
      const layer = t.file.layer;
      if (layer !== 'g01' && layer !== 'g02') continue;
      for (const r of t.rows) {
        const code = String(r.SAL_CODE_2021 ?? '');
        const e = byCode.get(code) ?? {};
        e[layer] = r;
        byCode.set(code, e);
      }
    }
    for (const t of tables) {
      if (t.file.layer !== 'names') continue;
      for (const r of t.rows) {
        const code = String(r.SAL_CODE_2021 ?? ''), name = String(r.SAL_NAME_2021 ?? '');
        if (!code || !name) continue;
        const k = suburbKey(name);
        this.byName.set(k, [...(this.byName.get(k) ?? []), { code, name, ...byCode.get(code), attribution: t.source.attribution, source: t.source.id }]);
      }
    }
  }

  /** Suburbs held. */
  get size(): number {
    return [...this.byName.values()].reduce((n, l) => n + l.length, 0);
  }

  /**
   * The `suburb_context` section for `suburb` in `state`: the census figures when held, otherwise
   * `available: false` with the reason (no suburb named or found, or a suburb the tables do not hold).
   */
  context(state: StateCode, suburb: string | null, how: SuburbSource): Record<string, unknown> {
    const base = { suburb, state, suburb_source: suburb ? how : null, scope: 'suburb', note: SUBURB_FACT_NOTE };
    if (!suburb) return { ...base, available: false, reason: 'no_suburb', message: 'No suburb was named and none was found near the site; pass suburb to get its census context.' };
    // A name may repeat within a state ("Ascot (Ballarat - Vic.)", "Ascot (Greater Bendigo - Vic.)"): the exact
    // name decides; a bare name shared by several suburbs is ambiguous, never one of them picked silently.
    const all = this.byName.get(suburbKey(suburb)) ?? [];
    const exact = all.filter((x) => x.name.toLowerCase() === suburb.trim().toLowerCase());
    const pick = exact.length === 1 ? exact : all;
    if (pick.length > 1) return { ...base, available: false, reason: 'ambiguous', message: `${pick.length} suburbs in ${state} are called ${JSON.stringify(suburb)}: name one of ${pick.map((x) => JSON.stringify(x.name)).join(', ')}.` };
    const e = pick[0];
    if (!e || (!e.g01 && !e.g02)) return { ...base, available: false, reason: 'not_held', message: `This dataset holds no census figures for the suburb ${JSON.stringify(suburb)} in ${state}.` };
    const g01 = e.g01 ?? {}, g02 = e.g02 ?? {};
    const persons = num(g01.Tot_P_P);
    const ages = AGE_GROUPS.map(([col, label]) => {
      const count = num(g01[col]);
      return { age: label, persons: count, share: count !== null && persons ? Math.round((count / persons) * 1000) / 1000 : null };
    });
    const under5 = ages[0].persons;
    const medians = Object.fromEntries(Object.entries(MEDIANS).map(([k, col]) => [k, num(g02[col])]));
    return {
      ...base,
      suburb: e.name,
      available: true,
      census: { year: 2021, geography: 'ABS Suburbs and Localities (SAL)', sal_code: e.code },
      population: { persons, males: num(g01.Tot_P_M), females: num(g01.Tot_P_F) },
      children_0_4: { persons: under5, share: ages[0].share },
      age_groups: ages,
      ...medians,
      attribution: e.attribution,
      source: e.source,
    };
  }
}

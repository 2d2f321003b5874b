/**
 * Suburb census context in the shape of the ABS 2021 Census DataPacks (General Community Profile, Suburbs and
 * Localities): `2021Census_G01_<STATE>_SAL.csv` (selected person characteristics: persons by sex and age
 * group), `2021Census_G02_<STATE>_SAL.csv` (selected medians and averages) and the ASGS allocation of SAL
 * codes to names (`SAL_2021_<STATE>.csv`). The real column names are kept, so a real DataPack loads the same
 * way. Every figure is synthetic: the population follows the tile's dwellings in each suburb times a
 * household size, and the medians are drawn around Australian metropolitan values.
 *
 * Written last in a tile, from the tile's own random stream, so it changes no other layer's draws.
 */
import type { TileContext } from '../context.js';

/** ABS state digit of SAL codes (SAL1xxxx is NSW, SAL2xxxx VIC, ...). */
const STATE_DIGIT = { NSW: 1, VIC: 2, QLD: 3, SA: 4, WA: 5, TAS: 6, NT: 7, ACT: 8 } as const;
const STATE_NAME = { NSW: 'New South Wales', VIC: 'Victoria', QLD: 'Queensland', SA: 'South Australia', WA: 'Western Australia', TAS: 'Tasmania', NT: 'Northern Territory', ACT: 'Australian Capital Territory' } as const;

/** G01 age-group columns (persons) and each group's share of the population around which draws vary. */
export const G01_AGE_COLUMNS = [
  ['Age_0_4_yr_P', 0.062],
  ['Age_5_14_yr_P', 0.122],
  ['Age_15_19_yr_P', 0.058],
  ['Age_20_24_yr_P', 0.066],
  ['Age_25_34_yr_P', 0.152],
  ['Age_35_44_yr_P', 0.142],
  ['Age_45_54_yr_P', 0.124],
  ['Age_55_64_yr_P', 0.112],
  ['Age_65_74_yr_P', 0.092],
  ['Age_75_84_yr_P', 0.05],
  ['Age_85ov_P', 0.02],
] as const;

/** G02 columns, in the DataPack's order. */
export const G02_COLUMNS = ['SAL_CODE_2021', 'Median_age_persons', 'Median_mortgage_repay_monthly', 'Median_tot_prsnl_inc_weekly', 'Median_rent_weekly', 'Median_tot_fam_inc_weekly', 'Average_num_psns_per_bedroom', 'Median_tot_hhd_inc_weekly', 'Average_household_size'] as const;

/** Writes the tile's three suburbs' census tables and registers them. */
export function writeCensus(ctx: TileContext): void {
  const { spec, rnd } = ctx;
  const st = spec.state;
  const dwellings = new Map<string, number>();
  for (const a of ctx.addresses) dwellings.set(a.suburb, (dwellings.get(a.suburb) ?? 0) + 1);
  const names: Record<string, unknown>[] = [];
  const g01: Record<string, unknown>[] = [];
  const g02: Record<string, unknown>[] = [];
  spec.suburbs.forEach((s, k) => {
    const code = `SAL${STATE_DIGIT[st]}${String(ctx.tileIndex * 10 + k + 1).padStart(4, '0')}`;
    names.push({ SAL_CODE_2021: code, SAL_NAME_2021: s.name, STATE_CODE_2021: STATE_DIGIT[st], STATE_NAME_2021: STATE_NAME[st], AUS_CODE_2021: 'AUS', AUS_NAME_2021: 'Australia' });
    const householdSize = Math.round((2.2 + rnd.next() * 0.9) * 10) / 10;
    const persons = Math.max(50, Math.round((dwellings.get(s.name) ?? 0) * householdSize * 0.93));
    // Age groups: each share varied by up to a quarter, scaled so the groups sum exactly to the total.
    const weights = G01_AGE_COLUMNS.map(([, w]) => w * (0.75 + rnd.next() * 0.5));
    const sum = weights.reduce((a, b) => a + b, 0);
    const counts = weights.map((w) => Math.floor((persons * w) / sum));
    counts[4] += persons - counts.reduce((a, b) => a + b, 0);
    const males = Math.round(persons * (0.48 + rnd.next() * 0.03));
    const row: Record<string, unknown> = { SAL_CODE_2021: code, Tot_P_M: males, Tot_P_F: persons - males, Tot_P_P: persons };
    G01_AGE_COLUMNS.forEach(([c], i) => (row[c] = counts[i]));
    g01.push(row);
    const household = Math.round(1500 + rnd.next() * 1400);
    g02.push({
      SAL_CODE_2021: code,
      Median_age_persons: Math.round(32 + rnd.next() * 10),
      Median_mortgage_repay_monthly: Math.round(1700 + rnd.next() * 1300),
      Median_tot_prsnl_inc_weekly: Math.round(household * (0.42 + rnd.next() * 0.08)),
      Median_rent_weekly: Math.round(330 + rnd.next() * 250),
      Median_tot_fam_inc_weekly: Math.round(household * (1.1 + rnd.next() * 0.15)),
      Average_num_psns_per_bedroom: Math.round((0.7 + rnd.next() * 0.3) * 10) / 10,
      Median_tot_hhd_inc_weekly: household,
      Average_household_size: householdSize,
    });
  });
  const dir = `${ctx.dir}/abs`;
  const files = [
    { layer: 'names', path: `${dir}/SAL_2021_${st}.csv`, columns: ['SAL_CODE_2021', 'SAL_NAME_2021', 'STATE_CODE_2021', 'STATE_NAME_2021', 'AUS_CODE_2021', 'AUS_NAME_2021'], rows: names },
    { layer: 'g01', path: `${dir}/2021Census_G01_${st}_SAL.csv`, columns: ['SAL_CODE_2021', 'Tot_P_M', 'Tot_P_F', 'Tot_P_P', ...G01_AGE_COLUMNS.map(([c]) => c)], rows: g01 },
    { layer: 'g02', path: `${dir}/2021Census_G02_${st}_SAL.csv`, columns: [...G02_COLUMNS], rows: g02 },
  ];
  for (const f of files) {
    ctx.writer.csv(f.path, f.columns, f.rows);
    ctx.registry.add('sample_abs_census_sal', { path: f.path, state: st, layer: f.layer });
  }
}

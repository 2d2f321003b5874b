// Suburb census context (issue 18 part 5): the engine's suburb_context against the sample world's ABS-shaped
// tables read directly, the name rules (a state qualifier ignored), the nearest-address suburb when none is
// named, the not-held answer, and the site analysis carrying it as a suburb fact.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import { SUBURB_FACT_NOTE, suburbKey } from '../../../engine/childcare/suburb-context.js';
import { createEngine, type Engine } from '../../../engine/runtime/engine.js';
import { readRecords } from '../../../engine/vector/records.js';

let engine: Engine;
const tables = new Map<string, Record<string, unknown>[]>();

beforeAll(async () => {
  engine = await createEngine({ datasets: defaultDataDir() });
  for (const [layer, file] of [['names', 'SAL_2021_NSW.csv'], ['g01', '2021Census_G01_NSW_SAL.csv'], ['g02', '2021Census_G02_NSW_SAL.csv']]) {
    tables.set(layer, (await readRecords(join(defaultDataDir(), 'nsw', 'abs', file), { format: 'csv' })).rows);
  }
}, 120_000);

afterAll(async () => {
  await engine?.close();
});

describe('suburb census context', () => {
  it('reports each NSW suburb\'s G01 and G02 figures as the files hold them, labelled a suburb fact', () => {
    const names = tables.get('names')!;
    expect(names.length).toBe(3);
    for (const n of names) {
      const code = n.SAL_CODE_2021;
      const g01 = tables.get('g01')!.find((r) => r.SAL_CODE_2021 === code)!;
      const g02 = tables.get('g02')!.find((r) => r.SAL_CODE_2021 === code)!;
      const c = engine.suburbContext('NSW', String(n.SAL_NAME_2021), 151, -33.8) as Record<string, any>;
      expect(c).toMatchObject({ available: true, suburb: n.SAL_NAME_2021, state: 'NSW', scope: 'suburb', suburb_source: 'request', note: SUBURB_FACT_NOTE, census: { year: 2021, sal_code: code } });
      expect(c.population).toEqual({ persons: Number(g01.Tot_P_P), males: Number(g01.Tot_P_M), females: Number(g01.Tot_P_F) });
      expect(c.population.males + c.population.females).toBe(c.population.persons);
      // The age groups partition the population.
      expect(c.age_groups.reduce((s: number, a: { persons: number }) => s + a.persons, 0)).toBe(c.population.persons);
      expect(c.children_0_4).toEqual({ persons: Number(g01.Age_0_4_yr_P), share: Math.round((Number(g01.Age_0_4_yr_P) / Number(g01.Tot_P_P)) * 1000) / 1000 });
      expect(c.median_household_income_weekly).toBe(Number(g02.Median_tot_hhd_inc_weekly));
      expect(c.median_age).toBe(Number(g02.Median_age_persons));
      expect(c.average_household_size).toBe(Number(g02.Average_household_size));
      expect(c.attribution).toMatch(/Census 2021/);
    }
  });

  it('matches a name without case or a state qualifier; says not_held for a suburb it lacks', () => {
    const name = String(tables.get('names')![1].SAL_NAME_2021);
    expect(suburbKey('Richmond (Vic.)')).toBe('richmond');
    const c = engine.suburbContext('NSW', `${name.toUpperCase()} (NSW)`, 151, -33.8) as Record<string, any>;
    expect(c.available).toBe(true);
    expect(c.suburb).toBe(name);
    expect(engine.suburbContext('NSW', 'Narnia', 151, -33.8)).toMatchObject({ available: false, reason: 'not_held', suburb: 'Narnia' });
    // A suburb of another state is not this state's.
    expect(engine.suburbContext('VIC', name, 145, -37.8)).toMatchObject({ available: false, reason: 'not_held' });
  });

  it('takes the suburb of the nearest address when none is named, and says so', async () => {
    const sandbox = (await engine.sandbox()).filter((s) => s.state === 'NSW');
    for (const s of sandbox.slice(0, 3)) {
      const near = engine.addresses().nearest(s.lng, s.lat, 2000)!;
      const c = engine.suburbContext('NSW', null, s.lng, s.lat) as Record<string, any>;
      expect(c).toMatchObject({ available: true, suburb: near.record.suburb, suburb_source: 'nearest_address' });
    }
    // Far from every address: no suburb, said plainly.
    expect(engine.suburbContext('NSW', null, 140, -30)).toMatchObject({ available: false, reason: 'no_suburb', suburb: null });
  });

  it('is part of the engine\'s site analysis, beside the circle\'s counts', async () => {
    const s = (await engine.sandbox()).find((x) => x.state === 'NSW')!;
    const data = engine.childcare.siteAnalysis({ state: 'NSW', catchment: { kind: 'circle', lat: s.lat, lng: s.lng, radius_km: 3 }, suburb: null }) as Record<string, any>;
    expect(data.suburb_context).toMatchObject({ available: true, scope: 'suburb' });
    expect(data.schools.available).toBe(true);
    expect(data.headline.total).toBe((engine.childcare.analysis({ states: ['NSW'], catchment: { kind: 'circle', lat: s.lat, lng: s.lng, radius_km: 3 } }) as Record<string, any>).headline.total);
  });
});

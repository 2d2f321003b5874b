import { describe, expect, it } from 'vitest';
import { destination } from '../../../../engine/geo/distance.js';
import { buildContaminationRegister, contaminationSitesFromRows, type ContaminationSite } from '../../../../engine/scores/contamination/contamination-register.js';
import { contaminationScore } from '../../../../engine/scores/contamination/contamination-score.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';

const LON = 144.98, LAT = -37.8;
const site = (d: number, status = 'Notified', state = 'VIC', id = `s${d}`): ContaminationSite => {
  const [lon, lat] = destination(LON, LAT, d, 60);
  return { site_id: id, lon, lat, name: `Site ${id}`, status, register: 'EPA register', state, source: `sample_epa_${state.toLowerCase()}` };
};
const coverage = { VIC: 'complete', NSW: 'partial', WA: 'not_integrated' } as const;

describe('scores.contamination', () => {
  it('WA (register not integrated) is not_integrated with no site list: an empty result is never clear', () => {
    const reg = buildContaminationRegister([site(40, 'Notified', 'WA')], coverage);
    const r = contaminationScore(reg, { lon: LON, lat: LAT, state: 'WA' });
    expect(r).toMatchObject({ epa_status: 'not_integrated', register_coverage: 'not_integrated', score: null, level: 'unknown', sites: null });
    expect(r.caveat).toMatch(/must not be read as clear/);
    expect(contaminationScore(reg, { lon: LON, lat: LAT, state: null }).epa_status).toBe('not_integrated');
    expect(contaminationScore(reg, { lon: LON, lat: LAT, state: 'TAS' }).epa_status).toBe('not_integrated'); // absent from the coverage map
  });

  it('a site within 30 m is at the subject (score 100); a site at 265 m scores 1 - 235/470 = 50', () => {
    const at = contaminationScore(buildContaminationRegister([site(20), site(265)], coverage), { lon: LON, lat: LAT, state: 'VIC' });
    expect(at).toMatchObject({ epa_status: 'site_at_subject', score: 100, register_coverage: 'complete' });
    expect(at.sites!.map((s) => s.site_id)).toEqual(['s20', 's265']);
    const near = contaminationScore(buildContaminationRegister([site(265)], coverage), { lon: LON, lat: LAT, state: 'VIC' });
    expect(near).toMatchObject({ epa_status: 'sites_nearby', score: 50 });
    expect(near.components.nearest_register_site).toMatchObject({ value: 265, unit: 'm', source: 'sample_epa_vic' });
  });

  it('a remediated site weighs half', () => {
    expect(contaminationScore(buildContaminationRegister([site(25, 'Remediated - no further action')], coverage), { lon: LON, lat: LAT, state: 'VIC' }).score).toBe(50);
  });

  it('a complete register with nothing in the radius is checked_clear with an empty list and score 0', () => {
    const r = contaminationScore(buildContaminationRegister([site(800)], coverage), { lon: LON, lat: LAT, state: 'VIC' });
    expect(r).toMatchObject({ epa_status: 'checked_clear', score: 0, sites: [] });
  });

  it('a miss against a partial register is not scored', () => {
    const r = contaminationScore(buildContaminationRegister([site(800, 'Notified', 'NSW')], coverage), { lon: LON, lat: LAT, state: 'NSW' });
    expect(r).toMatchObject({ epa_status: 'checked_partial_coverage', score: null, sites: [] });
  });

  it('a failed register load is unavailable, not clear', () => {
    const r = contaminationScore(buildContaminationRegister({ status: 'unavailable', reason: 'epa.csv: not found' }, coverage), { lon: LON, lat: LAT, state: 'VIC' });
    expect(r).toMatchObject({ epa_status: 'unavailable', register_coverage: 'unavailable', score: null, sites: null });
    expect(r.note).toMatch(/epa.csv: not found/);
  });

  it('reads register rows and names the bad line', async () => {
    const rows = [{ site_id: 'e1', lon: '144.98', lat: '-37.8', name: 'Old Gasworks', status: 'Notified', register: 'EPA Victoria', state: 'vic', source: 'sample_epa_vic' }];
    expect(contaminationSitesFromRows(rows, 'epa.csv')[0]).toMatchObject({ site_id: 'e1', state: 'VIC', lon: 144.98 });
    await expectEngineError(() => contaminationSitesFromRows([{ ...rows[0], lat: '' }], 'epa.csv'), 'INVALID_DATA', 'epa.csv', 'line 2');
  });
});

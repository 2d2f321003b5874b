// Report safety and census names (review of issue 19): council links from data become links only when they
// are http or https (a javascript: or file: URL stays text in both formats); a suburb name repeated within a
// state answers ambiguous unless the exact name is given.
import { describe, expect, it } from 'vitest';
import { reportBlocks, safeLink } from '../../../engine/childcare/report/report-content.js';
import { reportHtml } from '../../../engine/childcare/report/report-html.js';
import { reportPdf } from '../../../engine/childcare/report/report-pdf.js';
import { SuburbCensus } from '../../../engine/childcare/suburb-context.js';
import type { RecordTable } from '../../../engine/data/dataset-store.js';

const feature = (url: string, ref: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [151, -33.8] }, properties: { council_reference: ref, address: '1 Test St', childcare_pipeline_stage: 'approved', childcare_works_type: 'new_centre', lodgement_date: '2026-01-02', council_name: 'Test Council', council_url: url } });

describe('council links in reports', () => {
  it('keeps http and https links and turns every other scheme into text', async () => {
    expect(safeLink('https://example.org/da/1')).toBe('https://example.org/da/1');
    expect(safeLink('http://example.org/x?a=1')).toBe('http://example.org/x?a=1');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'file:///etc/passwd', 'data:text/html,<b>', 'not a url', '', null]) expect(safeLink(bad)).toBeNull();
    const data = { headline: { total: 2 }, geojson: { features: [feature('javascript:alert(1)', 'BAD/1'), feature('https://example.org/da/2', 'GOOD/2')], total_features: 2 }, notices: { attribution: [], licences: [], data_boundaries: [] } };
    const blocks = reportBlocks(data, { state: 'NSW', circle: { lat: -33.8, lng: 151, radius_km: 1 }, suburb: null, generatedAt: '2026-11-25T00:00:00Z' }, []);
    const map = { width: 10, height: 10, items: [] };
    const html = reportHtml(blocks, map);
    expect(html).toContain('href="https://example.org/da/2"');
    expect(html).not.toMatch(/javascript:/i);
    const pdf = (await reportPdf(blocks, map, { title: 't', subject: 's' })).toString('latin1');
    expect(pdf).toContain('(https://example.org/da/2)');
    expect(pdf).not.toMatch(/javascript/i);
  });
});

describe('suburb names repeated within a state', () => {
  const table = (layer: string, rows: Record<string, unknown>[]) => ({ kind: 'records', source: { id: 'abs', attribution: 'ABS' }, file: { path: `${layer}.csv`, layer }, columns: Object.keys(rows[0]), rows }) as unknown as RecordTable;
  const census = new SuburbCensus([
    table('names', [{ SAL_CODE_2021: 'SAL20001', SAL_NAME_2021: 'Ascot (Ballarat - Vic.)' }, { SAL_CODE_2021: 'SAL20002', SAL_NAME_2021: 'Ascot (Greater Bendigo - Vic.)' }, { SAL_CODE_2021: 'SAL20003', SAL_NAME_2021: 'Fitzroy' }]),
    table('g01', [{ SAL_CODE_2021: 'SAL20001', Tot_P_P: 100 }, { SAL_CODE_2021: 'SAL20002', Tot_P_P: 200 }, { SAL_CODE_2021: 'SAL20003', Tot_P_P: 300 }]),
  ]);

  it('answers ambiguous for a bare shared name, and the suburb itself for its exact name', () => {
    expect(census.context('VIC', 'Ascot', 'request')).toMatchObject({ available: false, reason: 'ambiguous' });
    expect((census.context('VIC', 'Ascot', 'request') as { message: string }).message).toMatch(/Ascot \(Ballarat - Vic\.\)/);
    expect(census.context('VIC', 'ascot (greater bendigo - vic.)', 'request')).toMatchObject({ available: true, suburb: 'Ascot (Greater Bendigo - Vic.)', population: { persons: 200 } });
    expect(census.context('VIC', 'FITZROY (Vic.)', 'request')).toMatchObject({ available: true, suburb: 'Fitzroy', population: { persons: 300 } });
    expect(census.size).toBe(3);
  });
});

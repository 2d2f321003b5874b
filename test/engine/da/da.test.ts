// DA records: the classifier (hand-written descriptions and the sample world's truth), bands, childcare
// fields, the SQLite store (upsert, queries, persistence) and the spec 2.3 item.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import { openDataStore } from '../../../engine/data/dataset-store.js';
import { childcarePipelineStage, childcarePlaces, childcareWorksType, classifyDa, costBand, daItem, daRecordsFromRows, DaStore, daStoreFromDataStore, estimatedValueBand, residentialFlag } from '../../../engine/da/index.js';
import { tempDir } from '../../helpers/tmp.js';

describe('classifyDa', () => {
  const cases: [string, string, string[]?][] = [
    ['Construction of a double storey dwelling', 'new_dwelling'],
    ['Construction of a two storey dwelling with in-ground swimming pool', 'new_dwelling', ['new_dwelling', 'swimming_pool']],
    ['Demolition of existing dwelling and construction of an attached dual occupancy', 'dual_occupancy', ['dual_occupancy', 'demolition']],
    ['Construction of a 4 storey apartment building comprising 12 dwellings and basement car parking', 'multi_unit_residential'],
    ['Construction of 5 townhouses', 'multi_unit_residential'],
    // Counts in words, and hyphenated storeys between the count and the noun.
    ['Construction of three double-storey dwellings', 'multi_unit_residential'],
    ['Development of twelve two-storey townhouse units', 'multi_unit_residential'],
    ['Construction of two double-storey dwellings', 'dual_occupancy'],
    ['Construction of a double-storey dwelling', 'new_dwelling'],
    ['Ground floor rear extension and first floor addition to existing dwelling', 'alterations_additions'],
    ['Construction of a secondary dwelling (granny flat)', 'secondary_dwelling'],
    ['Subdivision of land into 3 lots', 'subdivision'],
    ['Demolition of existing dwelling and outbuildings', 'demolition'],
    ['Installation of an in-ground swimming pool and pool fencing', 'swimming_pool'],
    ['Removal of two (2) significant trees', 'tree_works'],
    ['Display of illuminated business identification signage', 'signage'],
    ['Change of use from shop to office', 'change_of_use'],
    ['Use and development of a three storey office building with ground floor car parking', 'commercial'],
    ['Fit-out of a supermarket tenancy', 'retail'],
    ['Construction of a warehouse and associated car parking', 'industrial'],
    ['Construction of a five storey mixed use building comprising ground floor retail and 20 dwellings', 'mixed_use'],
    ['Change of use to a child care centre for 90 children', 'childcare', ['childcare', 'change_of_use']],
    ['Construction of a two storey classroom building (School)', 'education'],
    ['Change of use to a dental clinic', 'health_medical', ['health_medical', 'change_of_use']],
    ['Use and development of serviced apartments', 'tourism_hospitality'],
    ['Construction of a community pavilion and public toilets', 'community_infrastructure'],
    ['Construction of a front fence', 'other'],
  ];
  it.each(cases)('%s -> %s', (text, category, categories) => {
    const r = classifyDa(text);
    expect(r.category).toBe(category);
    if (categories) expect(r.categories).toEqual(categories);
    expect(r.categories[0]).toBe(category);
  });

  it('agrees with the sample world truth on at least 97% of applications', () => {
    const dir = defaultDataDir();
    const truth = new Map<number, string>();
    for (const f of readdirSync(join(dir, 'eval')).filter((f) => f.endsWith('-da-categories.jsonl'))) {
      for (const line of readFileSync(join(dir, 'eval', f), 'utf8').split('\n').filter(Boolean)) {
        const t = JSON.parse(line) as { id: number; category: string };
        truth.set(t.id, t.category);
      }
    }
    let n = 0, right = 0;
    for (const state of ['vic', 'nsw', 'qld', 'wa', 'sa', 'tas', 'act', 'nt']) {
      for (const line of readFileSync(join(dir, state, 'da-records.jsonl'), 'utf8').split('\n').filter(Boolean)) {
        const r = JSON.parse(line) as { id: number; description: string };
        n++;
        if (classifyDa(r.description).category === truth.get(r.id)) right++;
      }
    }
    expect(n).toBeGreaterThan(2000);
    expect(right / n).toBeGreaterThanOrEqual(0.97);
  });
});

describe('bands and flags', () => {
  it('bands a published cost at the edges', () => {
    expect(costBand(null)).toBeNull();
    expect(costBand(0)).toBeNull();
    expect(costBand(99_999)).toBe('under_100k');
    expect(costBand(100_000)).toBe('100k_500k');
    expect(costBand(999_999)).toBe('500k_1m');
    expect(costBand(1_000_000)).toBe('1m_5m');
    expect(costBand(5_000_000)).toBe('5m_plus');
  });

  it('estimates a band from the category when no cost is published, never null', () => {
    expect(estimatedValueBand({ category: 'new_dwelling', cost: null, dwellings: null })).toBe('100k_500k');
    expect(estimatedValueBand({ category: 'multi_unit_residential', cost: null, dwellings: 20 })).toBe('5m_plus');
    expect(estimatedValueBand({ category: 'multi_unit_residential', cost: null, dwellings: null })).toBe('unknown');
    expect(estimatedValueBand({ category: 'other', cost: null, dwellings: null })).toBe('unknown');
    expect(estimatedValueBand({ category: 'other', cost: 250_000, dwellings: null })).toBe('100k_500k');
  });

  it('flags residential categories', () => {
    expect(residentialFlag(['dual_occupancy'])).toBe(true);
    expect(residentialFlag(['retail'])).toBe(false);
    expect(residentialFlag(['childcare', 'change_of_use'])).toBe(false);
  });

  it('maps every state status vocabulary of the sample world to a pipeline stage', () => {
    const map: Record<string, string> = {
      'Further Information Requested': 'under_assessment', Advertising: 'advertised', 'Permit Issued': 'approved', Refused: 'refused', Withdrawn: 'withdrawn', Lapsed: 'unknown',
      'Under Assessment': 'under_assessment', 'On Exhibition': 'advertised', 'Determined - Approved': 'approved', 'Determined - Refused': 'refused', 'Deferred Commencement': 'approved',
      'Public notification': 'advertised', 'Information request': 'under_assessment', 'In Progress': 'under_assessment', Deferred: 'under_assessment', Verified: 'under_assessment',
      'Public Notification': 'advertised', 'Planning Consent Granted': 'approved', Lodged: 'under_assessment', Received: 'under_assessment', Advertised: 'advertised',
      'Further information': 'under_assessment', Reconsideration: 'under_assessment', Exhibition: 'advertised', 'Development Permit Issued': 'approved',
    };
    for (const [status, stage] of Object.entries(map)) expect(childcarePipelineStage(status), status).toBe(stage);
  });

  it('reads childcare works type and places', () => {
    expect(childcareWorksType('Use and development of a childcare centre (120 places)')).toBe('new_centre');
    expect(childcareWorksType('Extension of existing early learning centre (additional 30 places)')).toBe('extension');
    expect(childcareWorksType('Change of use to a child care centre for 90 children')).toBe('change_of_use');
    expect(childcareWorksType('Alterations and additions to an existing kindergarten and child care centre')).toBe('alterations');
    expect(childcarePlaces('Use and development of a childcare centre (120 places)')).toBe(120);
    expect(childcarePlaces('Change of use to a child care centre for 90 children')).toBe(90);
    expect(childcarePlaces('Alterations to a kindergarten')).toBeNull();
  });
});

const row = (id: number, over: Record<string, unknown> = {}) => ({
  id, council_reference: `DA/${id}/2026`, council: 'Test Council', address: '1 Test Street', suburb: 'Testville', state: 'VIC', postcode: '3000',
  description: 'Construction of a double storey dwelling', status: 'Under Assessment', lodged: '2026-01-01', cost: 600000,
  lat: -37.8, lng: 145.0, council_url: 'https://example.gov.au/search', council_url_type: 'search_entry', last_fetched_at: '2026-10-01T00:00:00Z', source: 'test_das', ...over,
});

describe('DaStore', () => {
  const stores: DaStore[] = [];
  afterAll(() => stores.forEach((s) => s.close()));
  const open = (path = ':memory:') => {
    const s = DaStore.open(path);
    stores.push(s);
    return s;
  };

  it('orders nearby records by lodgement and keeps the radius edge', () => {
    const s = open();
    // 0.001 degrees of latitude is about 111 m.
    s.upsert(daRecordsFromRows([row(1, { lodged: '2026-01-01' }), row(2, { lat: -37.801, lodged: '2026-03-01' }), row(3, { lat: -37.8027, lodged: '2026-02-01' }), row(4, { lat: -37.8028 })], 'test'));
    const hits = s.nearby(145.0, -37.8, 300);
    expect(hits.map((h) => h.record.id)).toEqual([2, 3, 1]);
    expect(s.nearby(145.0, -37.8, 300, { orderBy: 'distance' }).map((h) => h.record.id)).toEqual([1, 2, 3]);
  });

  it('moves an updated record in queries, without ghosts', () => {
    const s = open();
    s.upsert(daRecordsFromRows([row(1), row(2)], 'test'));
    expect(s.upsert(daRecordsFromRows([row(1, { lat: -37.9, status: 'Approved' })], 'test'))).toMatchObject({ added: 0, changed: 1, refreshed: 0, unchanged: 0 });
    expect(s.nearby(145.0, -37.8, 50).map((h) => h.record.id)).toEqual([2]);
    expect(s.nearby(145.0, -37.9, 50).map((h) => h.record.status)).toEqual(['Approved']);
    expect(s.size).toBe(2);
  });

  it('finds records inside a polygon with a hole', () => {
    const s = open();
    s.upsert(daRecordsFromRows([row(1, { lng: 145.0005, lat: -37.8005 }), row(2, { lng: 145.0001, lat: -37.8001 }), row(3, { lng: 145.002, lat: -37.8005 })], 'test'));
    const ring = [[145.0, -37.801], [145.001, -37.801], [145.001, -37.8], [145.0, -37.8], [145.0, -37.801]];
    const hole = [[145.0004, -37.8006], [145.0004, -37.8004], [145.0006, -37.8004], [145.0006, -37.8006], [145.0004, -37.8006]];
    expect(s.within({ type: 'Polygon', coordinates: [ring, hole] }).map((r) => r.id)).toEqual([2]);
  });

  it('keeps records across a reopen of the file', () => {
    const path = join(tempDir('das-'), 'das.db');
    const a = DaStore.open(path);
    a.upsert(daRecordsFromRows([row(7)], 'test'));
    a.close();
    const b = open(path);
    expect(b.get(7)?.ref).toBe('DA/7/2026');
    expect(b.nearby(145.0, -37.8, 10)).toHaveLength(1);
  });

  it('lists pages, counts categories and councils', () => {
    const s = open();
    s.upsert(daRecordsFromRows([row(1, { lodged: '2026-01-01' }), row(2, { lodged: '2026-02-01', description: 'Subdivision of land into 2 lots' }), row(3, { lodged: '2026-03-01' })], 'test'));
    const p1 = s.list({}, { limit: 2 });
    expect(p1.map((r) => r.id)).toEqual([3, 2]);
    expect(s.list({}, { limit: 2, after: { lodged: p1[1].lodged, id: p1[1].id } }).map((r) => r.id)).toEqual([1]);
    expect(s.list({}, { limit: 2, offset: 2 }).map((r) => r.id)).toEqual([1]);
    expect(s.categoryCounts().new_dwelling).toBe(2);
    expect(s.categoryCounts().subdivision).toBe(1);
    expect(s.councils()).toEqual([{ name: 'Test Council', state: 'VIC', count: 3, last_updated: '2026-10-01T00:00:00Z', geocoded: 3, status_present: 3 }]);
  });

  it('rejects bad rows naming each one', () => {
    expect(() => daRecordsFromRows([row(1, { lodged: '1/1/2026' }), row(2, { lat: 'x' })], 'bad')).toThrow(/row 1: lodged.*\n.*row 2: lat\/lng/s);
  });

  it('loads the sample world and gives spec 2.3 items', async () => {
    const store = await openDataStore(defaultDataDir(), { shared: false });
    const s = daStoreFromDataStore(store);
    stores.push(s);
    expect(s.size).toBeGreaterThan(2000);
    expect(s.latestFetchedAt()).toMatch(/^2026-/);
    const r = s.list({}, { limit: 1 })[0];
    const item = daItem(r, 123.4);
    expect(Object.keys(item).filter((k) => k !== 'cost')).toEqual(['id', 'ref', 'address', 'suburb', 'state', 'council', 'description', 'categories', 'category', 'status', 'lodged', 'lat', 'lng', 'distance_km', 'residential', 'cost_band', 'estimated_value_band', 'council_url', 'council_url_type', 'last_fetched_at']);
    expect(item.distance_km).toBe(0.123);
  });
});

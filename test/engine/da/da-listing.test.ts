// The DA listing's documents and its parameter validation (shared by the HTTP API and `propintel das`), the
// status rule table against every status text the sample world writes, PlanningAlerts-style rows, the
// summary on a hand-worked record, and `das import` (all or nothing, skip-invalid, malformed files, real
// PlanningAlerts records).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticDaRows } from '../../../datasets/da-feed.js';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import {
  classifyStatus, DA_CATEGORIES, DaStore, importDaFile, parseDaRows, splitAddress, STATUS_RULES, summarise, type DaRecord,
} from '../../../engine/da/index.js';
import { daStoreFromDirectory } from '../../../engine/da/da-sync.js';
import { daCategoriesDocument, daCouncilsDocument, daDetailDocument, daListDocument, daNearbyDocument, daStatsDocument } from '../../../server/api/da-query.js';
import { EngineError } from '../../../engine/errors.js';
import { realdata } from '../../helpers/realdata.js';
import { tempDir } from '../../helpers/tmp.js';
import { needsRealdata } from '../../helpers/skip.js';

const dir = tempDir('da-listing-');
const params = (o: Record<string, string | number>) => new Map(Object.entries(o).map(([k, v]) => [k, String(v)]));
const stores: DaStore[] = [];
afterAll(() => stores.forEach((s) => s.close()));

function engineError(fn: () => unknown): EngineError {
  try {
    fn();
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error('expected an EngineError');
}

describe('the status rule table', () => {
  it('groups every status text the sample world writes by an explicit rule', () => {
    const expected: Record<string, [string, string]> = {
      'Further Information Requested': ['pending', 'under_assessment'], Advertising: ['advertised', 'advertised'], 'Permit Issued': ['approved', 'approved'], Refused: ['rejected', 'refused'],
      Withdrawn: ['other', 'withdrawn'], Lapsed: ['other', 'unknown'], 'Under Assessment': ['pending', 'under_assessment'], 'On Exhibition': ['advertised', 'advertised'],
      'Determined - Approved': ['approved', 'approved'], 'Determined - Refused': ['rejected', 'refused'], 'Deferred Commencement': ['approved', 'approved'], 'Under assessment': ['pending', 'under_assessment'],
      'Public notification': ['advertised', 'advertised'], Approved: ['approved', 'approved'], 'Information request': ['pending', 'under_assessment'], 'In Progress': ['pending', 'under_assessment'],
      Deferred: ['pending', 'under_assessment'], Verified: ['pending', 'under_assessment'], 'Public Notification': ['advertised', 'advertised'], 'Planning Consent Granted': ['approved', 'approved'],
      Lodged: ['pending', 'under_assessment'], Received: ['pending', 'under_assessment'], Advertised: ['advertised', 'advertised'], 'Further information': ['pending', 'under_assessment'],
      Reconsideration: ['pending', 'under_assessment'], Exhibition: ['advertised', 'advertised'], 'Development Permit Issued': ['approved', 'approved'],
    };
    const seen = new Set<string>();
    for (const state of readdirSync(defaultDataDir()).filter((d) => /^[a-z]{2,3}$/.test(d))) {
      for (const line of readFileSync(join(defaultDataDir(), state, 'da-records.jsonl'), 'utf8').split('\n').filter(Boolean)) seen.add((JSON.parse(line) as { status: string }).status);
    }
    expect(seen.size).toBeGreaterThan(20);
    for (const status of seen) {
      const c = classifyStatus(status);
      expect(c.rule, status).not.toBeNull();
      expect(Object.keys(expected), `${status} has a hand-written expectation`).toContain(status);
      expect([c.status_group, c.stage], status).toEqual(expected[status]);
    }
  });

  it('reads refusals and approvals before the words they contain, and leaves unknown text as other', () => {
    expect(classifyStatus('Not Approved').status_group).toBe('rejected');
    expect(classifyStatus('Notice of Refusal').decision_status).toBe('refused');
    expect(classifyStatus('Notice of Decision to Grant').status_group).toBe('approved');
    expect(classifyStatus('').status_group).toBe('other');
    expect(classifyStatus('Something Else Entirely')).toEqual({ status_group: 'other', stage: 'unknown', decision_status: null, rule: null });
    // Wording of other registers: undecided applications, and exhibitions that say so differently.
    for (const s of ['Under Consideration', 'Awaiting Determination', 'Current', 'OPEN', 'On Hold', 'Stop the clock - additional information requested', 'Being assessed']) expect([s, classifyStatus(s).stage]).toEqual([s, 'under_assessment']);
    for (const s of ['Open for Comment', 'Open for public submissions', 'Submissions invited']) expect([s, classifyStatus(s).status_group]).toEqual([s, 'advertised']);
    // No outcome named: unknown, never guessed.
    expect(classifyStatus('Determined').stage).toBe('unknown');
    expect(classifyStatus('Currently unavailable').rule).toBeNull();
    expect(new Set(STATUS_RULES.map((r) => r.group))).toEqual(new Set(['pending', 'advertised', 'approved', 'rejected', 'other']));
  });
});

describe('rows in the three spellings', () => {
  it('splits one-line addresses with and without a comma', () => {
    expect(splitAddress('591 Carlisle Avenue MINCHINBURY NSW 2770')).toEqual({ street: '591 Carlisle Avenue', suburb: 'Minchinbury', state: 'NSW', postcode: '2770' });
    expect(splitAddress('12 Waley Street MARSDEN PARK NSW 2765')).toEqual({ street: '12 Waley Street', suburb: 'Marsden Park', state: 'NSW', postcode: '2765' });
    expect(splitAddress('12 Smith St, Fitzroy VIC 3065')).toEqual({ street: '12 Smith St', suburb: 'Fitzroy', state: 'VIC', postcode: '3065' });
    expect(splitAddress('355 Jampot Creek Rd COORAN  QLD  4569')?.suburb).toBe('Cooran');
    expect(splitAddress('Lot 5 Somewhere Road')).toBeNull();
  });

  it('reads a PlanningAlerts record: authority object, address tail, date_received, optional coordinates', () => {
    const { drafts, rejected } = parseDaRows(
      [
        { id: 999, authority: { full_name: 'Blacktown City Council' }, council_reference: 'DA-19-1', address: '96 Norman Street PROSPECT NSW 2148', description: 'Demolition of existing dwelling and construction of two dwellings', date_received: '2019-05-31', date_scraped: '2019-06-01', info_url: 'https://example.gov.au/DA-19-1', lat: -33.8, lng: 150.9 },
        { authority: 'noosa', council_reference: 'PC19/0641', address: '355 Jampot Creek Rd COORAN  QLD  4569', description: 'Dwelling', date_received: '2019-06-04', date_scraped: '2019-05-15', info_url: 'https://x/y' },
      ],
      'pa',
    );
    expect(rejected).toEqual([]);
    expect(drafts[0]).toMatchObject({ id: null, council: 'Blacktown City Council', ref: 'DA-19-1', address: '96 Norman Street', suburb: 'Prospect', state: 'NSW', postcode: '2148', lodged: '2019-05-31', last_fetched_at: '2019-06-01T00:00:00Z', council_url_type: 'application_record', lat: -33.8, lng: 150.9, category: 'dual_occupancy', status: '', status_group: 'other' });
    expect(drafts[1]).toMatchObject({ council: 'noosa', state: 'QLD', suburb: 'Cooran', lat: null, lng: null });
  });

  it('names every problem of every bad row', () => {
    const { rejected } = parseDaRows(
      [
        { council: 'C', council_reference: 'R1', state: 'VIC', description: 'x', lodged: '2026-02-30' },
        { council: 'C', council_reference: 'R2', state: 'XX', description: '', lodged: '2026-01-01', lat: -37 },
        { council: 'C', council_reference: 'R3', state: 'VIC', description: 'x', lodged: '2026-01-01', cost: 'lots' },
        { council: 'C', council_reference: 'R3', state: 'VIC', description: 'x', lodged: '2026-01-01' },
        { council: 'C', council_reference: 'R3', state: 'VIC', description: 'x', lodged: '2026-01-01' },
      ],
      'bad',
    );
    expect(rejected.map((r) => r.row)).toEqual([1, 2, 3, 5]);
    expect(rejected[0].reason).toMatch(/lodged "2026-02-30" is not a date/);
    for (const m of [/state "XX" is not a state code/, /lat\/lng .* give both, or neither/]) expect(rejected[1].reason).toMatch(m);
    expect(rejected[1].reason).not.toMatch(/description/); // an empty description is no reason to refuse a record
    expect(rejected[2].reason).toMatch(/cost "lots" is not a number/);
    expect(rejected[3].reason).toMatch(/repeats row 4/);
  });
});

describe('the summary', () => {
  it('says what, where, when, cost and status in plain English, on a hand-worked record', () => {
    const [d] = parseDaRows([{ id: 1, council: 'Merri-bek City Council', council_reference: 'MPS/2026/12', address: '12 Smith Street', suburb: 'Coburg', state: 'VIC', postcode: '3058', description: 'Construction of a 4 storey apartment building comprising 12 dwellings and basement car parking', status: 'Permit Issued', lodged: '2026-03-03', decided: '2026-05-01', cost: 4_250_000, dwellings: 12, storeys: 4, lat: -37.74, lng: 144.96 }], 'test').drafts;
    expect(summarise({ ...d, id: 1 } as DaRecord)).toBe(
      'An application for a multi-unit residential development (12 dwellings, 4 storeys) at 12 Smith Street, Coburg VIC 3058, lodged with Merri-bek City Council on 3 March 2026 (reference MPS/2026/12). The published cost of works is $4,250,000. The council\'s status is "Permit Issued" (approved), decided on 1 May 2026.',
    );
  });
});

describe('the listing documents', () => {
  let store: DaStore;
  beforeAll(() => {
    store = DaStore.open(':memory:');
    stores.push(store);
    store.upsert(parseDaRows([...syntheticDaRows({ count: 1500, seed: 3, councils: 30 })], 'feed').drafts);
  });

  it('refuse each bad parameter naming it', () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ state: 'XYZ' }, 'state', /one of VIC, NSW/],
      [{ category: 'spaceport' }, 'category', /21 categories/],
      [{ since: '2026-13-01' }, 'since', /YYYY-MM-DD/],
      [{ since: '2026-02-01', until: '2026-01-01' }, 'until', /before since/],
      [{ status_group: 'maybe' }, 'status_group', /pending, advertised/],
      [{ is_residential: 'yes' }, 'is_residential', /true, false/],
      [{ postcode: '30000' }, 'postcode', /four digits/],
      [{ per_page: '0' }, 'per_page', /from 1 to 100/],
      [{ per_page: '101' }, 'per_page', /from 1 to 100/],
      [{ page: '0' }, 'page', /from 1/],
      [{ page: '1.5' }, 'page', /whole number/],
      [{ cursor: 'garbage!' }, 'cursor', /follow meta.pages.next/],
      [{ council: '   ' }, 'council', /not be empty/],
    ];
    for (const [p, parameter, message] of cases) {
      const e = engineError(() => daListDocument(store, params(p)));
      expect(e.code, JSON.stringify(p)).toBe('INVALID_ARGUMENT');
      expect(e.details.parameter, JSON.stringify(p)).toBe(parameter);
      expect(e.message).toMatch(message);
    }
    for (const [p, parameter] of [[{ lng: '145' }, 'lat'], [{ lat: '-37.8' }, 'lng'], [{ lat: '-37.8', lng: '145', radius_km: '0' }, 'radius_km'], [{ lat: '-37.8', lng: '145', radius_km: '51' }, 'radius_km'], [{ lat: '-95', lng: '145' }, 'lat']] as const) {
      expect(engineError(() => daNearbyDocument(store, params(p))).details.parameter).toBe(parameter);
    }
    expect(engineError(() => daDetailDocument(store, 'abc')).details.parameter).toBe('id');
    const missing = engineError(() => daDetailDocument(store, '987654321'));
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.details.reason).toBe('da_not_found');
  });

  it('accept a category by slug or display name, and a state in any case', () => {
    const a = daListDocument(store, params({ category: 'swimming_pool', state: 'nsw' }));
    const b = daListDocument(store, params({ category: 'Swimming Pool / Spa', state: 'NSW' }));
    expect(b).toEqual(a);
    expect((a.meta!.pages as { total: number }).total).toBeGreaterThan(0);
  });

  it('follow meta.pages.next to the end: every record once, the totals on every page, an empty page past the end', () => {
    const filter = { state: 'VIC', per_page: 7 };
    const total = (daListDocument(store, params(filter)).meta!.pages as { total: number }).total;
    expect(total).toBeGreaterThan(50);
    const ids: number[] = [];
    let doc = daListDocument(store, params(filter));
    let pages = 1;
    for (;;) {
      const p = doc.meta!.pages as { page: number; total: number; total_pages: number; next: string | null };
      expect(p).toMatchObject({ page: pages, total, total_pages: Math.ceil(total / 7) });
      ids.push(...(doc.data as { id: number }[]).map((r) => r.id));
      if (!p.next) break;
      const url = new URL(p.next, 'http://x');
      expect(url.pathname).toBe('/v1/das');
      doc = daListDocument(store, new Map(url.searchParams));
      pages++;
    }
    expect(pages).toBe(Math.ceil(total / 7));
    expect(new Set(ids).size).toBe(total);
    expect(ids.length).toBe(total);
    // A page asked for by number gives the same rows as following next.
    expect((daListDocument(store, params({ ...filter, page: 3 })).data as { id: number }[]).map((r) => r.id)).toEqual(ids.slice(14, 21));
    const past = daListDocument(store, params({ ...filter, page: 1000 }));
    expect(past.data).toEqual([]);
    expect(past.meta!.pages).toMatchObject({ page: 1000, total, next: null });
  });

  it('nearby: nearest first with distance_km, paged by next, only geocoded records', () => {
    const some = (daListDocument(store, params({ per_page: 100 })).data as { latitude: number | null; longitude: number | null }[]).find((r) => r.latitude !== null)!;
    const p = { lat: some.latitude!, lng: some.longitude!, radius_km: 3, per_page: 10 };
    const ids: number[] = [];
    let last = -1;
    let doc = daNearbyDocument(store, params(p));
    for (;;) {
      for (const r of doc.data as { id: number; distance_km: number; geocoded: boolean }[]) {
        expect(r.geocoded).toBe(true);
        expect(r.distance_km).toBeGreaterThanOrEqual(last);
        expect(r.distance_km).toBeLessThanOrEqual(3);
        last = r.distance_km;
        ids.push(r.id);
      }
      const next = (doc.meta!.pages as { next: string | null }).next;
      if (!next) break;
      doc = daNearbyDocument(store, new Map(new URL(next, 'http://x').searchParams));
    }
    expect(ids.length).toBe((daNearbyDocument(store, params(p)).meta!.pages as { total: number }).total);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('one record carries the 18 data points as imported, its summary and how the summary was made', () => {
    const own = DaStore.open(':memory:');
    stores.push(own);
    own.upsert(parseDaRows([{
      id: 7, council_reference: 'DA/7/2026', council: 'Merri-bek City Council', address: '12 Smith Street', suburb: 'Coburg', state: 'VIC', postcode: '3058',
      description: 'Construction of three double-storey dwellings', status: 'Approved', lodged: '2026-03-02', decided: '2026-06-30', cost: 1_250_000, dwellings: 3,
      storeys: 2, lots: 3, applicant: 'A Builder Pty Ltd', public_notice_from: '2026-03-16', public_notice_to: '2026-03-30', lat: -37.75, lng: 144.96,
      council_url: 'https://eplanning.example.gov.au/DA-7-2026', council_url_type: 'application_record', last_fetched_at: '2026-07-01T00:00:00Z', source: 'hand',
    }], 'feed').drafts);
    const id = (daListDocument(own, params({ per_page: 1 })).data as { id: number }[])[0].id;
    const d = daDetailDocument(own, String(id)).data as Record<string, unknown>;
    expect(d).toMatchObject({
      address: '12 Smith Street', address_suburb: 'Coburg', address_postcode: '3058', description: 'Construction of three double-storey dwellings',
      council_name: 'Merri-bek City Council', council_reference: 'DA/7/2026', lodgement_date: '2026-03-02', info_url: 'https://eplanning.example.gov.au/DA-7-2026',
      on_notice_from: '2026-03-16', on_notice_to: '2026-03-30', trade_category: 'multi_unit_residential', is_residential: true, cost_of_development: 1_250_000,
      number_of_dwellings: 3, storeys: 2, lot_count: 3, applicant_name: 'A Builder Pty Ltd', decision_date: '2026-06-30', status: 'Approved', status_group: 'approved',
      latitude: -37.75, longitude: 144.96, geocoded: true, value_band: '1m_5m',
    });
    expect(d.summary).toMatch(/^An application for /);
    expect(d.summary).toContain('12 Smith Street, Coburg VIC 3058');
    expect(d.summary_method).toMatch(/no language model/);
  });

  it('categories, councils and stats agree with each other and with the list totals', () => {
    const cats = daCategoriesDocument(store).data as { slug: string; count: number }[];
    expect(cats.map((c) => c.slug)).toEqual([...DA_CATEGORIES]);
    const stats = daStatsDocument(store).data as { total: number; councils: number; by_state: Record<string, number>; geocoded_pct: number };
    expect(cats.reduce((s, c) => s + c.count, 0)).toBe(stats.total);
    expect(stats.total).toBe(1500);
    const councils = daCouncilsDocument(store).data as { name: string; state: string; count: number }[];
    expect(councils.length).toBe(stats.councils);
    expect(councils.reduce((s, c) => s + c.count, 0)).toBe(1500);
    for (const c of councils.slice(0, 5)) expect((daListDocument(store, params({ council: c.name, state: c.state })).meta!.pages as { total: number }).total).toBe(c.count);
    expect(stats.geocoded_pct).toBeGreaterThan(90);
    expect(stats.geocoded_pct).toBeLessThan(100);
  });
});

describe('das import', () => {
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const good = (ref: string, extra = {}) => JSON.stringify({ council: 'Test Council', council_reference: ref, state: 'VIC', address: '1 Test St', suburb: 'Testville', description: 'Construction of a double storey dwelling', status: 'Received', lodged: '2026-01-01', lat: -37.8, lng: 145, ...extra });

  it('changes nothing when any row is bad, and names every bad row with its line', async () => {
    const s = DaStore.open(':memory:');
    stores.push(s);
    const f = write('mixed.jsonl', [good('A'), '', good('B', { lodged: 'soon' }), good('C'), good('D', { state: 'Narnia' })].join('\n'));
    const r = await importDaFile(s, f);
    expect(r.applied).toBe(false);
    expect(r.rejected.map((x) => [x.row, x.line])).toEqual([[2, 3], [4, 5]]);
    expect(s.size).toBe(0);
    const skipped = await importDaFile(s, f, { skipInvalid: true });
    expect(skipped).toMatchObject({ applied: true, added: 2, rows: 4 });
    expect(s.size).toBe(2);
    expect((await importDaFile(s, f, { skipInvalid: true })).unchanged).toBe(2); // re-importing changes nothing
  });

  it('imports a record without a description (classified other, its summary saying so); the same rows from a file of another name are not changes', async () => {
    const s = DaStore.open(':memory:');
    stores.push(s);
    const rows = [good('E1', { description: '' }), good('E2', { date_fetched: '2026-02-01T00:00:00Z' }), JSON.stringify({ council: 'Test Council', council_reference: 'E3', state: 'VIC', lodged: '2026-01-02' })];
    const first = await importDaFile(s, write('council-feed.jsonl', rows.join('\n')));
    expect(first).toMatchObject({ applied: true, added: 3, rejected: [] });
    const byRef = (ref: string) => s.list({ state: 'VIC' }, { limit: 10 }).find((r) => r.ref === ref)!;
    for (const ref of ['E1', 'E3']) {
      const r = byRef(ref);
      expect([r.description, r.category, r.categories]).toEqual(['', 'other', ['other']]);
      expect(summarise(r)).toMatch(/^An application for unstated works at .*The council gave no description of the works, so the application is classified as other\./);
    }
    expect(summarise(byRef('E2'))).not.toMatch(/no description/);
    // The same rows from a file of another name: nothing changed, and each keeps the source it came from.
    const again = await importDaFile(s, write('council-feed-copy.jsonl', rows.join('\n')), { now: new Date('2026-03-01T00:00:00Z') });
    expect(again).toMatchObject({ changed: 0, refreshed: 2, unchanged: 1 }); // E2 carries its own date_fetched
    for (const ref of ['E1', 'E2', 'E3']) expect(byRef(ref).source).toBe('council-feed');
    // A real change from the new file is a change, and takes its source.
    const changed = await importDaFile(s, write('council-feed-v2.jsonl', good('E2', { date_fetched: '2026-02-01T00:00:00Z', status: 'Approved' })));
    expect(changed).toMatchObject({ changed: 1 });
    expect(byRef('E2').source).toBe('council-feed-v2');
  });

  it('refuses a malformed file or one missing a required column before touching the store', async () => {
    const s = DaStore.open(':memory:');
    stores.push(s);
    await expect(importDaFile(s, write('broken.jsonl', `${good('A')}\n{"council": "x"`))).rejects.toThrow(/line 2 is not valid JSON/);
    await expect(importDaFile(s, write('noref.csv', 'council,state,description,lodged\nC,VIC,x,2026-01-01\n'))).rejects.toThrow(/missing column\(s\) for council reference/);
    await expect(importDaFile(s, write('ragged.csv', 'council,council_reference,description,lodged\nC,R,x\n'))).rejects.toThrow(/line 2 has 3 fields/);
    await expect(importDaFile(s, write('records.txt', good('A')))).rejects.toThrow(/cannot tell the format/);
    expect(s.size).toBe(0);
  });

  it('imports real PlanningAlerts records: states from the address, none geocoded, listed and counted, a re-import unchanged', async (ctx) => {
    const file = realdata('da/planningalerts_techone_da_records_2019_2020.csv');
    needsRealdata(ctx, file, 'da/planningalerts_techone_da_records_2019_2020.csv');
    const s = DaStore.open(join(dir, 'pa.sqlite'));
    stores.push(s);
    // Every real row is a record, the one without a description included: imported with no option at all.
    const r = await importDaFile(s, file!);
    expect(r.rows).toBe(3264);
    expect(r.rejected).toEqual([]);
    expect(r.added).toBe(3264);
    const stats = daStatsDocument(s).data as { total: number; geocoded: number; by_state: Record<string, number> };
    expect(stats.total).toBe(3264);
    const undescribed = s.list({}, { limit: 10_000 }).filter((d) => d.description === '');
    expect(undescribed.map((d) => d.category)).toEqual(['other']);
    expect(stats.geocoded).toBe(0);
    for (const st of ['NSW', 'VIC', 'WA', 'SA', 'QLD']) expect(stats.by_state[st], st).toBeGreaterThan(0);
    const blacktown = daListDocument(s, params({ council: 'Blacktown', per_page: 100 }));
    expect((blacktown.meta!.pages as { total: number }).total).toBe(544);
    expect((blacktown.data as { address_suburb: string; geocoded: boolean }[]).every((d) => d.address_suburb !== '' && !d.geocoded)).toBe(true);
    expect(s.nearbyHits(150.9, -33.77, 50_000)).toEqual([]);
    expect((await importDaFile(s, file!)).unchanged).toBe(3264);
    // The same export under another name changes nothing either.
    const renamed = join(dir, 'planningalerts-renamed.csv');
    writeFileSync(renamed, readFileSync(file!));
    expect(await importDaFile(s, renamed)).toMatchObject({ added: 0, changed: 0, unchanged: 3264 });
  });

  it('loads a dataset directory\'s DA records once into a file store, keeping what was imported', async () => {
    const path = join(dir, 'dataset.sqlite');
    const a = await daStoreFromDirectory(defaultDataDir(), path);
    const n = a.size;
    expect(n).toBeGreaterThan(2000);
    await importDaFile(a, write('one.jsonl', good('IMPORTED-1')));
    a.close();
    const b = await daStoreFromDirectory(defaultDataDir(), path);
    stores.push(b);
    expect(b.size).toBe(n + 1);
    expect(b.spatialStats().delta).toBeLessThanOrEqual(1);
  });
});

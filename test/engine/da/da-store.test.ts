// The DA store at scale, against slow references: every filter and combination against a brute-force filter
// over the records; paging by keyset visits each record once, also while records are imported between
// pages; radius queries against a geodesic brute force; the summary tables against recounting; several
// connections on one file; re-derivation; upsert outcomes.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticDaRows } from '../../../datasets/da-feed.js';
import { STATES } from '../../../engine/catalogue/states.js';
import { DA_CATEGORIES, DaStore, parseDaRows, STATUS_GROUPS, type DaFilter, type DaRecord } from '../../../engine/da/index.js';
import { DA_SCHEMA_VERSION } from '../../../engine/da/da-schema.js';
import { rowsFingerprint, syncDaTables } from '../../../engine/da/da-sync.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';
import { vincentyMetres } from '../../helpers/geodesic.js';
import { tempDir } from '../../helpers/tmp.js';

const dir = tempDir('da-store-');
const stores: DaStore[] = [];
afterAll(() => stores.forEach((s) => s.close()));
const open = (path = ':memory:') => {
  const s = DaStore.open(path);
  stores.push(s);
  return s;
};
const feed = (count: number, seed: number, firstId = 1) => parseDaRows([...syntheticDaRows({ count, seed, firstId, councils: 40 })], 'feed', { requireId: true }).drafts;

const fold = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** The obviously-correct filter (council: case ignored; suburb: case and spacing ignored, as documented). */
function matches(r: DaRecord, f: DaFilter): boolean {
  return (
    (f.state === undefined || r.state === f.state) &&
    (f.council === undefined || r.council.toLowerCase() === f.council.toLowerCase()) &&
    (f.category === undefined || r.category === f.category) &&
    (f.suburb === undefined || fold(r.suburb) === fold(f.suburb)) &&
    (f.postcode === undefined || r.postcode === f.postcode) &&
    (f.since === undefined || r.lodged >= f.since) &&
    (f.until === undefined || r.lodged <= f.until) &&
    (f.status_group === undefined || r.status_group === f.status_group) &&
    (f.is_residential === undefined || r.residential === f.is_residential)
  );
}
const newestFirst = (a: DaRecord, b: DaRecord) => (a.lodged < b.lodged ? 1 : a.lodged > b.lodged ? -1 : b.id - a.id);

describe('the reference geodesic', () => {
  it('reproduces Vincenty\'s Flinders Peak to Buninyong line (54,972.271 m)', () => {
    expect(vincentyMetres(144.42486788, -37.95103342, 143.92649554, -37.65282114)).toBeCloseTo(54_972.271, 2);
  });
});

describe('filters, counts and pages against brute force', () => {
  let store: DaStore;
  let all: DaRecord[];
  beforeAll(() => {
    store = open();
    const r = store.upsert(feed(4000, 11));
    expect(r.added).toBe(4000);
    all = store.getMany(r.outcomes.map((o) => o.id));
  });

  /** A random filter of 1 to 4 conditions, values mostly taken from records (so most are not empty). */
  function randomFilter(rnd: ReturnType<typeof seededRandom>): DaFilter {
    const f: DaFilter = {};
    const keys = ['state', 'council', 'category', 'suburb', 'postcode', 'since', 'until', 'status_group', 'is_residential'] as const;
    const n = 1 + rnd.int(4);
    const r = rnd.pick(all);
    for (let i = 0; i < n; i++) {
      const k = rnd.pick(keys);
      switch (k) {
        case 'state': f.state = rnd.chance(0.8) ? r.state : rnd.pick(STATES); break;
        case 'council': f.council = rnd.chance(0.5) ? r.council : r.council.toUpperCase(); break;
        case 'category': f.category = rnd.chance(0.8) ? r.category : rnd.pick(DA_CATEGORIES); break;
        case 'suburb': f.suburb = rnd.chance(0.5) ? r.suburb : ` ${r.suburb.toLowerCase()} `; break;
        case 'postcode': f.postcode = r.postcode ?? '3000'; break;
        case 'since': f.since = rnd.pick(all).lodged; break;
        case 'until': f.until = rnd.pick(all).lodged; break;
        case 'status_group': f.status_group = rnd.chance(0.8) ? r.status_group : rnd.pick(STATUS_GROUPS); break;
        case 'is_residential': f.is_residential = rnd.chance(0.5); break;
      }
    }
    return f;
  }

  it('agree with a brute-force filter for 400 random filters and combinations: count, first page and a deep page', () => {
    const rnd = seededRandom(5);
    let nonEmpty = 0;
    for (let i = 0; i < 400; i++) {
      const f = randomFilter(rnd);
      const expected = all.filter((r) => matches(r, f)).sort(newestFirst);
      const label = JSON.stringify(f);
      expect(store.count(f), label).toBe(expected.length);
      expect(store.list(f, { limit: 25 }).map((r) => r.id), label).toEqual(expected.slice(0, 25).map((r) => r.id));
      const offset = expected.length > 30 ? rnd.int(expected.length - 10) : 3;
      expect(store.list(f, { limit: 10, offset }).map((r) => r.id), `${label} at ${offset}`).toEqual(expected.slice(offset, offset + 10).map((r) => r.id));
      if (expected.length) {
        const k = rnd.int(expected.length);
        const after = { lodged: expected[k].lodged, id: expected[k].id };
        expect(store.list(f, { limit: 10, after }).map((r) => r.id), `${label} after ${k}`).toEqual(expected.slice(k + 1, k + 11).map((r) => r.id));
        nonEmpty++;
      }
    }
    // The generator exercised real result sets, not only empty ones.
    expect(nonEmpty).toBeGreaterThan(250);
  });

  it('keeps every record the same as it went in (round trip through the row)', () => {
    const drafts = feed(4000, 11);
    const byRef = new Map(all.map((r) => [`${r.state}|${r.council}|${r.ref}`, r]));
    for (const d of drafts.slice(0, 500)) {
      const { id: _id, ...rest } = byRef.get(`${d.state}|${d.council}|${d.ref}`)!;
      const { id: _d, ...want } = d;
      expect(rest).toEqual(want);
    }
  });

  it('counts per category, state, status group and council like a recount', () => {
    const cat = Object.fromEntries(DA_CATEGORIES.map((c) => [c, all.filter((r) => r.category === c).length]));
    expect(store.categoryCounts()).toEqual(cat);
    expect(store.categoryCounts({ state: 'VIC' })).toEqual(Object.fromEntries(DA_CATEGORIES.map((c) => [c, all.filter((r) => r.category === c && r.state === 'VIC').length])));
    const f = store.facetCounts();
    for (const s of STATES) expect(f.by_state[s]).toBe(all.filter((r) => r.state === s).length);
    for (const g of STATUS_GROUPS) expect(f.by_status_group[g]).toBe(all.filter((r) => r.status_group === g).length);
    expect(f.residential).toBe(all.filter((r) => r.residential).length);
    const councils = store.councils();
    expect(councils.reduce((s, c) => s + c.count, 0)).toBe(all.length);
    for (const c of councils) {
      const mine = all.filter((r) => r.state === c.state && r.council === c.name);
      expect(c.count).toBe(mine.length);
      expect(c.geocoded).toBe(mine.filter((r) => r.lat !== null).length);
      expect(c.status_present).toBe(mine.filter((r) => r.status !== '').length);
      expect(c.last_updated).toBe(mine.map((r) => r.last_fetched_at).sort().at(-1));
    }
    expect(store.lodgedRange()).toEqual({ earliest: all.map((r) => r.lodged).sort()[0], latest: all.map((r) => r.lodged).sort().at(-1) });
  });

  it('lists records without coordinates but never places them in radius results', () => {
    const ungeocoded = all.filter((r) => r.lat === null);
    expect(ungeocoded.length / all.length).toBeGreaterThan(0.02);
    const r = ungeocoded[0];
    expect(store.list({ state: r.state, council: r.council, since: r.lodged, until: r.lodged }, { limit: 100 }).map((x) => x.id)).toContain(r.id);
    const c = all.find((x) => x.council === r.council && x.lat !== null)!;
    const hits = store.nearbyHits(c.lng!, c.lat!, 50_000).map((h) => h.id);
    expect(hits.length).toBeGreaterThan(100);
    for (const u of ungeocoded) expect(hits).not.toContain(u.id);
  });
});

describe('radius queries against a geodesic brute force', () => {
  it('return exactly the records within the radius, nearest first, for 150 random centres, radii and filters', () => {
    const store = open();
    const r = store.upsert(feed(6000, 21));
    const all = store.getMany(r.outcomes.map((o) => o.id)).filter((x) => x.lat !== null);
    const rnd = seededRandom(9);
    let checked = 0;
    for (let i = 0; i < 150; i++) {
      const c = rnd.pick(all);
      const lon = c.lng! + rnd.range(-0.05, 0.05), lat = c.lat! + rnd.range(-0.05, 0.05);
      const radius = rnd.pick([200, 1000, 5000, 20_000, 50_000]) * rnd.range(0.5, 1);
      const filter = rnd.chance(0.5) ? {} : { category: rnd.chance(0.5) ? c.category : undefined, since: rnd.chance(0.5) ? c.lodged : undefined, status_group: rnd.chance(0.5) ? c.status_group : undefined };
      const hits = store.nearbyHits(lon, lat, radius, filter);
      const ref = all.filter((x) => matches(x, filter)).map((x) => ({ id: x.id, d: vincentyMetres(lon, lat, x.lng!, x.lat!) }));
      // The engine's ellipsoidal flat-earth distance is within 0.1% of the geodesic below 500 km: a record
      // may differ only inside that band at the edge.
      const band = radius * 0.001 + 0.5;
      const got = new Set(hits.map((h) => h.id));
      const wrong = ref.filter((x) => (x.d < radius - band && !got.has(x.id)) || (x.d > radius + band && got.has(x.id)));
      expect(wrong.map((x) => `${x.id} at ${x.d.toFixed(1)} m, radius ${radius.toFixed(1)}`)).toEqual([]);
      const refDist = new Map(ref.map((x) => [x.id, x.d]));
      expect(hits.filter((h) => Math.abs(h.distance - refDist.get(h.id)!) > h.distance * 0.001 + 0.5).map((h) => h.id)).toEqual([]);
      expect(hits.filter((h, k) => k > 0 && !(h.distance > hits[k - 1].distance || (h.distance === hits[k - 1].distance && h.id > hits[k - 1].id))).map((h) => h.id)).toEqual([]);
      checked += hits.length;
    }
    expect(checked).toBeGreaterThan(5000);
  });
});

describe('pages of a radius query', () => {
  it('are slices of the full nearest-first order, by offset and by cursor, from the snapshot, the delta and both', () => {
    const store = open(join(dir, 'nearby-pages.sqlite'));
    const drafts = feed(5000, 44);
    const rnd = seededRandom(12);
    const check = (label: string) => {
      const all = store.list({}, { limit: 100_000 }).filter((r) => r.lat !== null);
      for (let i = 0; i < 40; i++) {
        const c = rnd.pick(all);
        const radius = rnd.pick([500, 3000, 20_000]);
        const filter = rnd.chance(0.5) ? {} : { category: rnd.chance(0.5) ? c.category : undefined, since: rnd.chance(0.5) ? c.lodged : undefined, status_group: rnd.chance(0.3) ? c.status_group : undefined };
        const full = store.nearbyHits(c.lng!, c.lat!, radius, filter);
        const limit = rnd.pick([1, 7, 20, 100]);
        const offset = rnd.pick([0, 0, 5, 40, full.length - 3, full.length + 10].filter((x) => x >= 0));
        const byOffset = store.nearbyPage(c.lng!, c.lat!, radius, filter, { limit, offset });
        expect(byOffset, `${label}: offset ${offset}`).toEqual({ total: full.length, hits: full.slice(offset, offset + limit) });
        if (offset > 0 && offset <= full.length) {
          const prev = full[offset - 1];
          const byCursor = store.nearbyPage(c.lng!, c.lat!, radius, filter, { limit, after: { distance: prev.distance, id: prev.id } });
          expect(byCursor, `${label}: after ${offset}`).toEqual({ total: full.length, hits: full.slice(offset, offset + limit) });
        }
      }
    };
    store.upsert(drafts.slice(0, 3000));
    expect(store.spatialStats().snapshot).toBe(0);
    check('delta only');
    store.compact();
    expect(store.spatialStats().delta).toBe(0);
    check('snapshot only');
    // New records, moved ones and ones that lost their coordinates, on top of the snapshot.
    store.upsert(drafts.slice(3000));
    const moved = store.list({}, { limit: 300 }).map((r, i) => ({ ...r, ref: r.ref, lat: i % 3 === 0 ? null : r.lat! + 0.01, lng: i % 3 === 0 ? null : r.lng! + 0.01 }));
    store.upsert(moved);
    expect(store.spatialStats().delta).toBeGreaterThan(2000);
    check('snapshot and delta');
  });
});

describe('paging while importing', () => {
  it('visits every record that matched when paging began exactly once, while imports add and change records between pages', () => {
    const store = open();
    store.upsert(feed(3000, 31));
    const filter: DaFilter = { state: 'NSW' };
    const before = new Set(store.list(filter, { limit: 10_000 }).map((r) => r.id));
    expect(before.size).toBeGreaterThan(500);
    const extra = feed(600, 77, 900_000);
    const seen: number[] = [];
    let after: { lodged: string; id: number } | undefined;
    for (let page = 0; ; page++) {
      const rows = store.list(filter, { limit: 37, after });
      if (!rows.length) break;
      seen.push(...rows.map((r) => r.id));
      const last = rows[rows.length - 1];
      after = { lodged: last.lodged, id: last.id };
      // Between pages: new records (newest and older than the cursor alike) and status changes of old ones.
      if (page < 15) {
        store.upsert(extra.slice(page * 40, page * 40 + 40));
        const changed = store.list(filter, { limit: 5, offset: page * 20 }).map((r) => ({ ...r, status: 'Refused', status_group: 'rejected' as const, decision_status: 'refused' as const }));
        store.upsert(changed);
      }
    }
    expect(new Set(seen).size).toBe(seen.length); // nothing twice
    for (const id of before) expect(seen).toContain(id); // nothing that matched is missed
  });
});

describe('upserts', () => {
  it('say what they did: added, unchanged, refreshed (seen again) and changed (with the previous record)', () => {
    const store = open();
    const [a, b, c] = feed(3, 41);
    expect(store.upsert([a, b, c])).toMatchObject({ added: 3, changed: 0, refreshed: 0, unchanged: 0 });
    expect(store.upsert([a, b, c])).toMatchObject({ added: 0, unchanged: 3 });
    const revision = store.revision;
    const r = store.upsert([{ ...a, last_fetched_at: '2026-11-24T00:00:00Z' }, { ...b, status: 'Refused', status_group: 'rejected', decision_status: 'refused' }]);
    expect(r).toMatchObject({ added: 0, refreshed: 1, changed: 1, unchanged: 0 });
    expect(r.outcomes[1].previous?.status).toBe(b.status);
    expect(store.revision).toBe(revision + 2);
    expect(store.get(r.outcomes[1].id)?.status_group).toBe('rejected');
  });

  it('keep an id a row asks for when it is free, and give the next one when it is taken', () => {
    const store = open();
    const [a, b] = feed(2, 43);
    store.upsert([{ ...a, id: 500 }]);
    const r = store.upsert([{ ...b, id: 500 }]);
    expect(r.outcomes[0].id).toBe(501);
    expect(store.get(500)?.ref).toBe(a.ref);
  });

  it('keep the same reference of two councils, and the same council name in two states, apart', () => {
    const store = open();
    const [a] = feed(1, 45);
    const r = store.upsert([a, { ...a, id: null, council: 'Other Council' }, { ...a, id: null, state: a.state === 'TAS' ? 'NSW' : 'TAS' }]);
    expect(r.added).toBe(3);
    expect(store.upsert([{ ...a, id: null, council: a.council.toUpperCase() }])).toMatchObject({ unchanged: 1 }); // council names match without case
  });
});

describe('a store file shared by connections', () => {
  it('shows another connection\'s import at once: records, counts, radius hits and the revision', () => {
    const path = join(dir, 'shared.sqlite');
    const a = open(path);
    const b = open(path);
    const rows = feed(500, 51);
    a.upsert(rows.slice(0, 200));
    const first = b.revision;
    expect(b.count({})).toBe(200);
    a.upsert(rows.slice(200));
    expect(b.revision).toBeGreaterThan(first);
    expect(b.count({})).toBe(500);
    const g = rows.slice(200).find((r) => r.lat !== null)!;
    const hit = b.nearbyHits(g.lng!, g.lat!, 1).map((h) => h.id);
    expect(b.getMany(hit).map((r) => r.ref)).toContain(g.ref);
  });

  it('persists the radius snapshot: a reopened store reads it instead of every row, and another connection takes a newer one', () => {
    const path = join(dir, 'snapshot.sqlite');
    const a = open(path);
    a.upsert(feed(3000, 61));
    a.compact();
    expect(a.spatialStats()).toEqual({ snapshot: a.count({}) - a.councils().reduce((s, c) => s + c.count - c.geocoded, 0), delta: 0 });
    const b = open(path);
    expect(b.spatialStats().delta).toBe(0);
    a.upsert(feed(200, 62, 100_000));
    b.nearbyHits(145, -37.8, 10);
    expect(b.spatialStats().delta).toBeGreaterThan(150); // pulled as a delta
    a.compact();
    b.nearbyHits(145, -37.8, 10);
    expect(b.spatialStats().delta).toBe(0); // took the newer snapshot
    expect(b.spatialStats().snapshot).toBe(a.spatialStats().snapshot);
  });

  it('counts a date range from the per-day table, through changed dates, and fills it when migrating a version 2 store', () => {
    const path = join(dir, 'days.sqlite');
    const a = DaStore.open(path);
    a.upsert(feed(1500, 72));
    // Move some records to other days (the old day loses them, the new one gains them).
    a.upsert(a.list({}, { limit: 200, offset: 100 }).map((r, i) => ({ ...r, lodged: `2020-0${1 + (i % 9)}-1${i % 10}` })));
    const rows = a.list({}, { limit: 10_000 });
    const recount = (since?: string, until?: string) => rows.filter((r) => (!since || r.lodged >= since) && (!until || r.lodged <= until)).length;
    for (const [since, until] of [['2020-01-01', undefined], [undefined, '2020-06-30'], ['2020-03-01', '2021-03-01'], ['2030-01-01', undefined]] as const) {
      expect(a.count({ since, until }), `${since}..${until}`).toBe(recount(since, until));
    }
    a.close();
    // A version 2 store had no das_days.
    const raw = new Database(path);
    raw.exec("DROP TABLE das_days; UPDATE das_meta SET value = '2' WHERE key = 'schema_version'");
    raw.close();
    const b = open(path);
    expect(b.count({ since: '2020-03-01', until: '2021-03-01' })).toBe(recount('2020-03-01', '2021-03-01'));
    expect(b.count({ since: '2019-01-01' })).toBe(rows.length);
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT value FROM das_meta WHERE key = 'schema_version'").pluck().get()).toBe(String(DA_SCHEMA_VERSION));
    check.close();
  });

  it('sums an area from the radius index as a brute force over the records does, through a delta and a version 4 snapshot', () => {
    const path = join(dir, 'area.sqlite');
    const a = DaStore.open(path);
    a.upsert(feed(3000, 81));
    a.compact();
    // Records written after the snapshot (some moved into the area, some recategorised) sit in the delta.
    a.upsert(a.list({}, { limit: 300, offset: 50 }).map((r, i) => ({ ...r, lng: r.lng === null ? null : r.lng + 0.001 * (i % 3), category: i % 4 === 0 ? 'subdivision' : r.category, lots: i % 4 === 0 ? 7 : r.lots })));
    const rows = a.list({}, { limit: 100_000 });
    const brute = (state: string, box: number[], inside: (x: number, y: number) => boolean, since?: string) => {
      const rs = rows.filter((r) => r.state === state && r.lat !== null && r.lng !== null && r.lng >= box[0] && r.lng <= box[2] && r.lat >= box[1] && r.lat <= box[3] && inside(r.lng, r.lat) && (!since || r.lodged >= since));
      return { n: rs.length, subdivisions: rs.filter((r) => r.category === 'subdivision').length, lots: rs.reduce((t, r) => t + (r.lots ?? 0), 0), dwellings: rs.reduce((t, r) => t + (r.dwellings ?? 0), 0), kept: rs.filter((r) => r.category === 'childcare').map((r) => r.id).sort((x, y) => x - y) };
    };
    const check = (store: DaStore) => {
      for (const st of ['VIC', 'NSW', 'QLD'] as const) {
        const some = rows.find((r) => r.state === st && r.lat !== null)!;
        const box = [some.lng! - 0.3, some.lat! - 0.3, some.lng! + 0.3, some.lat! + 0.3] as const;
        // A disc of 0.2 degrees inside the box: the test the area applies after the box.
        const inside = (x: number, y: number) => (x - some.lng!) ** 2 + (y - some.lat!) ** 2 <= 0.04;
        for (const since of [undefined, '2022-01-01']) {
          const got = store.area(st, box, inside, { since, keep: 'childcare' });
          const want = brute(st, [...box], inside, since);
          expect({ ...got, kept: [...got.kept].sort((x, y) => x - y) }, `${st} ${since}`).toEqual(want);
          expect(want.n).toBeGreaterThan(0);
        }
      }
    };
    check(a);
    a.close();
    // A version 4 store's snapshot lacks the area columns: the migration adds them and the snapshot is rebuilt.
    const raw = new Database(path);
    raw.exec("ALTER TABLE das_spatial DROP COLUMN state; ALTER TABLE das_spatial DROP COLUMN lots; ALTER TABLE das_spatial DROP COLUMN dwellings; UPDATE das_meta SET value = '4' WHERE key = 'schema_version'");
    raw.close();
    const b = open(path);
    check(b);
    const cols = (new Database(path, { readonly: true }).prepare('PRAGMA table_info(das_spatial)').all() as { name: string }[]).map((c) => c.name);
    expect(cols).toEqual(expect.arrayContaining(['state', 'lots', 'dwellings']));
  });

  it('keeps a category in memory and current: writes of this and of another connection, records leaving the category', () => {
    const path = join(dir, 'category.sqlite');
    const a = open(path), b = open(path);
    a.upsert(feed(2000, 91));
    const list = (s: DaStore) => s.list({ category: 'childcare' }, { limit: 100_000 });
    expect(b.categoryRecords('childcare')).toEqual(list(b));
    expect(list(b).length).toBeGreaterThan(0);
    // Another connection adds records and moves some out of the category.
    const leaving = list(a).slice(0, 5);
    a.upsert([...feed(300, 92, 50_000), ...leaving.map((r) => ({ ...r, category: 'other' as const, description: 'Demolition of a shed' }))]);
    expect(b.categoryRecords('childcare')).toEqual(list(b));
    for (const r of leaving) expect(b.categoryRecords('childcare').some((x) => x.id === r.id)).toBe(false);
    // This connection's own writes.
    b.upsert(list(b).slice(0, 3).map((r) => ({ ...r, status: 'Approved' })));
    expect(b.categoryRecords('childcare')).toEqual(list(b));
  });

  it('re-derives categories and status groups of a store written by other rules', () => {
    const path = join(dir, 'rederive.sqlite');
    const a = DaStore.open(path);
    const r = a.upsert(feed(300, 71));
    a.close();
    const raw = new Database(path);
    raw.exec("UPDATE das SET status_group = 'other', trade_category = 'other'; UPDATE das_meta SET value = '0' WHERE key = 'derivation_version'");
    raw.close();
    const b = open(path);
    const back = b.getMany(r.outcomes.map((o) => o.id));
    expect(back.filter((x) => x.category !== 'other').length).toBeGreaterThan(200);
    expect(back.filter((x) => x.status_group !== 'other').length).toBeGreaterThan(200);
  });
});

describe('syncing a dataset table that knows its fingerprint (a layer file\'s)', () => {
  it('reads the rows only when the fingerprint differs from the one the store holds', () => {
    const das = DaStore.open(':memory:');
    try {
      const rows = [...syntheticDaRows({ count: 30, seed: 39, firstId: 1, councils: 5 })];
      let reads = 0;
      const table = (fingerprint: string) => ({ source: 'feed', file: 'das.jsonl', fingerprint, get rows() { reads++; return rows; } });
      expect(syncDaTables(das, [table('a')])).toBe(true);
      expect(reads).toBe(1);
      expect(das.sourceFingerprint('feed:das.jsonl')).toBe('a');
      // The same fingerprint: nothing read, nothing loaded.
      expect(syncDaTables(das, [table('a')])).toBe(false);
      expect(reads).toBe(1);
      // Another (the dataset changed): read and loaded again, the records upserted, not doubled.
      const before = das.count({});
      expect(syncDaTables(das, [table('b')])).toBe(true);
      expect(reads).toBe(2);
      expect(das.count({})).toBe(before);
      expect(before).toBe(30);
      // Without one, the rows' own fingerprint is used.
      expect(syncDaTables(das, [{ source: 'feed', file: 'das.jsonl', rows }])).toBe(true);
      expect(das.sourceFingerprint('feed:das.jsonl')).toBe(rowsFingerprint(rows));
    } finally {
      das.close();
    }
  });
});

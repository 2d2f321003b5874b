// The DA events outbox (engine/da/da-events.ts): written by the DA store in the import's own transaction.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DaStore, importDaFile } from '../../../engine/da/index.js';
import { tempDir } from '../../helpers/tmp.js';

const dir = tempDir('da-events-');
const stores: DaStore[] = [];
afterAll(() => stores.forEach((s) => s.close()));

const write = (name: string, rows: object[]) => {
  const p = join(dir, name);
  writeFileSync(p, rows.map((r) => JSON.stringify(r)).join('\n'));
  return p;
};
const row = (ref: string, extra = {}) => ({ council: 'Test Council', council_reference: ref, state: 'VIC', address: '1 Test St', suburb: 'Testville', description: 'Construction of a childcare centre', status: 'Received', lodged: '2026-01-01', lat: -37.8, lng: 145, ...extra });

function open(name = ':memory:') {
  const s = DaStore.open(name === ':memory:' ? name : join(dir, name));
  stores.push(s);
  return s;
}

describe('DA events', () => {
  it('an import of new records writes one da.created each, with the thin snapshot of the record', async () => {
    const s = open();
    expect(s.lastEventSeq()).toBe(0);
    const r = await importDaFile(s, write('new.jsonl', [row('A'), row('B', { lat: null, lng: null, address: '2 Test St' })]));
    const events = s.eventsAfter(0, 100);
    expect(events.map((e) => e.type)).toEqual(['da.created', 'da.created']);
    expect(events.map((e) => e.data.id)).toEqual(r.outcomes.map((o) => o.id));
    expect(events[0].id).toMatch(/^evt_[A-Za-z0-9_-]{16}$/);
    expect(events[0].id).not.toBe(events[1].id);
    expect(events[0].data).toEqual({
      id: r.outcomes[0].id, council_reference: 'A', council_name: 'Test Council', state: 'VIC', address: '1 Test St', address_suburb: 'Testville',
      trade_category: 'childcare', status: 'Received', status_group: 'pending', lodgement_date: '2026-01-01', latitude: -37.8, longitude: 145, url: `/v1/das/${r.outcomes[0].id}`,
    });
    expect(events[1].data).toMatchObject({ latitude: null, longitude: null });
    expect(s.lastEventSeq()).toBe(events[1].seq);
    expect(s.eventsAfter(events[0].seq, 100).map((e) => e.seq)).toEqual([events[1].seq]);
  });

  it('re-importing the same file writes nothing; a status change in a second import writes exactly one event', async () => {
    const s = open();
    await importDaFile(s, write('first.jsonl', [row('A'), row('B'), row('C')]));
    const after = s.lastEventSeq();
    expect((await importDaFile(s, write('first.jsonl', [row('A'), row('B'), row('C')]))).unchanged).toBe(3);
    expect(s.eventsAfter(after, 100)).toEqual([]);
    // B approved; C's description edited (a content change that is not a status change): one event.
    const second = await importDaFile(s, write('first.jsonl', [row('A'), row('B', { status: 'Approved' }), row('C', { description: 'Construction of a childcare centre and car park' })]));
    expect(second.changed).toBe(2);
    const events = s.eventsAfter(after, 100);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'da.status_changed', data: { council_reference: 'B', status: 'Approved', status_group: 'approved', previous_status: 'Received', previous_status_group: 'pending' } });
  });

  it('an import that fails part-way writes neither records nor events (one transaction)', async () => {
    const s = open('atomic.sqlite');
    await importDaFile(s, write('seed.jsonl', [row('A')]));
    const before = s.lastEventSeq();
    // Another connection makes the third insert fail inside the import's transaction.
    const other = new Database(join(dir, 'atomic.sqlite'));
    other.exec("CREATE TRIGGER fail_on_c BEFORE INSERT ON das WHEN NEW.council_reference = 'C' BEGIN SELECT RAISE(ABORT, 'disk full (simulated)'); END");
    other.close();
    await expect(importDaFile(s, write('fails.jsonl', [row('A', { status: 'Approved' }), row('B'), row('C')]))).rejects.toThrow(/disk full/);
    expect(s.eventsAfter(before, 100)).toEqual([]);
    expect(s.size).toBe(1);
    expect(s.get(s.eventsAfter(0, 1)[0].data.id)?.status).toBe('Received');
  });

  it('prunes events the dispatcher has read once they are old enough', async () => {
    const s = open();
    await importDaFile(s, write('prune.jsonl', [row('A'), row('B')]));
    const [a, b] = s.eventsAfter(0, 10);
    expect(s.pruneEvents(a.seq, new Date(Date.now() + 1000))).toBe(1);
    expect(s.pruneEvents(b.seq, new Date(0))).toBe(0); // not old enough
    expect(s.eventsAfter(0, 10).map((e) => e.id)).toEqual([b.id]);
  });

  it('keeps events for a week: an import deletes older ones', async () => {
    const s = open('retention.sqlite');
    await importDaFile(s, write('week.jsonl', [row('A')]));
    const other = new Database(join(dir, 'retention.sqlite'));
    other.prepare("UPDATE da_events SET created_at = ?").run(new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString());
    other.close();
    await importDaFile(s, write('week.jsonl', [row('A'), row('B')]));
    expect(s.eventsAfter(0, 10).map((e) => e.data.council_reference)).toEqual(['B']);
  });
});

describe('the development summary (schema 4)', () => {
  const brute = (file: string, where: string, params: unknown[]) => {
    const db = new Database(join(dir, file), { readonly: true });
    const r = db.prepare(`SELECT count(*) AS a, coalesce(sum(trade_category = 'subdivision'), 0) AS s, coalesce(sum(lot_count), 0) AS l, coalesce(sum(number_of_dwellings), 0) AS d FROM das ${where}`).get(...params) as { a: number; s: number; l: number; d: number };
    db.close();
    return { all_development: r.a, subdivisions: r.s, lots: r.l, dwellings: r.d };
  };
  it('stays equal to a count over the rows through inserts and changes, and is rebuilt from them by the migration', async () => {
    const s = open('dev.sqlite');
    const rows = [
      row('S1', { description: 'Subdivision of one lot into 12 lots', lodged: '2026-01-05', lots: 12 }),
      row('S2', { description: 'Construction of 4 townhouses', lodged: '2026-02-10', state: 'NSW', council: 'City of Sydney', dwellings: 4 }),
      row('S3', { description: 'Construction of 2 dwellings and a 3 lot subdivision', lodged: '2026-03-01', dwellings: 2, lots: 3 }),
    ];
    await importDaFile(s, write('dev.jsonl', rows));
    await importDaFile(s, write('dev.jsonl', [rows[0], { ...rows[1], description: 'Construction of 9 townhouses', dwellings: 9 }, { ...rows[2], lodged: '2025-12-30' }]));
    const cases: [Parameters<DaStore['developmentTotals']>[0], string, unknown[]][] = [
      [{}, '', []],
      [{ state: 'VIC' }, "WHERE state = 'VIC'", []],
      [{ states: ['VIC', 'NSW'], since: '2026-01-01' }, "WHERE state IN ('VIC', 'NSW') AND lodgement_date >= '2026-01-01'", []],
      [{ states: ['NSW'] }, "WHERE state = 'NSW'", []],
    ];
    for (const [filter, where] of cases) expect(s.developmentTotals(filter), JSON.stringify(filter)).toEqual(brute('dev.sqlite', where, []));
    expect(s.developmentTotals({}).lots).toBeGreaterThan(0);
    // A version 3 store gains the summary, filled from its rows.
    s.close();
    stores.splice(stores.indexOf(s), 1);
    const other = new Database(join(dir, 'dev.sqlite'));
    other.exec("DROP TABLE das_dev_days; UPDATE das_meta SET value = '3' WHERE key = 'schema_version'");
    other.close();
    const again = open('dev.sqlite');
    for (const [filter, where] of cases) expect(again.developmentTotals(filter)).toEqual(brute('dev.sqlite', where, []));
  });
});

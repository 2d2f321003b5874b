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

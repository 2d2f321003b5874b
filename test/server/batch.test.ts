// Portfolio batch jobs over real HTTP (issue 37): a file with good, unresolvable, out-of-coverage and
// malformed rows, every result row checked against a single lookup of the same row; the meter (each unique
// address once, a re-submitted file free, a job stopped at the quota without over-charging); cancel; a
// partial download; the signed batch.completed callback, verified with the `standardwebhooks` package.
// The worker is driven a chunk at a time (runOnce), so every step is deterministic.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { BATCH_CSV_FIELDS, BATCH_RESULT_COLUMNS, type StoredBatchRow } from '../../engine/entry/batch.js';
import { csvRows } from '../../engine/vector/csv.js';
import { BatchRunner } from '../../server/batch/batch-runner.js';
import { startServer, type StartedServer } from '../../server/http-server.js';
import { createKey, type KeySpec } from '../../server/keys/key-admin.js';
import { BillingPeriodCache } from '../../server/metering/billing-period.js';
import { openStack, type Stack } from '../../server/stack.js';
import { Receiver } from '../helpers/receiver.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let stack: Stack;
let server: StartedServer;
let runner: BatchRunner;
const receiver = new Receiver();
const CHUNK = 8;

beforeAll(async () => {
  await receiver.start();
  stack = await openStack({ datasets: defaultDataDir(), db: ':memory:', threads: 2 });
  runner = new BatchRunner({ store: stack.store, service: stack.engine, allowPrivate: true });
  server = await startServer({ ...stack.serverOptions, service: stack.engine, store: stack.store, port: 0, webhooks: { allowPrivate: true }, batch: { chunkRows: CHUNK } });
}, 120_000);

afterAll(async () => {
  await server?.close(2000);
  await stack?.close();
  await receiver.stop();
});

const key = async (spec: Partial<KeySpec> = {}) => {
  const made = await createKey(stack.store, { components: 'all', geometry: true, ...spec });
  return { secret: made.key, id: made.record.id };
};
const auth = (k: string) => ({ authorization: `Bearer ${k}` });
async function submit(k: string, body: string, query = '', type = 'text/csv'): Promise<Obj> {
  const res = await fetch(`${server.url}/v1/batch${query}`, { method: 'POST', headers: { ...auth(k), 'content-type': type }, body });
  const doc = await res.json();
  expect(res.status, JSON.stringify(doc)).toBe(202);
  expect(res.headers.get('location')).toBe(`/v1/batch/${doc.id}`);
  return doc;
}
const status = async (k: string, id: string): Promise<Obj> => (await fetch(`${server.url}/v1/batch/${id}`, { headers: auth(k) })).json();
/** Works every chunk there is. */
async function drain(): Promise<void> {
  while (await runner.runOnce());
}
async function results(k: string, id: string, format: 'csv' | 'jsonl' | 'geojson'): Promise<{ text: string; headers: Headers }> {
  const res = await fetch(`${server.url}/v1/batch/${id}/results?format=${format}`, { headers: auth(k) });
  expect(res.status).toBe(200);
  return { text: await res.text(), headers: res.headers };
}
const jsonLines = (text: string): Obj[] => text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
/** The CSV's records as objects by column. */
function csvObjects(text: string): Record<string, string>[] {
  const [head, ...rows] = [...csvRows(text)].map((r) => r.fields);
  return rows.map((f) => Object.fromEntries(head.map((h, i) => [h, f[i]])));
}
/**
 * A payload without what differs between two computations of it (the clock, `as_at`) and what the single
 * lookup's meter adds (`usage`, `meta.not_charged_reason`: a batch row says `charged` instead) or its HTTP
 * layer (`meta.documentation`).
 */
function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !['as_at', 'documentation', 'usage', 'not_charged_reason'].includes(k)).map(([k, x]) => [k, stable(x)]));
  return v;
}
const usedNow = async (keyId: string, period: Awaited<ReturnType<typeof stack.store.keyById>>) => stack.store.used(keyId, new BillingPeriodCache().get(new Date(), period!.period, period!.effective_date).key);

const addr = (id: string) => {
  const r = stack.engine.addresses().byId(id);
  if (!r) throw new Error(`no address ${id}`);
  return r;
};
const SANDBOX_VIC = '91 Cumberland Grove, Northcote VIC 3070';

/** The test file: [ref, address, lat, lng] rows, and a row with a field too many. */
function mixedFile(): string {
  const rows: string[][] = [];
  for (let i = 0; i < 14; i++) rows.push([`V${i}`, addr(`VIC${String(300 + i * 7).padStart(7, '0')}`).text, '', '']);
  for (let i = 0; i < 4; i++) rows.push([`N${i}`, addr(`NSW${String(500 + i * 11).padStart(7, '0')}`).text, '', '']);
  rows.push(['dup', addr('VIC0000300').text, '', '']); // the same address again: computed, not charged twice
  rows.push(['lower', addr('VIC0000307').text.toLowerCase(), '', '']); // a text variant of an address already in
  rows.push(['sandbox', SANDBOX_VIC, '', '']);
  const p = addr('VIC0000400');
  rows.push(['point', '', String(p.lat), String(p.lon)]);
  rows.push(['nowhere', '99999 Nowhere Road, Atlantis VIC 3999', '', '']);
  rows.push(['ocean', '', '-25', '135']);
  rows.push(['badlat', '', 'abc', '144.9']);
  rows.push(['both', SANDBOX_VIC, '-37.7', '144.9']);
  rows.push(['blank', '', '', '']);
  rows.push(['formula', '=HYPERLINK("http://x")', '', '']);
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  return ['ref,address,lat,lng', ...rows.map((r) => r.map(q).join(',')), '"extra","a","b","c","d"'].join('\r\n');
}

describe('a batch job checked row by row against single lookups', () => {
  let k: { secret: string; id: string };
  let job: Obj;
  let jsonl: Obj[];
  let csv: Record<string, string>[];
  const file = () => mixedFile();

  beforeAll(async () => {
    k = await key({ quota: 1000 });
    job = await submit(k.secret, file(), `?callback_url=${encodeURIComponent(`${receiver.url}/done`)}`);
    expect(job.status).toBe('queued');
    expect(job.rows_total).toBe(29);
    await drain();
    jsonl = jsonLines((await results(k.secret, job.id, 'jsonl')).text);
    csv = csvObjects((await results(k.secret, job.id, 'csv')).text);
  }, 240_000);

  it('finishes with every row once, in input order, in every format', async () => {
    const done = await status(k.secret, job.id);
    expect(done).toMatchObject({ status: 'done', rows_total: 29, rows_done: 29, rows_skipped: 0, eta_seconds: 0 });
    expect(done.rows_per_second).toBeGreaterThan(0);
    expect(jsonl.map((r) => r.row)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    expect(csv.map((r) => Number(r.row))).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    expect(csv.slice(0, 28).map((r) => r.ref)).toEqual(jsonl.slice(0, 28).map((r) => r.input.ref));
    const geo = JSON.parse((await results(k.secret, job.id, 'geojson')).text);
    expect(geo.type).toBe('FeatureCollection');
    expect(geo.features.map((f: Obj) => f.properties.row)).toEqual(jsonl.map((r) => r.row));
    for (const f of geo.features) {
      if (f.properties.status === 'ok') expect(f.geometry.coordinates).toEqual([jsonl[f.properties.row - 1].resolved_lng, jsonl[f.properties.row - 1].resolved_lat]);
      else expect(f.geometry).toBeNull();
    }
    // One set of names (issue 47): every result column of the CSV is a field of each JSON line and, but the
    // point (the geometry), a property of each GeoJSON feature, with the same value.
    for (const name of BATCH_RESULT_COLUMNS) {
      for (const r of jsonl) expect(r, `jsonl row ${r.row}: ${name}`).toHaveProperty(name);
      if (name !== 'resolved_lat' && name !== 'resolved_lng') for (const f of geo.features) expect(f.properties, `geojson row ${f.properties.row}: ${name}`).toHaveProperty(name);
      jsonl.forEach((r, i) => expect(csv[i][name] ?? '', `row ${r.row} ${name}`).toBe(r[name] === null || r[name] === undefined ? '' : String(r[name])));
    }
    // Failed rows counted as the rows say.
    expect(done.rows_failed).toBe(jsonl.filter((r) => r.status !== 'ok').length);
  });

  it('gives each row what a single lookup of it answers', async () => {
    let compared = 0;
    for (const r of jsonl) {
      if (r.input.ref === undefined || r.row === 29) continue; // the row with a field too many has no single equivalent
      const params = new URLSearchParams();
      for (const name of ['address', 'lat', 'lng']) if (String(r.input[name] ?? '') !== '') params.set(name, r.input[name]);
      const res = await fetch(`${server.url}/api/v1/property?${params}`, { headers: auth(k.secret) });
      const single = await res.json();
      if (res.status === 200) {
        expect(r.status, `row ${r.row}`).toBe('ok');
        expect(stable(r.payload), `row ${r.row}`).toEqual(stable(single));
        expect(r.resolved_address).toBe(single.resolved.address);
        expect([r.resolved_lat, r.resolved_lng]).toEqual([single.resolved.point.lat, single.resolved.point.lng]);
        // The CSV's flattened columns read the same payload.
        const row = csv[r.row - 1];
        for (const f of BATCH_CSV_FIELDS) {
          const v = f.get(single);
          expect(row[f.name] ?? '', `row ${r.row} ${f.name}`).toBe(v === null || v === undefined ? '' : String(v));
        }
      } else {
        expect(res.status, `row ${r.row}: ${JSON.stringify(single)}`).toBe(422);
        expect({ error: r.error, message: r.error_message }, `row ${r.row}`).toEqual({ error: single.error, message: single.message });
        expect(r.payload).toBeNull();
      }
      compared++;
    }
    expect(compared).toBe(28);
    const by = (ref: string) => jsonl.find((r) => r.input.ref === ref)!;
    expect(by('nowhere')).toMatchObject({ status: 'unresolved', error: 'address_unresolvable' });
    expect(by('ocean')).toMatchObject({ status: 'outside_coverage', error: 'outside_coverage' });
    expect(by('badlat')).toMatchObject({ status: 'invalid', error: 'invalid_parameter', error_message: 'lat must be a number, got "abc"' });
    expect(by('both')).toMatchObject({ status: 'invalid', error: 'invalid_subject' });
    expect(by('blank')).toMatchObject({ status: 'invalid', error: 'invalid_subject' });
    expect(jsonl[28]).toMatchObject({ status: 'invalid', error: 'invalid_parameter' });
    expect(jsonl[28].error_message).toMatch(/has 5 fields; the header row has 4/);
  }, 120_000);

  it('charges each unique address once, and never the free ones', async () => {
    const done = await status(k.secret, job.id);
    const ok = jsonl.filter((r) => r.status === 'ok');
    // 14 VIC + 4 NSW addresses and the point; the duplicate and the text variant repeat, the sandbox is free.
    expect(ok.length).toBe(22);
    expect(done.charged).toBe(19);
    const charged = jsonl.filter((r) => r.charged);
    expect(charged.map((r) => r.input.ref)).toEqual([...Array.from({ length: 14 }, (_, i) => `V${i}`), 'N0', 'N1', 'N2', 'N3', 'point']);
    for (const ref of ['dup', 'lower', 'sandbox']) expect(jsonl.find((r) => r.input.ref === ref), ref).toMatchObject({ status: 'ok', charged: false });
    expect(await usedNow(k.id, await stack.store.keyById(k.id))).toBe(19);
    // The same file again: nothing new to charge.
    const again = await submit(k.secret, file());
    await drain();
    expect(await status(k.secret, again.id)).toMatchObject({ status: 'done', charged: 0, rows_done: 29 });
    expect(await usedNow(k.id, await stack.store.keyById(k.id))).toBe(19);
  }, 120_000);

  it('neutralises formula cells in the CSV, as every CSV the service writes', () => {
    const row = csv.find((r) => r.ref === 'formula')!;
    expect(row.address).toBe('\'=HYPERLINK("http://x")');
  });

  it('sends the signed batch.completed webhook', async () => {
    await receiver.waitFor(1, '/done');
    const got = receiver.got.find((g) => g.path === '/done')!;
    const secret = (await status(k.secret, job.id)) && job.callback_secret;
    expect(secret).toMatch(/^whsec_/);
    const event = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as Obj;
    expect(event.type).toBe('batch.completed');
    expect(event.data).toMatchObject({ id: job.id, status: 'done', rows_total: 29, charged: 19 });
  });
});

describe('the meter at the quota', () => {
  it('stops the job at the quota, charging exactly up to it and marking the rest', async () => {
    const k = await key({ quota: 10 });
    const rows = Array.from({ length: 20 }, (_, i) => `"Q${i}","${addr(`VIC${String(2000 + i * 13).padStart(7, '0')}`).text}"`);
    // Row 12 repeats row 1 (already charged: free even past the quota).
    rows.splice(11, 0, `"again","${addr('VIC0002000').text}"`);
    const job = await submit(k.secret, ['ref,address', ...rows].join('\n'));
    await drain();
    const done = await status(k.secret, job.id);
    expect(done).toMatchObject({ status: 'failed', charged: 10, error: { error: 'quota_exceeded', quota: 10, used: 10 } });
    expect(await usedNow(k.id, await stack.store.keyById(k.id))).toBe(10);
    const out = jsonLines((await results(k.secret, job.id, 'jsonl')).text);
    expect(out.map((r) => r.row)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    // Chunks of 8: rows 1-8 charged; 9 and 10 charged; 11 refused, 12 a free repeat, 13-16 refused; 17-21 never looked up.
    expect(out.filter((r) => r.charged).map((r) => r.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(out[11]).toMatchObject({ status: 'ok', charged: false, input: { ref: 'again' } });
    for (const r of out.slice(10)) if (r.row !== 12) expect(r, `row ${r.row}`).toMatchObject({ status: 'error', error: 'quota_exceeded', charged: false, payload: null });
    expect(done.rows_done).toBe(16);
    expect(done.rows_skipped).toBe(5);
  }, 120_000);
});

describe('cancelling and partial downloads', () => {
  it('gives the finished chunks while running, and marks the rest cancelled', async () => {
    const k = await key({ quota: 1000 });
    const rows = Array.from({ length: 20 }, (_, i) => `"${addr(`VIC${String(4000 + i * 17).padStart(7, '0')}`).text}"`);
    const job = await submit(k.secret, ['address', ...rows].join('\n'), '?components=scores.flood');
    expect(await runner.runOnce()).toBe(true);
    const partial = await results(k.secret, job.id, 'csv');
    expect(partial.headers.get('batch-status')).toBe('running');
    const first = csvObjects(partial.text);
    expect(first.map((r) => Number(r.row))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(Object.keys(first[0])).toEqual(['address', 'row', 'status', 'error', 'error_message', 'resolved_address', 'match_confidence', 'resolved_lat', 'resolved_lng', 'charged', 'flood_score', 'flood_level']);
    const cancel = await fetch(`${server.url}/v1/batch/${job.id}`, { method: 'DELETE', headers: auth(k.secret) });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toMatchObject({ status: 'cancelled', rows_done: 8, rows_skipped: 12, charged: 8 });
    await drain();
    const out = csvObjects((await results(k.secret, job.id, 'csv')).text);
    expect(out.map((r) => Number(r.row))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(out.slice(8).every((r) => r.status === 'error' && r.error === 'cancelled' && r.charged === 'false')).toBe(true);
    expect(await usedNow(k.id, await stack.store.keyById(k.id))).toBe(8);
    // Cancelling again shows it as it is.
    expect(await (await fetch(`${server.url}/v1/batch/${job.id}`, { method: 'DELETE', headers: auth(k.secret) })).json()).toMatchObject({ status: 'cancelled', rows_done: 8 });
  }, 120_000);

  it('records a chunk that fails every time, and goes on', async () => {
    const k = await key();
    const job = await submit(k.secret, ['address', ...Array.from({ length: 12 }, () => `"${SANDBOX_VIC}"`)].join('\n'));
    // The second chunk's stored rows made unreadable: each try fails, the third gives up on them.
    const db = (stack.store as unknown as { db: { prepare(sql: string): { run(...a: unknown[]): unknown } } }).db;
    db.prepare('UPDATE batch_chunks SET input = ? WHERE job_id = ? AND seq = 1').run(Buffer.from('not gzip'), job.id);
    for (let i = 0; i < 6; i++) await runner.runOnce();
    const done = await status(k.secret, job.id);
    expect(done).toMatchObject({ status: 'failed', error: { error: 'internal_error' }, rows_done: 8 });
    expect(done.error.message).toMatch(/failed 3 times/);
    const out = jsonLines((await results(k.secret, job.id, 'jsonl')).text);
    expect(out.slice(0, 8).every((r) => r.status === 'ok')).toBe(true);
  }, 60_000);

  it('keeps jobs to their key', async () => {
    const a = await key();
    const b = await key();
    const job = await submit(a.secret, 'address\n"x"\n');
    expect((await fetch(`${server.url}/v1/batch/${job.id}`, { headers: auth(b.secret) })).status).toBe(404);
    expect((await fetch(`${server.url}/v1/batch/${job.id}/results`, { headers: auth(b.secret) })).status).toBe(404);
    expect((await fetch(`${server.url}/v1/batch/${job.id}`, { method: 'DELETE', headers: auth(b.secret) })).status).toBe(404);
  });

  it('refuses files it cannot read, naming why', async () => {
    const k = await key();
    const post = async (body: string, type = 'text/csv') => {
      const res = await fetch(`${server.url}/v1/batch`, { method: 'POST', headers: { ...auth(k.secret), 'content-type': type }, body });
      return { status: res.status, body: await res.json() };
    };
    expect(await post('')).toMatchObject({ status: 422, body: { error: 'invalid_body' } });
    expect(await post('address\n')).toMatchObject({ status: 422, body: { error: 'invalid_body', message: 'the file has a header row and no data rows' } });
    expect(await post('{"address":"x","a\\u0000b":1}\n', 'application/x-ndjson')).toMatchObject({ status: 422, body: { error: 'invalid_body' } });
    expect(await post('name,suburb\nx,y\n')).toMatchObject({ status: 422, body: { error: 'invalid_body', message: expect.stringMatching(/address column, or lat and lng columns/) } });
    expect(await post('address,Address\nx,y\n')).toMatchObject({ status: 422, body: { error: 'invalid_body', message: expect.stringMatching(/twice/) } });
    expect(await post('address\n"unterminated\n')).toMatchObject({ status: 422, body: { error: 'invalid_body', message: expect.stringMatching(/unterminated quoted field/) } });
    expect(await post('{"address": 1}', 'application/json')).toMatchObject({ status: 415, body: { error: 'unsupported_media_type' } });
    // A semicolon file (as Excel writes in much of Europe) is read by its header.
    const job = await submit(k.secret, 'ref;address\n"a";"91 Cumberland Grove, Northcote VIC 3070"\n');
    await drain();
    expect(jsonLines((await results(k.secret, job.id, 'jsonl')).text)[0]).toMatchObject({ status: 'ok', input: { ref: 'a' } });
  }, 60_000);
});

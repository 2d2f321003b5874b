// Issue 48: batch as a hostile user and a careless customer would try it, over real HTTP against a real
// server (uWebSockets.js, engine threads). Each finding is a case here.
import { linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows } from '../../engine/vector/csv.js';
import { BatchRunner } from '../../server/batch/batch-runner.js';
import { startServer } from '../../server/http-server.js';
import { jobFromUpload, newBatchId } from '../../server/batch/batch-jobs.js';
import { createKey } from '../../server/keys/key-admin.js';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ compute: 'threads', threads: 2 });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/**
 * POSTs `body` to /v1/batch with `key`, a MiB at a time as the socket takes it, stopping when the answer comes:
 * the status, the body, and the MiB sent by then.
 */
function upload(key: string, body: Buffer, url = s.url): Promise<{ status: number; text: string; sentMb: number }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    let answered = false;
    let sent = 0;
    const req = request({ host: u.hostname, port: u.port, path: '/v1/batch', method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv', 'content-length': body.length } }, (res) => {
      answered = true;
      const sentMb = sent / 1024 / 1024;
      let text = '';
      res.on('data', (d: Buffer) => (text += d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, text, sentMb });
      });
    });
    // The server answers a refused upload before it has all of it and closes: the rest is never sent.
    req.on('error', (e: NodeJS.ErrnoException) => (answered || e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
    const step = 1024 * 1024;
    const pump = () => {
      while (!answered && sent < body.length) {
        const part = body.subarray(sent, sent + step);
        sent += part.length;
        if (sent >= body.length) req.end(part);
        else if (!req.write(part)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

describe.each(['uws', 'node'] as const)('authentication before the body (%s transport)', (transport) => {
  it('answers made-up and revoked keys 401 without reading their 128 MiB uploads: eight of them raise RSS by under 64 MB', async () => {
    // The uWS server is the suite's; node:http (`serve --transport node`) one of its own on the same stack.
    const server = transport === 'uws' ? undefined : await startServer({ ...s.stack.serverOptions, service: s.stack.engine, store: s.stack.store, port: 0, transport });
    const url = server?.url ?? s.url;
    try {
      const body = Buffer.alloc(128 * 1024 * 1024 - 64, 'a');
      const madeUp = 'pi_0123456789ab_madeupmadeupmadeupmadeupmadeupmadeupmad';
      const revoked = await s.key();
      await s.stack.store.revokeKey(revoked.split('_')[1], new Date());
      await upload(madeUp, body, url);
      const before = process.memoryUsage().rss;
      const answers = [];
      for (let i = 0; i < 8; i++) answers.push(await upload(i % 2 ? revoked : madeUp, body, url));
      const grown = (process.memoryUsage().rss - before) / 1024 / 1024;
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(401));
      expect(answers.filter((a) => a.text.includes('"invalid_key"'))).toHaveLength(8);
      expect(answers[1].text).toContain('was revoked');
      // Answered once the key was known bad, not after the upload: the client had sent little of it (what the
      // sockets' buffers hold), and the server held none of it.
      expect(Math.max(...answers.map((a) => a.sentMb))).toBeLessThan(32);
      expect(grown, `RSS grew ${grown.toFixed(0)} MB`).toBeLessThan(64);
    } finally {
      await server?.close(1000);
    }
  }, 120_000);
});

/** Submits `body` as a job on `key`, works it to the end, and reads its results as JSON lines. */
async function job(key: string, body: string, type = 'text/csv', query = ''): Promise<{ status: number; doc: Record<string, any>; rows: Record<string, any>[] }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${s.url}/v1/batch${query}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type }, body });
  const doc = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (res.status !== 202) return { status: res.status, doc, rows: [] };
  const runner = new BatchRunner({ store: s.stack.store, service: s.stack.engine });
  while (await runner.runOnce());
  const text = await (await fetch(`${s.url}/v1/batch/${doc.id}/results?format=jsonl`, { headers: { authorization: `Bearer ${key}` } })).text();
  return { status: res.status, doc, rows: text.trim().split('\n').map((l) => JSON.parse(l)) };
}

describe('rows a hostile file holds', () => {
  it('answers a row nesting a value 5,000 deep as that row\'s invalid, naming the bound, never a 500', async () => {
    const k = await s.key();
    const [sandbox] = await s.stack.engine.sandbox();
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const body = `{"address": ${JSON.stringify(sandbox.address)}, "note": ${deep}}\n{"address": ${JSON.stringify(sandbox.address)}, "note": [[1]]}\n`;
    const r = await job(k, body, 'application/x-ndjson', '?components=planning');
    expect(r.status).toBe(202);
    expect(r.rows.map((x) => x.status)).toEqual(['invalid', 'ok']);
    expect(r.rows[0].error_message).toMatch(/nests arrays or objects more than 64 deep/);
    expect(r.rows[1].input.note).toBe('[[1]]');
  }, 60_000);

  it('carries a key named __proto__ like any other', async () => {
    const k = await s.key();
    const [sandbox] = await s.stack.engine.sandbox();
    const r = await job(k, `{"address": ${JSON.stringify(sandbox.address)}, "__proto__": "kept", "ref": 7}\n`, 'application/x-ndjson', '?components=planning');
    expect(r.rows[0].status).toBe('ok');
    expect(Object.keys(r.rows[0].input)).toEqual(['address', '__proto__', 'ref']);
    expect(Object.getOwnPropertyDescriptor(r.rows[0].input, '__proto__')?.value).toBe('kept');
    const csv = await (await fetch(`${s.url}/v1/batch/${r.doc.id}/results?format=csv`, { headers: { authorization: `Bearer ${k}` } })).text();
    expect(csv.split('\r\n')[0]).toMatch(/^"address","__proto__","ref",/);
    expect(csv.split('\r\n')[1]).toMatch(/,"kept",7,/);
  }, 60_000);

  it('honours Excel\'s sep=; first line, and says why unquoted commas in a one-column file make its rows invalid', async () => {
    const k = await s.key();
    const [a, b] = await s.stack.engine.sandbox();
    const sep = await job(k, `sep=;\naddress;ref\n${a.address};1\n${b.address};2\n`, 'text/csv', '?components=planning');
    expect(sep.status).toBe(202);
    expect(sep.rows.map((x) => x.status)).toEqual(['ok', 'ok']);
    expect(sep.rows.map((x) => x.input.ref)).toEqual(['1', '2']);
    const commas = await job(k, `address\n${a.address}\n`, 'text/csv', '?components=planning');
    expect(commas.rows[0].status).toBe('invalid');
    expect(commas.rows[0].error_message).toMatch(/line 2 has \d fields; the header row has 1: a value holding the delimiter "," \(an address with commas\) must be in double quotes/);
  }, 60_000);
});

describe('the CLI', () => {
  it('refuses an output that is its input, by the same name, a hard link or a symbolic link, and leaves the input whole', async () => {
    const dir = tempDir('batch-self-');
    const [a] = await s.stack.engine.sandbox();
    const book = join(dir, 'book.csv');
    const rows = `address\n"${a.address}"\n`;
    writeFileSync(book, rows);
    linkSync(book, join(dir, 'hard.csv'));
    symlinkSync(book, join(dir, 'soft.csv'));
    for (const out of ['book.csv', 'hard.csv', 'soft.csv', `../${dir.split('/').pop()}/book.csv`]) {
      const r = await runCli(['batch', book, '--out', join(dir, out), '--components', 'planning']);
      expect(r.code, out).toBe(2);
      expect(r.stderr, out).toMatch(/is the input file .*writing the results there would destroy the rows/);
      expect(readFileSync(book, 'utf8'), out).toBe(rows);
    }
  }, 60_000);
});

describe('carried columns', () => {
  it('never share a name with ours or each other: status and input_status both carried, each under its own name', async () => {
    const k = await s.key();
    const [a] = await s.stack.engine.sandbox();
    const r = await job(k, `address,status,input_status,row\n"${a.address}",mine,also mine,7\n`, 'text/csv', '?components=planning');
    expect(r.rows[0].status).toBe('ok');
    const csv = [...csvRows(await (await fetch(`${s.url}/v1/batch/${r.doc.id}/results?format=csv`, { headers: { authorization: `Bearer ${k}` } })).text(), ',')].map((x) => x.fields);
    const header = csv[0];
    expect(new Set(header).size).toBe(header.length);
    expect(header.slice(0, 4)).toEqual(['address', 'input_status_2', 'input_status', 'input_row']);
    expect(csv[1].slice(1, 4)).toEqual(['mine', 'also mine', '7']);
  }, 60_000);
});

describe('a key changed while its job runs', () => {
  /** A job of `rows` distinct addresses in chunks of 10, made in the store as the API makes it. */
  async function chunkedJob(keyId: string, rows: string[]): Promise<string> {
    const text = `address\n${rows.map((a) => `"${a}"`).join('\n')}\n`;
    const { job, chunks } = await jobFromUpload(text, { format: 'csv' }, { id: newBatchId(), key_id: keyId, created_at: new Date().toISOString(), callback_secret: null, options: { components: ['planning'], include_geometry: false, format: 'jsonl', callback_url: null } }, 10);
    await s.stack.store.batches().createJob(job, chunks);
    return job.id;
  }
  const addresses = async () => (await s.stack.engine.sandbox()).map((x) => x.address);

  it('charges nothing of a chunk during which the key was revoked, and the job says why, in full', async () => {
    const made = await createKey(s.stack.store, { components: 'all', geometry: true });
    const engine = s.stack.engine;
    let worked = 0;
    // The key is revoked while the second chunk is being looked up.
    const service = {
      property: engine.property.bind(engine),
      identify: engine.identify.bind(engine),
      batchChunk: async (...args: Parameters<NonNullable<typeof engine.batchChunk>>) => {
        if (++worked === 2) await s.stack.store.revokeKey(made.record.id, new Date());
        return engine.batchChunk(...args);
      },
    };
    const pool = [...(await addresses()), ...sampleVicAddresses(20)];
    const id = await chunkedJob(made.record.id, pool.slice(0, 30));
    const runner = new BatchRunner({ store: s.stack.store, service });
    while (await runner.runOnce());
    const doc = (await s.stack.store.batches().job(id))!;
    expect(doc.status).toBe('failed');
    expect(doc.rows_done).toBe(10);
    expect(doc.charged).toBeLessThanOrEqual(10);
    expect(doc.error?.error).toBe('key_revoked');
    expect(doc.error?.message).toMatch(/^the key that submitted the job was revoked at .+; the rows not yet done when it was were neither looked up nor charged$/);
  }, 60_000);

  it('charges up to a quota lowered while a chunk runs, not the quota it started with', async () => {
    const made = await createKey(s.stack.store, { components: 'all', geometry: true, quota: 1000 });
    const engine = s.stack.engine;
    const service = {
      property: engine.property.bind(engine),
      identify: engine.identify.bind(engine),
      batchChunk: async (...args: Parameters<NonNullable<typeof engine.batchChunk>>) => {
        await s.stack.store.setQuota(made.record.id, 4);
        return engine.batchChunk(...args);
      },
    };
    const id = await chunkedJob(made.record.id, sampleVicAddresses(10));
    const runner = new BatchRunner({ store: s.stack.store, service });
    while (await runner.runOnce());
    const doc = (await s.stack.store.batches().job(id))!;
    expect(doc.charged).toBe(4);
    expect(doc.error?.error).toBe('quota_exceeded');
  }, 60_000);
});

/** `n` street addresses of the sample world's VIC file, none of them sandbox addresses. */
function sampleVicAddresses(n: number): string[] {
  const lines = readFileSync(join(defaultDataDir(), 'vic', 'addresses.csv'), 'utf8').trim().split('\n').slice(1);
  const out: string[] = [];
  for (let i = 101; out.length < n; i += 37) {
    const [, unit, number, street, type, suburb, state, postcode] = lines[i].split(',');
    if (!unit) out.push(`${number} ${street} ${type}, ${suburb} ${state} ${postcode}`);
  }
  return out;
}

describe('what a job stores', () => {
  it('stores each distinct answer once: 200,000 rows over three addresses take under 10 MB, and every row reads back whole', async () => {
    const k = await s.key();
    const three = (await s.stack.engine.sandbox()).slice(0, 3).map((x) => `"${x.address}"`);
    const lines = ['address,n'];
    for (let i = 0; i < 200_000; i++) lines.push(`${three[i % 3]},${i}`);
    const res = await fetch(`${s.url}/v1/batch?components=das,poi,planning,hazards,environment,transport,utilities,administrative,public_housing&format=csv`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'text/csv' }, body: `${lines.join('\n')}\n` });
    const created = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(res.status).toBe(202);
    const runner = new BatchRunner({ store: s.stack.store, service: s.stack.engine });
    while (await runner.runOnce());
    const doc = (await s.stack.store.batches().job(created.id))!;
    expect(doc.status).toBe('done');
    expect(doc.rows_done).toBe(200_000);
    const bytes = await s.stack.store.batches().storedBytes(created.id);
    expect(bytes / 1024 / 1024, `${(bytes / 1024 / 1024).toFixed(1)} MB stored`).toBeLessThan(10);
    // The job's own count of its bytes (what the key's limit sums) is what it holds.
    expect(doc.stored_bytes).toBe(bytes);
    // Read back as it streams: every row, in order, each address's zone the same on every one of its rows.
    const body = (await fetch(`${s.url}/v1/batch/${created.id}/results`, { headers: { authorization: `Bearer ${k}` } })).body!;
    const decoder = new TextDecoder();
    let rest = '';
    let n = -1;
    const zones = new Map<string, string>();
    let header: string[] = [];
    for await (const part of body) {
      const text = rest + decoder.decode(part, { stream: true });
      const rows = text.split('\r\n');
      rest = rows.pop()!;
      for (const row of rows) {
        const cells = [...csvRows(row, ',')][0].fields;
        if (n++ < 0) {
          header = cells;
          continue;
        }
        expect(cells[header.indexOf('n')]).toBe(String(n - 1));
        expect(cells[header.indexOf('status')]).toBe('ok');
        const zone = cells[header.indexOf('zone_code')];
        const address = cells[0];
        if (zones.has(address)) expect(zone).toBe(zones.get(address));
        else zones.set(address, zone);
      }
    }
    expect(n).toBe(200_000);
    expect(zones.size).toBe(3);
  }, 240_000);
});

describe('what a key may hold', () => {
  it('lets a key have 4 jobs queued or running: 16 uploads at once store exactly 4, the others 429 too_many_batch_jobs naming the limit; a cancel makes room', async () => {
    const k = await s.key();
    const [a] = await s.stack.engine.sandbox();
    const post = () => fetch(`${s.url}/v1/batch?components=planning`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'text/csv' }, body: `address\n"${a.address}"\n` });
    const answers = await Promise.all(Array.from({ length: 16 }, post));
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const accepted = bodies.filter((_, i) => answers[i].status === 202);
    try {
      expect(accepted).toHaveLength(4);
      const refused = answers.map((r, i) => ({ r, b: bodies[i] })).filter((x) => x.r.status !== 202);
      expect(refused.map((x) => x.r.status)).toEqual(Array(12).fill(429));
      for (const { r, b } of refused) {
        expect(b).toMatchObject({ error: 'too_many_batch_jobs', limit: 'jobs', max_jobs: 4, open_jobs: 4 });
        expect(b.message).toMatch(/4 batch jobs queued or running, its limit of 4 at once/);
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      const cancelled = await fetch(`${s.url}/v1/batch/${accepted[0].id}`, { method: 'DELETE', headers: { authorization: `Bearer ${k}` } });
      expect(((await cancelled.json()) as { status: string }).status).toBe('cancelled');
      const again = await post();
      const doc = (await again.json()) as { id: string };
      expect(again.status).toBe(202);
      accepted.push(doc);
      // Another key is not held by this one's jobs.
      const other = await fetch(`${s.url}/v1/batch?components=planning`, { method: 'POST', headers: { authorization: `Bearer ${await s.key()}`, 'content-type': 'text/csv' }, body: `address\n"${a.address}"\n` });
      expect(other.status).toBe(202);
      accepted.push((await other.json()) as { id: string });
    } finally {
      // Nothing left queued for the other cases' workers.
      for (const j of accepted) await s.stack.store.batches().cancelJob(j.id, new Date(), 1000);
    }
  }, 60_000);

  it('holds a key to its stored bytes: a job that passes them stops after that chunk (storage_limit, its rows so far kept), and the next upload is 413 batch_storage_full naming the limit', async () => {
    const limit = 64 * 1024;
    const small = await startTestServer({ compute: 'here', threads: 1, batch: { chunkRows: 20, limits: { storedBytes: limit, retentionMs: 3_600_000 } } });
    try {
      const k = await small.key();
      const rows = sampleVicAddresses(200);
      const created = await fetch(`${small.url}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'text/csv' }, body: `address,ref\n${rows.map((r, i) => `"${r}",${i}`).join('\n')}\n` });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };
      const runner = new BatchRunner({ store: small.stack.store, service: small.stack.engine, limits: { storedBytes: limit, retentionMs: 3_600_000 } });
      while (await runner.runOnce());
      const doc = (await small.get(`/v1/batch/${id}`, k)).body;
      expect(doc.status).toBe('failed');
      expect(doc.error).toMatchObject({ error: 'storage_limit', limit });
      expect(doc.error.message).toMatch(/hold \d+ bytes, past its limit of 65536 bytes \(0\.1 MiB\)/);
      // Stopped at the chunk that passed the limit: some rows done, the rest never looked up, every row accounted for.
      expect(doc.rows_done).toBeGreaterThan(0);
      expect(doc.rows_done % 20).toBe(0);
      expect(doc.rows_done + doc.rows_skipped).toBe(200);
      expect(doc.rows_skipped).toBeGreaterThan(0);
      expect(doc.stored_bytes).toBeGreaterThan(limit);
      expect(doc.stored_bytes).toBe(await small.stack.store.batches().storedBytes(id));
      const results = (await (await fetch(`${small.url}/v1/batch/${id}/results?format=jsonl`, { headers: { authorization: `Bearer ${k}` } })).text()).trim().split('\n').map((l) => JSON.parse(l));
      expect(results).toHaveLength(200);
      expect(results.slice(0, doc.rows_done).every((r) => r.status === 'ok' && r.payload)).toBe(true);
      expect(results.slice(doc.rows_done).every((r) => r.status === 'error' && r.error === 'storage_limit')).toBe(true);
      // The next upload: refused before it is read, naming the limit, what the key holds, and when the job frees it.
      const next = await fetch(`${small.url}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'text/csv' }, body: `address\n"${rows[0]}"\n` });
      expect(next.status).toBe(413);
      const body = (await next.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(body).toMatchObject({ error: 'batch_storage_full', limit: 'stored_bytes', max_stored_bytes: limit, stored_bytes: doc.stored_bytes, frees_at: doc.expires_at });
      expect(body.message).toContain(`past its limit of ${limit} bytes`);
      // Kept for the server's retention (an hour here), then gone, and the key may upload again.
      expect(Date.parse(doc.expires_at) - Date.parse(doc.finished_at)).toBe(3_600_000);
      expect(await small.stack.store.batches().deleteExpired(Date.parse(doc.expires_at) + 1)).toBe(1);
      const after = await fetch(`${small.url}/v1/batch`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'text/csv' }, body: `address\n"${rows[0]}"\n` });
      expect(after.status).toBe(202);
    } finally {
      await small.close();
    }
  }, 120_000);
});

describe('what the other endpoints say of odd numbers', () => {
  it('calls a number out of range out of range, never "not a number": radius_km=1e9, per_page=-1, a tile at x=-1', async () => {
    const k = await s.key({ components: 'none', daDailyLimit: 1000 });
    const far = await s.get('/v1/das/nearby?lat=-33.8&lng=151&radius_km=1e9', k);
    expect(far.status).toBe(422);
    expect(far.body).toMatchObject({ error: 'invalid_parameter', parameter: 'radius_km' });
    expect(far.body.message).toMatch(/^radius_km is out of range: it must be above 0 and at most \d+, got 1000000000$/);
    const huge = await s.get('/v1/das/nearby?lat=-33.8&lng=151&radius_km=1e999', k);
    expect(huge.body.message).toBe('radius_km is out of range: got "1e999"');
    const word = await s.get('/v1/das/nearby?lat=-33.8&lng=151&radius_km=far', k);
    expect(word.body.message).toBe('radius_km must be a number, got "far"');
    const negative = await s.get('/v1/das?state=NSW&per_page=-1', k);
    expect(negative.status).toBe(422);
    expect(negative.body.message).toBe('per_page is out of range: it must be from 1 to 100, got "-1"');
    const fraction = await s.get('/v1/das?state=NSW&per_page=2.5', k);
    expect(fraction.body.message).toBe('per_page must be a whole number from 1 to 100, got "2.5"');
    const tile = await s.get('/api/v1/tiles/das/14/-1/9000.mvt');
    expect(tile.status).toBe(422);
    expect(tile.body).toMatchObject({ error: 'invalid_tile', parameter: 'x' });
    expect(tile.body.message).toBe('x is out of range: tile columns and rows start at 0, got -1');
  });

  it('answers If-None-Match: * on a tile 304, as any current representation matches it', async () => {
    const n = 2 ** 14;
    const [lat, lng] = [-33.8212, 151.008];
    const path = `/api/v1/tiles/das/14/${Math.floor(((lng + 180) / 360) * n)}/${Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * n)}.mvt`;
    const first = await s.get(path);
    expect(first.status).toBe(200);
    const star = await s.get(path, undefined, { 'if-none-match': '*' });
    expect(star.status).toBe(304);
    expect(star.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await s.get(path, undefined, { 'if-none-match': '"other"' })).status).toBe(200);
  });
});

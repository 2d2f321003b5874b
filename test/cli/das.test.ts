// propintel das: the queries print what the endpoints answer (the same library functions), bad flags are
// refused naming them, and `das import` is all-or-nothing, names every bad row, and writes the store the
// server reads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { daDetailDocument, daListDocument, daNearbyDocument, daStatsDocument } from '../../server/api/da-query.js';
import { DaStore } from '../../engine/da/da-store.js';
import { UPSERT_KEY } from '../../engine/da/da-schema.js';
import { daStoreFromDirectory } from '../../engine/da/da-sync.js';
import { startTestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';
import { readDocs } from '../helpers/docs.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), shutdown: new Promise(() => {}) });
  return { code, out, err };
}

const dir = tempDir();
let sample: DaStore;
beforeAll(async () => {
  sample = await daStoreFromDirectory(defaultDataDir(), ':memory:');
});
afterAll(() => sample?.close());

const params = (o: Record<string, string>) => new Map(Object.entries(o));

describe('propintel das queries', () => {
  it('print the endpoints\' documents for list, nearby, get and stats', async () => {
    const data = ['--data', defaultDataDir()];
    const list = await run(['das', 'list', ...data, '--state', 'qld', '--category', 'Swimming Pool / Spa', '--per-page', '5', '--status-group', 'approved']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.out)).toEqual(JSON.parse(JSON.stringify(daListDocument(sample, params({ state: 'qld', category: 'Swimming Pool / Spa', status_group: 'approved', per_page: '5' })))));
    const one = sample.list({}, { limit: 1 })[0];
    const near = await run(['das', 'nearby', ...data, '--lat', String(one.lat), '--lng', String(one.lng), '--radius-km', '2']);
    expect(JSON.parse(near.out)).toEqual(JSON.parse(JSON.stringify(daNearbyDocument(sample, params({ lat: String(one.lat), lng: String(one.lng), radius_km: '2' })))));
    const get = await run(['das', 'get', ...data, String(one.id)]);
    expect(JSON.parse(get.out)).toEqual(JSON.parse(JSON.stringify(daDetailDocument(sample, String(one.id)))));
    const stats = await run(['das', 'stats', ...data]);
    expect(JSON.parse(stats.out)).toEqual(JSON.parse(JSON.stringify(daStatsDocument(sample))));
  }, 60_000);

  it('refuse a bad value naming the parameter, and a flag the action does not take', async () => {
    const data = ['--data', defaultDataDir()];
    const bad = await run(['das', 'list', ...data, '--per-page', '101']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/per_page is out of range: it must be from 1 to 100, got "101"/);
    const stray = await run(['das', 'nearby', ...data, '--lat', '-33.8', '--lng', '151.2', '--state', 'NSW']);
    expect(stray.code).toBe(2);
    expect(stray.err).toMatch(/--state does not apply to das nearby/);
    const unknown = await run(['das', 'get', ...data, '12x']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/id must be a positive whole number/);
    const missing = await run(['das', 'get', ...data, '999999999']);
    expect(missing.code).not.toBe(0);
    expect(missing.err).toMatch(/no development application has id 999999999/);
  }, 60_000);
});

const HEADER = 'council,council_reference,state,address,suburb,postcode,description,lodged,status,lat,lng';
const good = [
  'Imported Shire Council,IMP/2026/1,VIC,1 Test Street,Testville,3999,Construction of a single storey dwelling,2026-10-01,Under Assessment,-37.8,144.9',
  'Imported Shire Council,IMP/2026/2,VIC,3 Test Street,Testville,3999,In-ground swimming pool and safety fence,2026-10-02,Permit Issued,-37.801,144.901',
  'Imported Shire Council,IMP/2026/3,VIC,5 Test Street,Testville,3999,Two lot subdivision,2026-10-03,Refused,,',
];

describe('propintel das import', () => {
  it('changes nothing when a row is bad and names it; --skip-invalid imports the rest; the server then lists them', async () => {
    const db = join(dir, 'store.sqlite');
    const file = join(dir, 'feed.csv');
    writeFileSync(file, [HEADER, ...good, 'Imported Shire Council,IMP/2026/4,VIC,7 Test Street,Testville,3999,A shed,2026-13-01,Lodged,,'].join('\n') + '\n');
    const refused = await run(['das', 'import', file, '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/nothing imported: 1 row\(s\) cannot be read/);
    expect(refused.out).toMatch(/rejected row 4 \(line 5\): lodged "2026-13-01" is not a date/);
    const empty = await run(['das', 'stats', '--db', db]);
    expect(JSON.parse(empty.out).data.total).toBe(0);

    const partial = await run(['das', 'import', file, '--db', db, '--skip-invalid']);
    expect(partial.code).toBe(0);
    expect(partial.out).toMatch(/added 3, changed 0, refreshed 0 \(seen again, content unchanged\), unchanged 0, rejected 1/);
    const again = await run(['das', 'import', file, '--db', db, '--skip-invalid', '--json']);
    const report = JSON.parse(again.out);
    // The rows carry no fetch time, so each import stamps now (to the second): the same file again is
    // `unchanged` within the same second and `refreshed` (seen again, content unchanged) after it. Either way
    // nothing of the records changed.
    expect(report).toMatchObject({ applied: true, added: 0, changed: 0 });
    expect(report.unchanged + report.refreshed).toBe(3);

    const listed = JSON.parse((await run(['das', 'list', '--db', db, '--council', 'imported shire council'])).out);
    expect(listed.data.map((d: { council_reference: string }) => d.council_reference)).toEqual(['IMP/2026/3', 'IMP/2026/2', 'IMP/2026/1']);
    expect(listed.data.map((d: { status_group: string }) => d.status_group)).toEqual(['rejected', 'approved', 'pending']);
    expect(listed.data[0].geocoded).toBe(false);

    // A changed status is a change; the server on the same store sees every record at once.
    writeFileSync(file, [HEADER, good[0].replace('Under Assessment', 'Permit Issued')].join('\n') + '\n');
    expect((await run(['das', 'import', file, '--db', db])).out).toMatch(/added 0, changed 1/);
    const t = await startTestServer({ db });
    try {
      const key = await t.key({ components: 'none', daDailyLimit: 10 });
      const r = await t.get('/v1/das?council=Imported%20Shire%20Council', key);
      expect(r.status).toBe(200);
      expect(r.body.data.map((d: { council_reference: string; status: string }) => [d.council_reference, d.status])).toEqual([
        ['IMP/2026/3', 'Refused'],
        ['IMP/2026/2', 'Permit Issued'],
        ['IMP/2026/1', 'Permit Issued'],
      ]);
      // The sample world's records were loaded into the same store beside them.
      expect((await t.get('/v1/stats', key)).body.data.total).toBe(sample.count({}) + 3);
      writeFileSync(file, [HEADER, good[0].replace('IMP/2026/1', 'IMP/2026/9')].join('\n') + '\n');
      expect((await run(['das', 'import', file, '--db', db])).code).toBe(0);
      expect((await t.get('/v1/das?council=Imported%20Shire%20Council', key)).body.meta.pages.total).toBe(4);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('names its upsert key in the words the README uses', async () => {
    const help = await run(['das', '--help']);
    const text = (help.out + help.err).replace(/\s+/g, ' ');
    expect(text).toContain(`Rows upsert on ${UPSERT_KEY}`);
    const readme = readDocs().replace(/\s+/g, ' ');
    expect(readme).toContain(`Rows upsert on ${UPSERT_KEY}`);
    expect(readme.match(/upsert on \([^)]*\)/g)?.every((m) => m === `upsert on ${UPSERT_KEY}`)).toBe(true);
  });

  it('refuses a file without the required columns, and a malformed one, before touching the store', async () => {
    const db = join(dir, 'store2.sqlite');
    const file = join(dir, 'nocols.csv');
    writeFileSync(file, 'name,when\nx,2026-01-01\n');
    const r = await run(['das', 'import', file, '--db', db]);
    expect(r.code).not.toBe(0);
    expect(r.out + r.err).toMatch(/council/);
    const jsonl = join(dir, 'broken.jsonl');
    writeFileSync(jsonl, '{"council":"A","council_reference":"1"\n');
    const b = await run(['das', 'import', jsonl, '--db', db]);
    expect(b.code).not.toBe(0);
    expect(b.out + b.err).toMatch(/line 1/);
  }, 60_000);
});

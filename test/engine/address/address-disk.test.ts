// The on-disk address index (issue 26) against the in-memory one on the same data, the sample world's
// 90,000 addresses: every answer identical, for exact, abbreviated, misspelt, unit, partial and foreign
// queries, nearest-address lookups, ids and parcels; an engine on it answers property lookups exactly as
// one holding the index in memory; a file of another version is refused.
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import { openAddressIndexFile, writeAddressIndexFile } from '../../../engine/address/address-disk.js';
import { AddressIndex } from '../../../engine/address/address-index.js';
import { addressRecordsFromRows, type AddressRecord } from '../../../engine/address/address-record.js';
import { openDataStore } from '../../../engine/data/dataset-store.js';
import { createEngine } from '../../../engine/runtime/engine.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';
import { tempDir } from '../../helpers/tmp.js';

const dir = tempDir('address-disk-');
let records: AddressRecord[];
let memory: AddressIndex;
let disk: AddressIndex;

beforeAll(async () => {
  const store = await openDataStore(defaultDataDir());
  records = store.recordsFor('resolved.address').flatMap((t) => addressRecordsFromRows(t.rows, t.source.id));
  memory = AddressIndex.build(records);
  expect(writeAddressIndexFile(join(dir, 'addresses.sqlite'), records)).toBe(records.length);
  disk = openAddressIndexFile(join(dir, 'addresses.sqlite'), { cacheEntries: 2000 });
}, 120_000);
afterAll(() => disk?.close());

/** Query variants of an address: exact, abbreviated, no suburb, a typo, the unit alone, another state's postcode. */
function variants(r: AddressRecord, k: number): string[] {
  const typo = r.street.replace(/([a-z])([a-z])/, '$2$1');
  return [
    r.text,
    `${r.unit ? `${r.unit}/` : ''}${r.number} ${r.street.replace(/ Street$/, ' St').replace(/ Road$/, ' Rd')} ${r.suburb}`,
    `${r.number} ${r.street}`,
    `${r.number} ${typo}, ${r.suburb} ${r.state}`,
    `${r.street}, ${r.suburb}`,
    `${r.number} ${r.street} ${r.suburb} ${k % 2 ? '2000' : r.postcode}`,
  ];
}

describe('the on-disk address index', () => {
  it('holds every address', () => {
    expect(disk.size).toBe(memory.size);
  });

  it('answers 1,200 queries exactly as the in-memory index does', () => {
    const rnd = seededRandom(26);
    let matched = 0;
    for (let k = 0; k < 200; k++) {
      const r = records[Math.floor(rnd.next() * records.length)];
      for (const q of variants(r, k)) {
        const a = memory.resolve(q);
        expect(disk.resolve(q), q).toEqual(a);
        if (a.match) matched++;
      }
    }
    expect(matched).toBeGreaterThan(700); // the variants mostly resolve: the comparison is not of empty answers
    expect(disk.resolve('nothing like an address')).toEqual(memory.resolve('nothing like an address'));
  });

  it('finds the same nearest address, by id and by parcel', () => {
    const rnd = seededRandom(27);
    for (let k = 0; k < 300; k++) {
      const r = records[Math.floor(rnd.next() * records.length)];
      const lon = r.lon + (rnd.next() - 0.5) * 0.004, lat = r.lat + (rnd.next() - 0.5) * 0.004;
      expect(disk.nearest(lon, lat, 500)).toEqual(memory.nearest(lon, lat, 500));
      expect(disk.byId(r.id)).toEqual(memory.byId(r.id));
      if (r.pfi) expect(disk.byPfi(r.pfi)).toEqual(memory.byPfi(r.pfi));
    }
    expect(disk.nearest(0, 0, 1000)).toBeNull();
    expect(disk.byId('nope')).toBeUndefined();
  });

  it('keeps the points\' extent in meta (opening does not scan the R*Tree), equal to the scan; a file without it still opens', () => {
    const db = new Database(join(dir, 'addresses.sqlite'));
    const scan = db.prepare('SELECT min(minx) AS x0, min(miny) AS y0, max(maxx) AS x1, max(maxy) AS y1 FROM addr_points').get() as Record<string, number>;
    expect(JSON.parse(db.prepare("SELECT value FROM meta WHERE key = 'extent'").pluck().get() as string)).toEqual([scan.x0, scan.y0, scan.x1, scan.y1]);
    db.prepare("DELETE FROM meta WHERE key = 'extent'").run();
    db.close();
    const older = openAddressIndexFile(join(dir, 'addresses.sqlite'), { cacheEntries: 100 });
    try {
      const r = records[17];
      expect(older.nearest(r.lon + 0.001, r.lat, 500)).toEqual(memory.nearest(r.lon + 0.001, r.lat, 500));
    } finally {
      older.close();
    }
  });

  it('serves an engine: property lookups answer exactly as with the in-memory index, and a second engine reuses the file', async () => {
    const file = join(dir, 'engine', 'addresses.sqlite');
    const plain = await createEngine({ datasets: defaultDataDir(), threads: 1 });
    const onDisk = await createEngine({ datasets: defaultDataDir(), threads: 1, addressIndexFile: file });
    try {
      const sandbox = await plain.sandbox();
      const now = new Date('2026-11-25T00:00:00Z');
      for (const s of sandbox.slice(0, 6)) {
        for (const subject of [{ address: s.address }, { address: s.address.replace(/ Street/, ' St').toLowerCase() }, { lat: s.lat, lng: s.lng }]) {
          const a = await plain.property(subject, { components: ['planning', 'das'], now });
          const b = await onDisk.property(subject, { components: ['planning', 'das'], now });
          expect(b.addressKey).toBe(a.addressKey);
          expect({ ...b.payload, meta: undefined }).toEqual({ ...a.payload, meta: undefined });
        }
      }
      expect(existsSync(file)).toBe(true);
      const written = statSync(file).mtimeMs;
      const again = await createEngine({ datasets: defaultDataDir(), threads: 1, addressIndexFile: file });
      try {
        expect(again.addresses().resolve(sandbox[0].address).match?.id).toBe(plain.addresses().resolve(sandbox[0].address).match?.id);
        expect(statSync(file).mtimeMs).toBe(written); // opened, not written again
      } finally {
        await again.close();
      }
    } finally {
      await plain.close();
      await onDisk.close();
    }
  }, 180_000);

  it('refuses a file written by another version', () => {
    const path = join(dir, 'old.sqlite');
    writeAddressIndexFile(path, records.slice(0, 10));
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = '0' WHERE key = 'version'").run();
    db.close();
    expect(() => openAddressIndexFile(path)).toThrow(/address index file version 0; this engine reads 1/);
  });
});

// The address index on hand-made records: normalisation, unit forms, ranking, each match warning, and
// every sample-world address resolving to itself.
import { describe, expect, it } from 'vitest';
import { AddressIndex, addressRecordsFromRows, formatAddress, LOW_TEXT_MATCH, parseQuery, withinOneEdit, type AddressRecord } from '../../../engine/address/index.js';
import { openDataStore } from '../../../engine/data/dataset-store.js';
import { addressIndexFromStore } from '../../../engine/data/address-from-store.js';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';

const rows = [
  { address_id: 'A1', unit: '', number: '12', street_name: 'Blyth', street_type: 'Street', suburb: 'Brunswick East', state: 'VIC', postcode: '3057', lon: 144.97, lat: -37.77, pfi: 'P1', lga: 'Merri-bek' },
  { address_id: 'A2', unit: '3', number: '12', street_name: 'Blyth', street_type: 'Street', suburb: 'Brunswick East', state: 'VIC', postcode: '3057', lon: 144.97, lat: -37.77, pfi: 'P1', lga: 'Merri-bek' },
  { address_id: 'A3', unit: '', number: '14', street_name: 'Blyth', street_type: 'Street', suburb: 'Brunswick East', state: 'VIC', postcode: '3057', lon: 144.9702, lat: -37.77, pfi: 'P2', lga: 'Merri-bek' },
  { address_id: 'A4', unit: '', number: '12', street_name: 'Blyth', street_type: 'Road', suburb: 'Elsternwick', state: 'VIC', postcode: '3185', lon: 145.0, lat: -37.88, pfi: 'P3', lga: 'Glen Eira' },
  { address_id: 'A5', unit: '', number: '7', street_name: 'Marion', street_type: 'Avenue', suburb: 'Rosehill', state: 'NSW', postcode: '2142', lon: 151.02, lat: -33.82, pfi: 'P4', lga: 'Parramatta' },
];
const records = addressRecordsFromRows(rows, 'test_addresses');
const idx = AddressIndex.build(records);

describe('parseQuery', () => {
  it('reads unit forms, numbers, states and postcodes', () => {
    expect(parseQuery('3/12 Blyth St, Brunswick East VIC 3057')).toMatchObject({ unit: '3', number: '12', state: 'VIC', postcode: '3057', words: ['BLYTH', 'STREET', 'BRUNSWICK', 'EAST'] });
    expect(parseQuery('Unit 3 12 Blyth Street')).toMatchObject({ unit: '3', number: '12' });
    expect(parseQuery('U3 12 Blyth St')).toMatchObject({ unit: '3', number: '12' });
    expect(parseQuery('7 marion ave rosehill new south wales')).toMatchObject({ number: '7', state: 'NSW', words: ['MARION', 'AVENUE', 'ROSEHILL'] });
  });

  it('tells one edit from two', () => {
    expect(withinOneEdit('BLYTH', 'BLITH')).toBe(true);
    expect(withinOneEdit('BLYTH', 'BLYT')).toBe(true);
    expect(withinOneEdit('BLYTH', 'BLOTCH')).toBe(false);
  });
});

describe('AddressIndex.resolve', () => {
  it('matches the exact formatted address with confidence 1 and no warnings', () => {
    const r = idx.resolve('12 Blyth Street, Brunswick East VIC 3057');
    expect(r.match?.id).toBe('A1');
    expect(r.confidence).toBe(1);
    expect(r.warnings).toEqual([]);
    expect(r.note).toBe('');
  });

  it('is indifferent to abbreviations, case and punctuation', () => {
    for (const q of ['12 blyth st brunswick east vic 3057', '12 BLYTH ST., BRUNSWICK EAST, VICTORIA 3057']) {
      const r = idx.resolve(q);
      expect(r.match?.id, q).toBe('A1');
      expect(r.confidence, q).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('prefers the unit asked for, in each unit form', () => {
    for (const q of ['3/12 Blyth St Brunswick East', 'Unit 3 12 Blyth St Brunswick East', 'U3 12 Blyth St Brunswick East']) expect(idx.resolve(q).match?.id, q).toBe('A2');
    expect(idx.resolve('12 Blyth St Brunswick East').match?.id).toBe('A1');
  });

  it('tolerates a one-letter typo in the street name', () => {
    const r = idx.resolve('12 Blith Street Brunswick East VIC 3057');
    expect(r.match?.id).toBe('A1');
    expect(r.confidence).toBeLessThan(1);
  });

  it('warns state_mismatch when the query names another state', () => {
    const r = idx.resolve('12 Blyth Street Brunswick East NSW 3057');
    expect(r.match?.id).toBe('A1');
    expect(r.warnings).toContain('state_mismatch');
    expect(r.note).toMatch(/NSW/);
  });

  it('warns postcode_mismatch when the postcode differs', () => {
    const r = idx.resolve('12 Blyth Street Brunswick East VIC 3058');
    expect(r.match?.id).toBe('A1');
    expect(r.warnings).toEqual(['postcode_mismatch']);
  });

  it('warns locality_unverified when no suburb is typed, or another one', () => {
    const r = idx.resolve('14 Blyth Street');
    expect(r.match?.id).toBe('A3');
    expect(r.warnings).toContain('locality_unverified');
    expect(r.note).toMatch(/Brunswick East/);
  });

  it('takes no match when both the typed locality and the postcode contradict the closest address', () => {
    // Finding 3 of the hardening probe: "12 Station Street, Bondi NSW 2026" was billed as a Harris Park address.
    const r = idx.resolve('7 Marion Street, Bondi NSW 2026');
    expect(r.match).toBeNull();
    expect(r.candidates.map((c) => c.id)).toContain('A5');
    expect(r.note).toMatch(/"BONDI".*2026.*7 Marion Avenue, Rosehill NSW 2142/);
    // Only one of them contradicting it is a match with a warning.
    expect(idx.resolve('7 Marion Street, Bondi NSW 2142').match?.id).toBe('A5');
    expect(idx.resolve('7 Marion Avenue, Rosehill NSW 2026').match?.id).toBe('A5');
    expect(idx.resolve('7 Marion Avenue NSW 2026').match?.id).toBe('A5');
  });

  it('warns low_text_match below 0.6, and lists candidates for ambiguous text', () => {
    const r = idx.resolve('9/12 Blyth St Zzzz Qqqq Wwww Xxxx Yyyy');
    expect(r.match).not.toBeNull();
    expect(r.confidence).toBeLessThan(LOW_TEXT_MATCH);
    expect(r.warnings).toContain('low_text_match');
    expect(r.candidates.length).toBeGreaterThan(0);
    expect(r.candidates.every((c) => c.id !== r.match!.id)).toBe(true);
  });

  it('returns no match for text matching nothing', () => {
    const r = idx.resolve('plover hollow nowhere');
    expect(r.match).toBeNull();
    expect(r.candidates).toEqual([]);
  });

  it('finds the nearest address and the addresses on a parcel', () => {
    expect(idx.nearest(145.0001, -37.88)?.record.id).toBe('A4');
    expect(idx.nearest(145.1, -37.88, 100)).toBeNull();
    expect(idx.byPfi('P1').map((r) => r.id).sort()).toEqual(['A1', 'A2']);
  });
});

describe('address records', () => {
  it('formats G-NAF style', () => {
    expect(records[1].text).toBe('3/12 Blyth Street, Brunswick East VIC 3057');
    expect(formatAddress({ ...records[0], unit: null } as AddressRecord)).toBe('12 Blyth Street, Brunswick East VIC 3057');
  });

  it('reports every bad row at once, naming row and column', async () => {
    const e = await expectEngineError(() => addressRecordsFromRows([{ ...rows[0], state: 'XX' }, { ...rows[0], lon: 'abc' }], 'bad'), 'INVALID_DATA', /row 2: state/, /row 3: lon\/lat/);
    expect((e.details.problems as string[]).length).toBe(2);
  });
});

describe('the sample world', () => {
  it('resolves every address to itself (or a record with identical text)', async () => {
    const store = await openDataStore(defaultDataDir(), { shared: false });
    const index = addressIndexFromStore(store);
    expect(index.size).toBeGreaterThan(10_000);
    const all = store.recordsFor('resolved.address').flatMap((t) => addressRecordsFromRows(t.rows, t.source.id));
    let wrong = 0;
    for (let i = 0; i < all.length; i += 7) {
      const r = index.resolve(all[i].text);
      if (r.match?.text !== all[i].text || r.confidence < 0.95 || r.warnings.length) wrong++;
    }
    expect(wrong).toBe(0);
  }, 60_000);
});

// propintel/batch's parts on hand-worked inputs: reading CSV and JSON lines into subjects (the single
// lookup's rules, carried columns, delimiters, whole-file errors), the Hilbert order, and a chunk's lookups
// against a stand-in engine: input order kept, a subject asked twice computed once, a row that throws
// recorded as `error` while the rest go on, and the engine's failures mapped to the single lookup's codes.
import { describe, expect, it } from 'vitest';
import { batchRows, hilbertIndex, hilbertOrder, lookupRows, type BatchLookupService } from '../../../engine/entry/batch.js';
import { EngineError, isEngineError } from '../../../engine/index.js';
import type { PropertySubject } from '../../../engine/entry/property.js';

const rows = (text: string, format: 'csv' | 'jsonl' = 'csv', delimiter?: ',' | ';' | '\t' | '|') => [...batchRows(text, { format, delimiter })];

describe('reading a batch file', () => {
  it('reads an address column and carries every column, in order', () => {
    const r = rows('Ref,ADDRESS,Note\r\n1,"1 Walsh Street, Northcote VIC 3070","a ""quoted"" note"\r\n2,,x\r\n');
    expect(r).toEqual([
      { row: 1, cells: { Ref: '1', ADDRESS: '1 Walsh Street, Northcote VIC 3070', Note: 'a "quoted" note' }, subject: { address: '1 Walsh Street, Northcote VIC 3070' } },
      { row: 2, cells: { Ref: '2', ADDRESS: '', Note: 'x' }, problem: { error: 'invalid_subject', message: 'pass an address or both lat and lng' } },
    ]);
  });

  it('reads lat and lng by the single lookup\'s rules', () => {
    const r = rows('id;lat;lng\na;-37.8;144.9\nb;abc;144.9\nc;-37.8;\nd;-91;144\n');
    expect(r.map((x) => x.subject ?? x.problem)).toEqual([
      { lat: -37.8, lng: 144.9 },
      { error: 'invalid_parameter', message: 'lat must be a number, got "abc"' },
      { error: 'invalid_subject', message: 'pass both lat and lng, or use address' },
      { error: 'invalid_parameter', message: 'lat must be a number from -90 to 90, got -91' },
    ]);
  });

  it('detects the delimiter from the header, or takes the one given', () => {
    expect(rows('address\tref\n"1 Walsh Street, Northcote VIC 3070"\tA\n')[0].cells).toEqual({ address: '1 Walsh Street, Northcote VIC 3070', ref: 'A' });
    expect(rows('address|ref\nx|A\n', 'csv', '|')[0].cells).toEqual({ address: 'x', ref: 'A' });
  });

  it('reads JSON lines, numbers as numbers, a bad line as an invalid row', () => {
    const r = rows('{"address":"x","ref":7}\n\nnot json\n{"lat":-37.8,"lng":144.9,"tags":["a"]}\n[1]\n', 'jsonl');
    expect(r.map((x) => x.row)).toEqual([1, 2, 3, 4]);
    expect(r[0]).toMatchObject({ cells: { address: 'x', ref: 7 }, subject: { address: 'x' } });
    expect(r[1].problem).toEqual({ error: 'invalid_parameter', message: 'line 3 is not JSON' });
    expect(r[2]).toMatchObject({ cells: { tags: '["a"]' }, subject: { lat: -37.8, lng: 144.9 } });
    expect(r[3].problem?.message).toBe('line 5 is not a JSON object');
  });

  it('refuses a file it cannot read as a whole, naming why', () => {
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        expect(isEngineError(err) && err.details.parameter).toBe('body');
        return (err as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused(() => rows(''))).toMatch(/the file is empty/);
    expect(refused(() => rows('name,suburb\nx,y\n'))).toMatch(/needs an address column, or lat and lng columns/);
    expect(refused(() => rows('address,Address\nx,y\n'))).toMatch(/names the column "Address" twice/);
    expect(refused(() => rows('address\n"open\n'))).toMatch(/unterminated quoted field starting on line 2/);
    expect(refused(() => rows('\n\n', 'jsonl'))).toMatch(/holds no rows/);
  });
});

describe('the Hilbert order', () => {
  it('visits the 2 x 2 grid in the curve\'s order', () => {
    // At the top level of a 2^16 grid the quadrants are visited lower left, upper left, upper right, lower
    // right: a point inside each has its quadrant's quarter of the 2^32 positions. The curve starts at (0, 0)
    // and ends at (2^16 - 1, 0).
    const h = 1 << 15;
    const quarter = (x: number, y: number) => Math.floor(hilbertIndex(x, y) / (h * h));
    expect([quarter(h / 2, h / 2), quarter(h / 2, h + h / 2), quarter(h + h / 2, h + h / 2), quarter(h + h / 2, h / 2)]).toEqual([0, 1, 2, 3]);
    expect(hilbertIndex(0, 0)).toBe(0);
    expect(hilbertIndex(2 * h - 1, 0)).toBe(4 * h * h - 1);
  });

  it('puts neighbours next to each other: a shuffled 16 x 16 lattice comes back as a path of unit steps', () => {
    const pts: { lon: number; lat: number }[] = [];
    for (let x = 0; x < 16; x++) for (let y = 0; y < 16; y++) pts.push({ lon: 144 + x / 100, lat: -38 + y / 100 });
    const shuffled = pts.map((p, i) => ({ p, k: (i * 7919) % 257 })).sort((a, b) => a.k - b.k).map((e) => e.p);
    const order = hilbertOrder(shuffled).map((i) => shuffled[i]);
    expect(new Set(order).size).toBe(256);
    for (let i = 1; i < order.length; i++) {
      const step = Math.abs(order[i].lon - order[i - 1].lon) + Math.abs(order[i].lat - order[i - 1].lat);
      expect(step).toBeCloseTo(0.01, 9);
    }
  });
});

describe('looking up a chunk', () => {
  /** A stand-in engine: the subject's text decides what happens. */
  function service(calls: string[]): BatchLookupService {
    const at = (s: PropertySubject) => ('address' in s ? s.address : `${s.lat},${s.lng}`);
    return {
      async identify(s) {
        const a = at(s);
        if (a.startsWith('nowhere')) throw new EngineError('NOT_FOUND', `no address matches "${a}"`, { reason: 'address_unresolvable', candidates: [] });
        if (a.startsWith('-25')) throw new EngineError('NOT_FOUND', 'outside', { reason: 'outside_coverage' });
        const n = Number(/\d+/.exec(a)?.[0] ?? 0);
        return { addressKey: `K${n}`, label: a, sandbox: false, lon: 144 + (n % 10) / 100, lat: -38 + Math.floor(n / 10) / 100 };
      },
      async property(s) {
        const a = at(s);
        calls.push(a);
        if (a.startsWith('boom')) throw new TypeError('a bug in one component');
        return { payload: { resolved: { address: a, match_confidence: 1, point: { lat: -38, lng: 144 } } }, addressKey: `K${a}`, state: 'VIC', sandbox: false, chargeable: true };
      },
    };
  }

  it('keeps input order, computes a repeated subject once, and records a row that throws as error', async () => {
    const calls: string[] = [];
    const input = rows(['address', ...['33 A St', '7 B St', 'boom 5', 'nowhere 1', '33 A St', '12 C St'].map((a) => `"${a}"`), ''].join('\n'));
    const out = await lookupRows(service(calls), input, { property: {}, concurrency: 3 });
    expect(out.map((r) => [r.row, r.status, r.error])).toEqual([
      [1, 'ok', null], [2, 'ok', null], [3, 'error', 'internal_error'], [4, 'unresolved', 'address_unresolvable'], [5, 'ok', null], [6, 'ok', null],
    ]);
    expect(out[2].message).toBe('the lookup failed: a bug in one component');
    expect(calls.filter((c) => c === '33 A St')).toHaveLength(1);
    expect(calls).not.toContain('nowhere 1');
  });

  it('looks up in Hilbert order, or in input order when asked', async () => {
    const addresses = ['99 Z St', '0 A St', '90 Y St', '9 B St', '55 M St'];
    const input = rows(['address', ...addresses.map((a) => `"${a}"`)].join('\n'));
    const spatial: string[] = [];
    await lookupRows(service(spatial), input, { property: {}, concurrency: 1 });
    const inOrder: string[] = [];
    await lookupRows(service(inOrder), input, { property: {}, concurrency: 1, order: 'input' });
    expect(inOrder).toEqual(addresses);
    // Points (n % 10, n / 10) on a 10 x 10 lattice: 0 -> 90 -> 55 -> 99 -> 9 along the curve.
    expect(spatial).toEqual(['0 A St', '90 Y St', '55 M St', '99 Z St', '9 B St']);
  });

  it('marks the rows not started when stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await lookupRows(service([]), rows('address\n"1 A St"\n'), { property: {}, signal: controller.signal });
    expect(out[0]).toMatchObject({ status: 'error', error: 'cancelled' });
  });
});

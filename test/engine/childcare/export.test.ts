// CSV formula-injection neutralisation (OWASP "CSV Injection"): the table of dangerous first characters,
// plain, after leading Unicode whitespace (U+00A0 and others), and in full width; numbers stay numbers.
import { describe, expect, it } from 'vitest';
import { csvField, neutralise } from '../../../engine/childcare/export.js';

describe('neutralise', () => {
  const dangerous = ['=', '+', '-', '@', '\t', '\r', '\n', '\uff1d', '\uff0b', '\uff0d', '\uff20'];
  const spaces = ['', ' ', '  ', '\u00a0', '\u3000', '\u2003', '\ufeff'];
  it('prefixes every dangerous start, also after leading Unicode whitespace', () => {
    for (const d of dangerous) {
      for (const s of spaces) {
        const text = `${s}${d}HYPERLINK("http://evil.example","x")`;
        expect(neutralise(text), JSON.stringify(text)).toBe(`'${text}`);
      }
    }
  });
  it('leaves ordinary text alone, including those characters later in the text', () => {
    for (const text of ['Construction of a childcare centre', 'DA/2026/1-2', 'a=b', 'Lot 1 + Lot 2', 'email@example.com', '', "'already"]) expect(neutralise(text)).toBe(text);
  });
  it('writes numbers as numbers (a negative cost is not prefixed), quotes what needs quoting', () => {
    expect(csvField(-1250.5, true)).toBe('-1250.5');
    expect(csvField(0, true)).toBe('0');
    expect(csvField(null, true)).toBe('');
    expect(csvField('-1250.5')).toBe("'-1250.5"); // as text it is a formula start
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('a, "b"')).toBe('"a, ""b"""');
    expect(csvField('=SUM(A1:A2),x')).toBe('"\'=SUM(A1:A2),x"');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
  });
});

describe('the CSV export', () => {
  it('writes, for every record, the feed item\'s value of each column', async () => {
    const { daStoreFromDirectory } = await import('../../../engine/da/da-sync.js');
    const { defaultDataDir } = await import('../../../datasets/sample-world.js');
    const { childcareFeedItem } = await import('../../../engine/childcare/analysis.js');
    const { childcareCsv, EXPORT_COLUMNS } = await import('../../../engine/childcare/export.js');
    const das = await daStoreFromDirectory(defaultDataDir());
    try {
      const records = das.list({ category: 'childcare', states: ['VIC', 'NSW'] }, { limit: 100_000 });
      const csv = childcareCsv(das, ['VIC', 'NSW']);
      const lines = Buffer.concat(csv.parts).toString('utf8').split('\r\n').slice(1, -1);
      expect(csv.rows).toBe(records.length);
      expect(lines).toEqual(records.map((r) => EXPORT_COLUMNS.map((c) => csvField(childcareFeedItem(r)[c.name], c.numeric)).join(',')));
    } finally {
      das.close();
    }
  });
});

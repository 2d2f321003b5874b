// CSV cells safe in every locale (OWASP "CSV Injection", RFC 4180): the table of dangerous first characters,
// plain, after leading white space and invisible format characters (Unicode Zs and Cf), and in full width;
// every text field quoted (a `;` or tab list separator cannot split one); NUL removed; numbers stay numbers;
// and the reconciliation helper's Python applies the very same rules (run here on the same inputs).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvField, neutralise } from '../../../engine/childcare/export.js';
import { reconciliationHelperScript } from '../../../engine/childcare/reconciliation-helper.js';
import { tempDir } from '../../helpers/tmp.js';
import { missingTool, needs } from '../../helpers/skip.js';

const dangerous = ['=', '+', '-', '@', '\t', '\r', '\n', '\uff1d', '\uff0b', '\uff0d', '\uff20'];
// White space (Zs) and invisible format characters (Cf) a reader does not see before the `=`.
const hidden = ['', ' ', '  ', '\u00a0', '\u3000', '\u2003', '\ufeff', '\u200b', '\u200c', '\u200d', '\u2060', '\u180e', '\u00ad', '\u202e', '\u200b\u00a0\u202e'];
const ordinary = ['Construction of a childcare centre', 'DA/2026/1-2', 'a=b', 'Lot 1 + Lot 2', 'email@example.com', '', "'already", '1234', '\u05d0=1'];

describe('neutralise', () => {
  it('prefixes every dangerous start, also after leading white space and invisible format characters', () => {
    for (const d of dangerous) {
      for (const h of hidden) {
        const text = `${h}${d}HYPERLINK("http://evil.example","x")`;
        expect(neutralise(text), JSON.stringify(text)).toBe(`'${text}`);
      }
    }
  });
  it('leaves ordinary text alone, including those characters later in the text', () => {
    for (const text of ordinary) expect(neutralise(text)).toBe(text);
  });
  it('removes NUL', () => {
    expect(neutralise('a\u0000b')).toBe('ab');
    expect(neutralise('\u0000=1')).toBe("'=1");
  });
  it('quotes every text field, so no list separator splits it; numbers as numbers', () => {
    expect(csvField(-1250.5, true)).toBe('-1250.5');
    expect(csvField(0, true)).toBe('0');
    expect(csvField(null, true)).toBe('');
    expect(csvField('-1250.5')).toBe('"\'-1250.5"'); // as text it is a formula start
    expect(csvField('=1+1')).toBe('"\'=1+1"');
    expect(csvField('a, "b"')).toBe('"a, ""b"""');
    expect(csvField('Fitzroy')).toBe('"Fitzroy"');
    // A European Excel splits on `;`, a tab-delimited import on tabs: inside quotes neither splits the cell, and
    // a piece after either inside a cell starts with an apostrophe too (issue 47).
    expect(csvField('x;=HYPERLINK("http://evil")')).toBe('"x;\'=HYPERLINK(""http://evil"")"');
    expect(csvField('x\t=1')).toBe('"x\t\'=1"');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
  });
  it('leaves no piece of a cell starting a formula when the file is split on ; or tab without regard to quotes (issue 47)', () => {
    const cells = ['H2;=1+1', 'a;\t=1', 'a\t+1', `a;\u200b\u00a0-2`, 'x;@SUM(A1)', 'p;\uff1dq', ...dangerous.flatMap((d) => hidden.map((h) => `k;${h}${d}x\t${h}${d}y`)), ...ordinary, 'plain;text\tmore'];
    const line = cells.map((c) => csvField(c)).join(',');
    for (const sep of [';', '\t']) {
      for (const piece of line.split(sep)) expect(/^"?[\p{Zs}\p{Cf}]*[=+\-@\r\n\uff1d\uff0b\uff0d\uff20\t]/u.test(piece), `${JSON.stringify(piece)} split on ${JSON.stringify(sep)}`).toBe(false);
    }
    // Ordinary text with a separator is left as it is.
    expect(neutralise('plain;text\tmore')).toBe('plain;text\tmore');
  });
  it('is what the reconciliation helper\'s Python writes, cell for cell', (ctx) => {
    needs(ctx, missingTool('python3', ['--version'], 'python3'));
    const dir = tempDir('propintel-cells-');
    const helper = join(dir, 'helper.py');
    writeFileSync(helper, reconciliationHelperScript('test'));
    const inputs = [...dangerous.flatMap((d) => hidden.map((h) => `${h}${d}x`)), ...ordinary, 'a\u0000b', 'x;=1', 'x\t=1', 'H2;=1+1', 'a;\t=1', `a;\u200b\u00a0-2`, 'p;\uff1dq', 'plain;text\tmore'];
    const program = `import csv, importlib.util, io, json, sys
spec = importlib.util.spec_from_file_location("helper", sys.argv[1]); h = importlib.util.module_from_spec(spec); spec.loader.exec_module(h)
out = io.StringIO(); w = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\\n")
for t in json.load(sys.stdin): w.writerow([h.cell(t)])
sys.stdout.write(out.getvalue())`;
    const python = execFileSync('python3', ['-c', program, helper], { input: JSON.stringify(inputs), encoding: 'utf8' });
    expect(python).toBe(inputs.map((t) => `${csvField(t)}\n`).join(''));
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

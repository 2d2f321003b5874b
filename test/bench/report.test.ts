import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureAsync } from '../../bench/lib/measure.js';
import { compared, formatTable, writeResults, type BenchRow } from '../../bench/lib/report.js';
import { tempDir } from '../helpers/tmp.js';

const row = (benchmark: string, msPerOp: number): BenchRow => ({ benchmark, size: '1', msPerOp });

describe('bench report', () => {
  it('prints one aligned row per result with the ratio against the reference', () => {
    const rows = [compared({ benchmark: 'flatbush', size: '1M', msPerOp: 0.5 }, 2), row('x', 12345)];
    const lines = formatTable(rows).split('\n');
    expect(lines).toHaveLength(4); // header, rule, two rows
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[2]).toContain('4.00x'); // 2 / 0.5
    expect(lines[3]).toContain('12.3k');
  });

  it('keeps the suites a run did not touch, and replaces those it ran', () => {
    const file = join(tempDir(), 'results', 'latest.json');
    writeResults(file, { a: [row('a1', 1)], b: [row('b1', 2)] });
    const first = JSON.parse(readFileSync(file, 'utf8'));
    writeResults(file, { b: [row('b2', 3)] });
    const second = JSON.parse(readFileSync(file, 'utf8'));
    expect(second.suites.a).toEqual(first.suites.a);
    expect(second.suites.b.rows).toEqual([row('b2', 3)]);
    expect(second.suites.b.ranAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/); // when it ran, ISO 8601
    expect(Date.parse(second.suites.b.ranAt)).toBeGreaterThanOrEqual(Date.parse(first.suites.b.ranAt));
  });

  it('starts afresh over a results file it cannot read', () => {
    const file = join(tempDir(), 'latest.json');
    writeFileSync(file, '{ not json');
    writeResults(file, { a: [row('a1', 1)] });
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).suites)).toEqual(['a']);
  });

  it('an operation that rejects fails the measurement instead of hanging or exiting', async () => {
    await expect(measureAsync(() => Promise.reject(new Error('boom')), { maxTime: 0.05 })).rejects.toThrow('boom');
  });
});

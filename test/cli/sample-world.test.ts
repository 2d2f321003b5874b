import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { tempDir } from '../helpers/tmp.js';

describe('propintel sample-world', () => {
  it('writes a world (one tile here) and prints a line per tile and what it wrote', async () => {
    const out = join(tempDir(), 'world');
    const r = await runCli(['sample-world', '--out', out, '--tiles', 'act', '--threads', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/act ACT O'Connor and Turner, Canberra: \d+ parcels, \d+ addresses, \d+ files/);
    expect(r.stdout).toMatch(/Wrote \d+ files \([\d.]+ MB\) for \d+ sources and 1 sandbox addresses/);
    for (const f of ['catalogue.json', 'sandbox.json', 'manifest.json', 'act/dem-5m.tif', 'act/addresses.csv', 'act/da-records.jsonl']) expect(existsSync(join(out, f)), f).toBe(true);
    const sandbox = JSON.parse(readFileSync(join(out, 'sandbox.json'), 'utf8'));
    expect(sandbox.addresses).toHaveLength(1);
  }, 60_000);

  it('refuses to replace a non-empty directory that holds no sample world, leaving its files alone (exit 2)', async () => {
    const out = tempDir();
    writeFileSync(join(out, 'notes.txt'), 'my own work');
    const r = await runCli(['sample-world', '--out', out, '--tiles', 'act', '--threads', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${out} is not empty and holds no sample world`);
    expect(r.stdout).toBe('');
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('my own work');
    expect(readdirSync(out)).toEqual(['notes.txt']);
    // A real (non-synthetic) dataset directory is refused the same way.
    writeFileSync(join(out, 'catalogue.json'), JSON.stringify({ catalogue_version: 1, name: 'real', sources: [] }));
    const again = await runCli(['sample-world', '--out', out, '--tiles', 'act', '--threads', '1']);
    expect(again.code).toBe(2);
    expect(readdirSync(out).sort()).toEqual(['catalogue.json', 'notes.txt']);
  });

  it('replaces a directory that already holds a sample world', async () => {
    const out = tempDir();
    writeFileSync(join(out, 'catalogue.json'), JSON.stringify({ catalogue_version: 1, name: 'old world', synthetic: true, sources: [] }));
    writeFileSync(join(out, 'stale.txt'), 'left over from an old generator');
    const r = await runCli(['sample-world', '--out', out, '--tiles', 'act', '--threads', '1']);
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'stale.txt'))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'catalogue.json'), 'utf8')).name).toBe('propintel sample world');
  }, 60_000);

  it('rejects an unknown tile and a bad seed with exit code 2', async () => {
    const a = await runCli(['sample-world', '--out', tempDir(), '--tiles', 'vic,atlantis']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/unknown tile atlantis/);
    const b = await runCli(['sample-world', '--seed=-1']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/--seed must be at least 0/);
  });

  it('rejects an extent that is not whole 6 km tiles, or beyond 120 km, with exit code 2', async () => {
    const a = await runCli(['sample-world', '--out', tempDir(), '--tiles', 'vic', '--extent-km', '13']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/--extent-km must be a multiple of 6 \(whole tiles\), got 13/);
    const b = await runCli(['sample-world', '--out', tempDir(), '--tiles', 'vic', '--extent-km', '600']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/--extent-km/);
  });
});

describe('propintel sandbox', () => {
  it('prints the twelve sandbox addresses in the /sandbox shape', async () => {
    const r = await runCli(['sandbox', '--data', defaultDataDir()]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['addresses']);
    expect(doc.addresses).toHaveLength(12);
    expect(new Set(doc.addresses.map((a: { state: string }) => a.state))).toEqual(new Set(['VIC', 'NSW', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT']));
  });

  it('names the directory when it holds no dataset', async () => {
    const r = await runCli(['sandbox', '--data', tempDir()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no catalogue in the dataset directory/);
  });
});

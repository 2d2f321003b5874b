import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { childcareAnalysis } from '../../engine/childcare/analysis.js';
import { daStoreFromDirectory } from '../../engine/da/da-sync.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/tmp.js';

const dir = tempDir('propintel-childcare-cli-');

describe('propintel childcare', () => {
  it('analysis and site print the library\'s analysis of the sample world', async () => {
    const das = await daStoreFromDirectory(defaultDataDir());
    try {
      const a = await runCli(['childcare', 'analysis', '--state', 'nsw', '--feature-limit', '3']);
      expect(a.code, a.stderr).toBe(0);
      expect(JSON.parse(a.stdout)).toEqual(JSON.parse(JSON.stringify(childcareAnalysis(das, { states: ['NSW'], featureLimit: 3 }))));
      const one = das.list({ category: 'childcare', state: 'NSW' }, { limit: 1 })[0];
      const s = await runCli(['childcare', 'site', '--state', 'NSW', '--lat', String(one.lat), '--lng', String(one.lng), '--radius-km', '2']);
      expect(s.code, s.stderr).toBe(0);
      const site = JSON.parse(s.stdout);
      const circle = { kind: 'circle' as const, lat: one.lat!, lng: one.lng!, radius_km: 2 };
      // The same analysis, with the catalogue's notices (the site opens the whole dataset) and two more sections.
      const { schools, suburb_context, notices, ...rest } = site;
      const { notices: generic, ...expected } = JSON.parse(JSON.stringify(childcareAnalysis(das, { states: ['NSW'], featureLimit: 500, catchment: circle })));
      expect(rest).toEqual(expected);
      expect(notices.licences).toEqual([{ source: 'sample_da_records', licence: 'CC BY 4.0' }]);
      expect(notices.data_boundaries).toEqual(generic.data_boundaries);
      expect(site.headline.total).toBeGreaterThanOrEqual(1);
      expect(schools.available).toBe(true);
      expect(suburb_context).toMatchObject({ available: true, scope: 'suburb', suburb_source: 'nearest_address' });
      // A polygon file: the square around the same point holds the same DAs as a brute-force box test.
      const d = 0.01;
      const ring = [[one.lng! - d, one.lat! - d], [one.lng! + d, one.lat! - d], [one.lng! + d, one.lat! + d], [one.lng! - d, one.lat! + d], [one.lng! - d, one.lat! - d]];
      const file = join(dir, 'square.geojson');
      writeFileSync(file, JSON.stringify({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } }));
      const p = await runCli(['childcare', 'site', '--state', 'NSW', '--polygon', file, '--suburb', one.suburb]);
      expect(p.code, p.stderr).toBe(0);
      const poly = JSON.parse(p.stdout);
      const inBox = das.list({ category: 'childcare', state: 'NSW' }, { limit: 100_000 }).filter((r) => r.lat !== null && Math.abs(r.lng! - one.lng!) < d && Math.abs(r.lat - one.lat!) < d);
      expect(poly.headline.total).toBe(inBox.length);
      expect(poly.suburb_context).toMatchObject({ suburb: one.suburb, suburb_source: 'request' });
      // The endpoint's rules: a bow-tie and a polygon in another state are refused, naming the rule.
      writeFileSync(file, JSON.stringify({ type: 'Polygon', coordinates: [[ring[0], ring[2], ring[1], ring[3], ring[0]]] }));
      const bow = await runCli(['childcare', 'site', '--state', 'NSW', '--polygon', file]);
      expect(bow.code).toBe(2);
      expect(bow.stderr).toMatch(/--polygon: .*crosses or touches itself/);
      expect((await runCli(['childcare', 'site', '--state', 'VIC', '--lat', String(one.lat), '--lng', String(one.lng)])).stderr).toMatch(/--lat: .* is in NSW, not in VIC/);
    } finally {
      das.close();
    }
  });

  it('report writes the PDF or HTML of the site analysis', async () => {
    const das = await daStoreFromDirectory(defaultDataDir());
    try {
      const one = das.list({ category: 'childcare', state: 'NSW' }, { limit: 1 })[0];
      const out = join(dir, 'site.pdf');
      const r = await runCli(['childcare', 'report', '--format', 'pdf', '--out', out, '--state', 'NSW', '--lat', String(one.lat), '--lng', String(one.lng), '--radius-km', '2']);
      expect(r.code, r.stderr).toBe(0);
      const site = JSON.parse((await runCli(['childcare', 'site', '--state', 'NSW', '--lat', String(one.lat), '--lng', String(one.lng), '--radius-km', '2'])).stdout);
      expect(r.stdout).toContain(`(${site.headline.total} childcare DAs)`);
      expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
      const html = join(dir, 'site.html');
      expect((await runCli(['childcare', 'report', '--format', 'html', '--out', html, '--state', 'NSW', '--lat', String(one.lat), '--lng', String(one.lng), '--radius-km', '2'])).code).toBe(0);
      const text = readFileSync(html, 'utf8');
      expect(text).toMatch(/^<!doctype html>/);
      expect(text).toContain(`<span class="n">${site.headline.total}</span><span class="l">Childcare DAs</span>`);
      expect((await runCli(['childcare', 'report', '--format', 'docx', '--out', html, '--state', 'NSW', '--lat', '-33', '--lng', '151'])).stderr).toMatch(/--format pdf or --format html/);
      expect((await runCli(['childcare', 'report', '--format', 'pdf', '--state', 'NSW', '--lat', '-33', '--lng', '151'])).stderr).toMatch(/--out FILE/);
    } finally {
      das.close();
    }
  });

  it('names what is wrong on the command line', async () => {
    expect((await runCli(['childcare', 'site', '--lat', '-33', '--lng', '151'])).stderr).toMatch(/site needs --state/);
    expect((await runCli(['childcare', 'analysis', '--state', 'Narnia'])).code).toBe(2);
    expect((await runCli(['childcare', 'site', '--state', 'NSW', '--lat', '-33', '--lng', '151', '--radius-km', '31'])).stderr).toMatch(/--radius-km/);
    expect((await runCli(['childcare'])).code).toBe(2);
    expect((await runCli(['childcare', 'analysis', '--since', '2026-02-30'])).stderr).toMatch(/--since must be a real date/);
  });
});

import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../datasets/sample-world.js';
import { childcareAnalysis } from '../../engine/childcare/analysis.js';
import { daStoreFromDirectory } from '../../engine/da/da-sync.js';
import { runCli } from '../helpers/run-cli.js';

describe('propintel childcare', () => {
  it('analysis and site print the library\'s analysis of the sample world', async () => {
    const das = await daStoreFromDirectory(defaultDataDir());
    try {
      const a = await runCli(['childcare', 'analysis', '--state', 'nsw', '--feature-limit', '3']);
      expect(a.code, a.stderr).toBe(0);
      expect(JSON.parse(a.stdout)).toEqual(JSON.parse(JSON.stringify(childcareAnalysis(das, { states: ['NSW'], featureLimit: 3 }))));
      const one = das.list({ category: 'childcare', state: 'NSW' }, { limit: 1 })[0];
      const s = await runCli(['childcare', 'site', '--state', 'NSW', '--lat', String(one.lat), '--lng', String(one.lng), '--radius-km', '2']);
      const site = JSON.parse(s.stdout);
      expect(site).toEqual(JSON.parse(JSON.stringify(childcareAnalysis(das, { states: ['NSW'], featureLimit: 500, catchment: { kind: 'circle', lat: one.lat!, lng: one.lng!, radius_km: 2 } }))));
      expect(site.headline.total).toBeGreaterThanOrEqual(1);
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

// propintel lookup on the sample world: an address, a point, flags for the query parameters, --core, errors.
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { defaultDataDir } from '../../datasets/sample-world.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), shutdown: new Promise(() => {}) });
  return { code, out, err };
}

describe('propintel lookup', () => {
  it('prints the payload for an address, with dotted components', async () => {
    const r = await run(['lookup', '--data', defaultDataDir(), '91 Cumberland Grove, Northcote VIC 3070', '--components', 'scores.noise,das', '--compact']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const p = JSON.parse(r.out);
    expect(p.resolved.address).toBe('91 Cumberland Grove, Northcote VIC 3070');
    expect(Object.keys(p.scores)).toEqual(['noise']);
    expect(Object.keys(p.development_applications)).toEqual(['on_parcel', 'nearby_300m']);
    expect(p.planning).toBeUndefined();
  }, 60_000);

  it('takes a point with negative latitude, --core and --include-geometry', async () => {
    const r = await run(['lookup', '--data', defaultDataDir(), '--lon', '144.9873779', '--lat', '-37.7515673', '--core', '--include-geometry', '--components', 'planning.zone']);
    expect(r.code).toBe(0);
    const p = JSON.parse(r.out);
    expect(p.scores).toBeUndefined();
    expect(p.meta.product_contract.name).toBe('core');
    expect(p.resolved.parcel.geometry.type).toMatch(/Polygon/);
  }, 60_000);

  it('refuses a bad parameter naming it, and a missing subject', async () => {
    const bad = await run(['lookup', '--data', defaultDataDir(), '91 Cumberland Grove', '--noise-cells', '8']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/noise_cells/);
    const none = await run(['lookup', '--data', defaultDataDir()]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/address/);
  }, 60_000);
});

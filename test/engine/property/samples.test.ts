// The canned samples: present for every sample path, valid payloads, and exactly what the engine produces now
// (regenerate with `propintel samples` after a change to the engine or the sample world).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { makeSamples } from '../../../datasets/make-samples.js';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import { readSample, SAMPLE_NAMES, samplesDir } from '../../../engine/property/samples.js';
import { CORE_PAYLOAD_SCHEMA, PROPERTY_PAYLOAD_SCHEMA } from '../../../engine/property/schema.js';
import { tempDir } from '../../helpers/tmp.js';

const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module.default;
const ajv = new Ajv2020({ allErrors: true, strict: false });

type Doc = Record<string, any>;

describe('canned samples', () => {
  it('has every sample, and the full and core samples validate against their schemas', async () => {
    for (const name of SAMPLE_NAMES) expect(await readSample(name), name).not.toBeNull();
    expect(await readSample('nope')).toBeNull();
    const full = (await readSample('sample')) as Doc;
    const vf = ajv.compile(PROPERTY_PAYLOAD_SCHEMA);
    expect(vf(full) ? [] : vf.errors).toEqual([]);
    const core = (await readSample('core')) as Doc;
    const vc = ajv.compile(CORE_PAYLOAD_SCHEMA);
    expect(vc(core) ? [] : vc.errors).toEqual([]);
    expect(core.scores).toBeUndefined();
  });

  it('shows what each path promises', async () => {
    const flood = (await readSample('flood')) as Doc;
    expect(flood.scores.flood.flood_depth.value_m).toBeGreaterThan(0);
    expect(Object.keys(((await readSample('context')) as Doc).scores).sort()).toEqual(['heat_island', 'solar', 'view_quality']);
    expect(((await readSample('walkability')) as Doc).scores.walkability.walking_areas).toMatchObject({ type: 'FeatureCollection', features: expect.any(Array) });
    // Spec 4: the canned bushfire screening contract predates the indicative BAL field, and says it left it out.
    const bushfire = (await readSample('bushfire')) as Doc;
    expect(bushfire.scores.bushfire.indicative_bal).toBeUndefined();
    // ...and the delivery contract's preliminary-BAL entry, which describes that field, goes with it.
    expect(bushfire.scores.bushfire.delivery_contract.preliminary_bal).toBeUndefined();
    expect(bushfire.scores.bushfire.delivery_contract.subject_identity).toMatchObject({ kind: 'resolved_address_on_parcel', resolved_address_on_parcel: true, address: bushfire.sample.address });
    expect(Object.keys(bushfire.sample.omitted)).toEqual(['scores.bushfire.indicative_bal', 'scores.bushfire.delivery_contract.preliminary_bal']);
    // The bushfire sample is the sandbox address inside an official overlay, with every input answered.
    expect(bushfire.scores.bushfire.official_zone_status).toBe('hit');
    expect(bushfire.scores.bushfire.coverage).toEqual({ official_overlay: 'returned', vegetation_fuel: 'returned', terrain_slope: 'returned', fire_history: 'returned' });
    expect(bushfire.scores.bushfire.disclaimer).toMatch(/^Pre-screening only\. This is not a certified BAL assessment/);
    expect(bushfire.scores.bushfire.score).toBeGreaterThanOrEqual(0);
    expect(bushfire.scores.bushfire.score).toBeLessThanOrEqual(100);
    // The contamination sample is the one with register sites nearby (spec 4: what that path promises).
    expect(((await readSample('contamination')) as Doc).scores.contamination.epa_status).toBe('sites_nearby');
  });

  it('staleness check only (not a correctness test): the canned files are what `propintel samples` writes today', async () => {
    const out = tempDir('samples-');
    await makeSamples(defaultDataDir(), out);
    for (const name of SAMPLE_NAMES) {
      expect(readFileSync(join(out, `${name}.json`), 'utf8'), `${name}.json is stale: run propintel samples`).toBe(readFileSync(join(samplesDir(), `${name}.json`), 'utf8'));
    }
  }, 120_000);
});

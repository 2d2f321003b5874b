/**
 * The canned samples of spec section 4, produced by real engine runs on sample-world addresses and written
 * as files the server serves (`/api/v1/property/sample`, `/sample/core`, `/sample/walkability`,
 * `/sample/flood`, `/sample/bushfire`, `/sample/context`, `/sample/contamination`). Deterministic: the same
 * sample world and engine give byte-identical files (the request time is fixed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../engine/runtime/engine.js';
import type { SampleName } from '../engine/property/samples.js';

/** The request time written into every sample (meta.as_at), so regeneration is reproducible. */
export const SAMPLE_TIME = new Date('2026-11-01T00:00:00Z');

/**
 * Which sandbox address each sample uses (by its note), what it keeps, and score fields it leaves out with
 * the reason (listed in the sample's `sample.omitted`).
 */
const PREDATES_BAL = 'the canned bushfire screening contract predates the indicative BAL field (spec section 4); live responses carry it';

const PLAN: { name: SampleName; note: RegExp; keep: 'full' | 'core' | string[]; omit?: Record<string, Record<string, string>> }[] = [
  { name: 'sample', note: /Land Subject to Inundation/, keep: 'full' },
  { name: 'core', note: /Land Subject to Inundation/, keep: 'core' },
  { name: 'walkability', note: /tram road/, keep: ['walkability'] },
  { name: 'flood', note: /modelled 1% AEP depth/, keep: ['flood'] },
  // Spec 4: the canned bushfire screening contract predates the indicative BAL field.
  { name: 'bushfire', note: /bushland edge/, keep: ['bushfire'], omit: { bushfire: { indicative_bal: PREDATES_BAL, 'delivery_contract.preliminary_bal': PREDATES_BAL } } },
  { name: 'context', note: /suburban block in Lyneham/, keep: ['heat_island', 'view_quality', 'solar'] },
  { name: 'contamination', note: /tram road/, keep: ['contamination'] },
];

/** A deep copy of `value` without the fields at the dotted `paths` (e.g. `delivery_contract.preliminary_bal`). */
function withoutPaths(value: unknown, paths: readonly string[]): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  for (const path of paths) {
    const keys = path.split('.');
    let node: Record<string, unknown> | undefined = copy;
    for (const k of keys.slice(0, -1)) node = node?.[k] as Record<string, unknown> | undefined;
    if (node) delete node[keys[keys.length - 1]];
  }
  return copy;
}

/** Runs the engine on `dataDir` and writes the seven samples into `outDir`; returns the files written. */
export async function makeSamples(dataDir: string, outDir: string): Promise<string[]> {
  const engine = await createEngine({ datasets: dataDir });
  const written: string[] = [];
  try {
    const sandbox = await engine.sandbox();
    mkdirSync(outDir, { recursive: true });
    for (const p of PLAN) {
      const s = sandbox.find((a) => p.note.test(a.note));
      if (!s) throw new Error(`no sandbox address matches ${p.note} for sample ${p.name}`);
      let doc: Record<string, unknown>;
      if (p.keep === 'full' || p.keep === 'core') {
        const r = await engine.property({ address: s.address }, { variant: p.keep, now: SAMPLE_TIME, include_geometry: p.keep === 'full' });
        doc = r.payload;
      } else {
        const r = await engine.property({ address: s.address }, { components: p.keep.map((k) => `scores.${k}`), include_geometry: p.keep.includes('walkability'), now: SAMPLE_TIME });
        const payload = r.payload as { query: unknown; resolved: { address: string; point: unknown }; scores: Record<string, unknown>; meta: { attribution: unknown; api: unknown } };
        const scores = Object.fromEntries(Object.entries(payload.scores).map(([k, v]) => {
          const drop = p.omit?.[k];
          return [k, drop ? withoutPaths(v, Object.keys(drop)) : v];
        }));
        doc = { query: payload.query, resolved: { address: payload.resolved.address, point: payload.resolved.point }, scores, meta: { attribution: payload.meta.attribution, api: payload.meta.api } };
      }
      const file = join(outDir, `${p.name}.json`);
      // The full and core samples are exactly a payload; the score samples say what they show.
      const omitted = Object.fromEntries(Object.entries(p.omit ?? {}).flatMap(([k, fields]) => Object.entries(fields).map(([f, why]) => [`scores.${k}.${f}`, why])));
      const body = typeof p.keep === 'string' ? doc : { ...doc, sample: { name: p.name, address: s.address, note: s.note, generated_at: SAMPLE_TIME.toISOString(), ...(p.omit ? { omitted } : {}) } };
      writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
      written.push(file);
    }
  } finally {
    await engine.close();
  }
  return written;
}

// A score is a folder and a line: a small score registered beside the nine (the way docs/development.md adds
// one) is computed by the engine, typed in the payload schema, validated in a real payload, and offered by
// `propintel scores`, from a dataset and from a file, with no other code touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoresCommandWith } from '../../../cli/commands/scores.js';
import { defaultDataDir } from '../../../datasets/sample-world.js';
import { clampScore, component, defineScore, levelOf, SCORES, type ScoreRegistry } from '../../../engine/entry/scores.js';
import { defineModel } from '../../../engine/score-kit/model-kind.js';
import { createEngine, type Engine } from '../../../engine/runtime/engine.js';
import { payloadSchema, PROPERTY_PAYLOAD_SCHEMA } from '../../../engine/property/schema.js';
import { openRaster } from '../../../engine/raster/geotiff-reader.js';
import { sampleAtLonLat } from '../../../engine/raster/sample.js';
import { LONLAT } from '../../../engine/geo/crs.js';
import { rasterAt } from '../../../engine/property/inputs/raster-cache.js';
import { ajv2020 } from '../../helpers/ajv.js';
import { SCORE_KEYS } from '../../../engine/scores/registry.js';
import { PAYLOAD_PATHS } from '../../../engine/catalogue/payload-paths.js';

/** A model of the score's own, per state: the DEM files held for it (built once, kept and reported by the engine). */
const demFiles = defineModel<{ files: string[] }>({
  name: 'ground_height_dems',
  scope: 'state',
  whole: true,
  paths: ['scores.view_quality'],
  build: (store, state) => ({ files: state ? store.rastersFor('scores.view_quality', state).map((r) => r.path) : [] }),
});

/** Ground height at the subject, 0-100 over 0-500 m: the smallest score that reads the dataset. */
const groundHeight = defineScore<'ground_height'>({
  key: 'ground_height',
  exposure: false,
  summary: 'ground height at the subject, 0-100 over 0-500 m',
  paths: ['scores.view_quality'],
  dem: { radiusM: 200 },
  fromFiles: false,
  models: [demFiles],
  schema: {
    ref: 'GroundHeightScore',
    definitions: {
      GroundHeightScore: {
        type: 'object',
        additionalProperties: false,
        required: ['score', 'level', 'components'],
        properties: {
          score: { type: ['number', 'null'] },
          level: { $ref: '#/$defs/Level' },
          components: { type: 'object', additionalProperties: false, required: ['height'], properties: { height: { $ref: '#/$defs/NumberComponent' } } },
        },
      },
    },
  },
  score: async (run) => {
    const dem = await run.dem();
    const height = dem && 'grid' in dem ? sampleAtLonLat(dem.grid, run.lon, run.lat) : NaN;
    const ok = Number.isFinite(height) && run.model(demFiles).files.length > 0;
    const score = ok ? clampScore(height / 5) : null;
    return {
      score,
      level: levelOf(score),
      components: { height: component({ value: ok ? Math.round(height * 10) / 10 : null, unit: 'm', level: levelOf(score), resolution: null, source: dem && 'grid' in dem ? dem.source : null, caveat: 'bilinear between DEM cells' }) },
    };
  },
});

const registry: ScoreRegistry = [...SCORES, groundHeight];
let engine: Engine;
let subject: { lon: number; lat: number; address: string };
let demFile: string;
/** The catalogue's id of that DEM's source. */
let demSource: string;
/** The height at the subject read straight from the DEM file (a window of its own). */
let expected: number;

beforeAll(async () => {
  engine = await createEngine({ datasets: defaultDataDir(), threads: 1, scores: registry });
  const store = (engine as unknown as { store: { rastersFor(p: string, s: string | null): never[] } }).store;
  for (const a of await engine.sandbox()) {
    const ref = rasterAt(store.rastersFor('scores.view_quality', a.state), a.lng, a.lat) as { path: string; source: { id: string } } | null;
    if (!ref) continue;
    subject = { lon: a.lng, lat: a.lat, address: a.address };
    demFile = ref.path;
    demSource = ref.source.id;
    break;
  }
  const r = await openRaster(demFile);
  try {
    const d = 0.002;
    const grid = await r.readBBox([subject.lon - d, subject.lat - d, subject.lon + d, subject.lat + d], { crs: LONLAT });
    expected = sampleAtLonLat(grid!, subject.lon, subject.lat);
  } finally {
    await r.close();
  }
}, 120_000);

afterAll(async () => {
  await engine?.close();
});

describe('a score registered beside the nine', () => {
  it('is computed by the engine from the run\'s DEM read, alone and beside the scores sharing that read', async () => {
    expect(Number.isFinite(expected)).toBe(true);
    const alone = await engine.scores(subject.lon, subject.lat, { only: ['ground_height'] });
    const got = alone.scores as Record<string, { score: number; components: { height: { value: number; source: string } } }>;
    expect(got.ground_height.components.height.value).toBeCloseTo(expected, 1);
    expect(got.ground_height.score).toBe(clampScore(expected / 5));
    expect(got.ground_height.components.height.source).toBe(demSource);
    const shared = await engine.scores(subject.lon, subject.lat, { only: ['view_quality', 'walkability', 'ground_height'] });
    expect(Object.keys(shared.scores)).toEqual(['walkability', 'view_quality', 'ground_height']);
    expect((shared.scores as typeof got).ground_height).toEqual(got.ground_height);
  });

  it('is in the payload, typed by the schema built from the registry (which the nine-score schema refuses)', async () => {
    const res = await engine.property({ address: subject.address });
    const payload = res.payload as { scores: Record<string, unknown> };
    expect(Object.keys(payload.scores)).toEqual([...SCORE_KEYS, 'ground_height'].filter((k) => k in payload.scores));
    expect(payload.scores.ground_height).toEqual(((await engine.scores(subject.lon, subject.lat, { only: ['ground_height'] })).scores as Record<string, unknown>).ground_height);
    const schema = payloadSchema('full', registry) as { properties: { scores: { properties: Record<string, unknown> } }; $defs: Record<string, unknown> };
    expect(schema.properties.scores.properties.ground_height).toEqual({ $ref: '#/$defs/GroundHeightScore' });
    const ajv = ajv2020();
    const validate = ajv.compile(schema);
    expect(validate(payload), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const nine = ajv2020().compile(PROPERTY_PAYLOAD_SCHEMA);
    expect(nine(payload)).toBe(false);
    expect(JSON.stringify(nine.errors)).toMatch(/ground_height/);
    // A score that names a definition nobody provides is refused when the schema is built.
    expect(() => payloadSchema('full', [...SCORES, { ...groundHeight, schema: { ref: 'Nowhere' } }])).toThrow(/ground_height: its schema refers to Nowhere/);
  });

  it('has its model built once per state, kept and reported by the engine like the nine scores\' models', async () => {
    await engine.scores(subject.lon, subject.lat, { only: ['ground_height'] });
    const report = await engine.memoryReport();
    const mine = report.models.filter((m) => m.model === 'ground_height_dems');
    expect(mine.map((m) => m.state)).toEqual([(await engine.sandbox()).find((a) => a.address === subject.address)!.state]);
    expect(mine[0].bytes).toBeGreaterThan(0);
    expect(report.models.some((m) => m.model === 'walkability_indexes')).toBe(true);
  });

  it('is offered by `propintel scores` from the dataset (a score that reads models of the dataset only, not from files)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) };
    const command = scoresCommandWith(registry);
    expect(await command.run(['--data', defaultDataDir(), `--lon=${subject.lon}`, `--lat=${subject.lat}`, '--only', 'ground_height'], io as never)).toBe(0);
    const fromData = JSON.parse(out.join('')) as { scores: Record<string, { components: { height: { value: number } } }> };
    expect(fromData.scores.ground_height.components.height.value).toBeCloseTo(expected, 1);
    await expect(command.run([`--lon=${subject.lon}`, `--lat=${subject.lat}`, '--only', 'ground_height', '--dem', demFile], io as never)).rejects.toThrow(/ground_height is computed from a dataset only/);
    // The registry's own command does not know it.
    await expect(scoresCommandWith(SCORES).run([`--lon=${subject.lon}`, `--lat=${subject.lat}`, '--only', 'ground_height', '--dem', demFile], io as never)).rejects.toThrow(/unknown score key ground_height/);
  });

  it('refuses a key registered twice, and a list of scores on engine threads', async () => {
    await expect(createEngine({ datasets: defaultDataDir(), threads: 0, scores: [...SCORES, SCORES[0]] })).rejects.toThrow(/score key "noise" is registered twice/);
    await expect(createEngine({ datasets: defaultDataDir(), compute: 'threads', scores: registry })).rejects.toThrow(/compute 'here' only/);
  });

  it('the registry and the catalogue agree: every score input path is read by a score, and each score reads catalogue paths', () => {
    const read = new Set(SCORES.flatMap((d) => d.paths));
    for (const d of SCORES) for (const p of d.paths) expect(PAYLOAD_PATHS, `${d.key} reads ${p}`).toContain(p);
    expect(PAYLOAD_PATHS.filter((p) => p.startsWith('scores.') && !read.has(p))).toEqual([]);
    expect(SCORES.map((d) => d.key)).toEqual(['noise', 'flood', 'bushfire', 'heat_island', 'solar', 'walkability', 'view_quality', 'contamination', 'aircraft_noise']);
  });
});

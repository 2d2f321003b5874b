/**
 * The sample-world generator: a deterministic synthetic dataset directory (same seed, byte-identical files) in
 * the formats real publishers use, with one tile per state and territory, a catalogue and the sandbox list.
 */
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { CATALOGUE_VERSION, type SourceFile } from '../../engine/catalogue/catalogue.js';
import { createWorkerPool } from '../../engine/pool/worker-pool.js';
import { seededRandom } from '../../engine/random/seeded-random.js';
import { VERSION } from '../../engine/version.js';
import { writeAirports, writeAnef } from './layers/aircraft.js';
import { writeAdministrative, writeStatisticalAreas, writeUtilities } from './layers/admin.js';
import { writeCadastre, writeEasements } from './layers/cadastre.js';
import { writeCensus } from './layers/census.js';
import { writeDas } from './layers/das.js';
import { writeEnvironment } from './layers/environment.js';
import { vegetationMask, writeBushfire, writeContamination } from './layers/hazards.js';
import { writeCityPlan2025, writeGrowthAreas, writeHeritage, writeOverlays, writeZones } from './layers/planning.js';
import { writeAmenities, writeSchools } from './layers/poi.js';
import { landCoverGrid, writeRasters } from './layers/rasters.js';
import { floodMasks, floodOffsetForSandbox, writeDem, writeFloodStudy, writeIfd, writeStateContours, writeWater } from './layers/terrain-layers.js';
import { writeTransport } from './layers/transport.js';
import type { TileContext } from './context.js';
import { Frame } from './frame.js';
import { COL, layOut } from './layout.js';
import { assertReplaceableOutDir } from './out-dir.js';
import { sandboxAddresses, sandboxFloodRule, type SandboxAddress } from './sandbox.js';
import { SourceRegistry } from './sources.js';
import { Terrain } from './terrain.js';
import { TILES, tileById, type TileSpec } from './tiles.js';
import { mosaicSide, mosaicSpec, subTileDir, TILE_KM, type SubTile } from './mosaic.js';
import { FileWriter, type WrittenFile } from './writer.js';

/** Bumped whenever the generator's output changes, so a stale sample world is regenerated. */
export const GENERATOR_VERSION = '6';
/** Address ids reserved per mosaic sub-tile (a 6 km tile holds about 12,000 addresses). */
const ADDRESS_BLOCK = 40_000;
/** The seed `npm start` and the tests use. */
export const DEFAULT_SEED = 20261101;

/** Options for {@link generateSampleWorld}. */
export interface GenerateOptions {
  /**
   * Output directory: created when absent, replaced when it holds a sample world; any other non-empty
   * directory is refused (INVALID_ARGUMENT) so a user's files are never wiped.
   */
  out: string;
  /** Seed, default {@link DEFAULT_SEED}. */
  seed?: number;
  /** Tile ids to generate (default all eight). */
  tiles?: string[];
  /** Called with one line per finished tile. */
  onProgress?: (line: string) => void;
  /** Worker threads (default: the number of cores; 1 generates in this thread). */
  threads?: number;
  /**
   * Side of each tile, km: 6 (the default) writes today's tiles; a multiple of 6 writes each named tile as a
   * mosaic of (extentKm / 6)^2 sub-tiles (datasets/generator/mosaic.ts), the metro-scale benchmark world.
   */
  extentKm?: number;
}

/** The generator's worker task. */
export type GeneratorTasks = {
  'sample-world-tile': [{ id: string; seed: number; out: string; sub?: SubTile }, TileResult];
};

/** What the generator wrote. */
export interface GenerateResult {
  out: string;
  seed: number;
  files: WrittenFile[];
  sources: number;
  sandbox: SandboxAddress[];
  ms: number;
}

/** The seed of tile `id`'s random stream (FNV-1a of the id over the world seed); its terrain draws first. */
export function tileSeed(seed: number, id: string): number {
  let h = seed >>> 0;
  for (const ch of id) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/** What one tile's generation produced (plain data: it crosses back from a worker thread). */
export interface TileResult {
  id: string;
  /** The tile's folder (its id, or `id/rRcC` for a mosaic sub-tile). */
  dir: string;
  files: WrittenFile[];
  /** Files added to catalogue sources, in order. */
  added: [string, SourceFile][];
  sandbox: SandboxAddress[];
  lots: number;
  addresses: number;
  ms: number;
}

/**
 * The tile's context before any file is written: terrain, layout, flood masks (raised when the sandbox
 * rule needs it) and vegetation. `out` is where the tile's files will go.
 */
export function prepareTile(id: string, seed: number, out: string, sub?: SubTile): TileContext {
  const base = tileById(id);
  const spec = sub ? mosaicSpec(base, sub) : base;
  // A sub-tile numbers its ids after the eight tiles' (parcels, plans, DAs, areas), and draws its own stream.
  const tileIndex = sub ? TILES.length + sub.row * sub.n + sub.col : TILES.indexOf(spec);
  const dir = sub ? subTileDir(base, sub) : spec.id;
  const writer = new FileWriter(out);
  const registry = new SourceRegistry();
  const rnd = seededRandom(tileSeed(seed, dir));
  const frame = new Frame(spec.lon, spec.lat);
  const terrain = new Terrain(spec.terrain, rnd);
  const layout = layOut(spec, terrain, rnd);
  const ctx: TileContext = {
    spec, tileIndex, frame, terrain, layout, rnd, writer, registry, dir,
    masks: { flood1pct: new Uint8Array(0), floodPlanning: new Uint8Array(0), floodway: new Uint8Array(0), landCover: new Uint8Array(0), vegetation: new Uint8Array(0) },
    elev10: terrain.grid(10),
    addresses: [],
    addressBase: sub ? (sub.row * sub.n + sub.col) * ADDRESS_BLOCK : 0,
    pfiOf: new Map(),
    suburbOf(x, y) {
      const left = terrain.creekDistance(x, y) > 0;
      const west = layout.pq(x, y)[0] < -1.5 * COL;
      const s = left ? spec.suburbs[west ? 0 : 1] : spec.suburbs[2];
      return { suburb: s.name, postcode: s.postcode, council: spec.councils[left ? 0 : 1] };
    },
  };
  Object.assign(ctx.masks, floodMasks(ctx));
  // Every seed's tile must hold its flood-related sandbox address: raise the flood when none would.
  const floodOffset = floodOffsetForSandbox(ctx, sandboxFloodRule(ctx));
  if (floodOffset > 0) {
    ctx.floodOffset = floodOffset;
    Object.assign(ctx.masks, floodMasks(ctx));
  }
  ctx.masks.vegetation = vegetationMask(ctx);
  return ctx;
}

/** Generates one tile into `out` (its own folder there), returning what it wrote. */
export function generateTile(id: string, seed: number, out: string, sub?: SubTile): TileResult {
  const t0 = performance.now();
  const ctx = prepareTile(id, seed, out, sub);
  const { spec, writer, registry, layout } = ctx;
  writeDem(ctx);
  writeWater(ctx);
  writeFloodStudy(ctx);
  writeIfd(ctx);
  writeStateContours(ctx);
  writeCadastre(ctx);
  writeEasements(ctx);
  writeZones(ctx);
  writeOverlays(ctx);
  writeHeritage(ctx);
  writeGrowthAreas(ctx);
  writeCityPlan2025(ctx);
  writeBushfire(ctx);
  writeContamination(ctx);
  writeEnvironment(ctx);
  writeTransport(ctx);
  writeSchools(ctx);
  writeAmenities(ctx);
  writeAdministrative(ctx);
  writeStatisticalAreas(ctx);
  writeUtilities(ctx);
  ctx.masks.landCover = landCoverGrid(ctx);
  writeRasters(ctx);
  writeAnef(ctx);
  const truth = writeDas(ctx);
  writer.jsonl(`eval/${ctx.dir.replace('/', '-')}-da-categories.jsonl`, truth);
  // Last: it draws from the tile's stream after every other layer, so it changes none of them.
  writeCensus(ctx);
  // A mosaic lists the sandbox addresses of its centre sub-tile only (one set per state, as today).
  const sandbox = !sub || (sub.row === sub.n >> 1 && sub.col === sub.n >> 1) ? sandboxAddresses(ctx) : [];
  return { id, dir: ctx.dir, files: writer.files, added: registry.added, sandbox, lots: layout.lots.length, addresses: ctx.addresses.length, ms: performance.now() - t0 };
}

/** Generates the sample world into `options.out`: tiles in parallel on worker threads, merged in tile order. */
export async function generateSampleWorld(options: GenerateOptions): Promise<GenerateResult> {
  const t0 = performance.now();
  const seed = options.seed ?? DEFAULT_SEED;
  const ids = options.tiles ?? TILES.map((t) => t.id);
  const specs = ids.map(tileById);
  const extentKm = options.extentKm ?? TILE_KM;
  const n = mosaicSide(extentKm);
  const jobs: { spec: TileSpec; sub?: SubTile }[] = specs.flatMap((spec) => (n === 1 ? [{ spec }] : Array.from({ length: n * n }, (_, k) => ({ spec, sub: { row: Math.floor(k / n), col: k % n, n } }))));
  assertReplaceableOutDir(options.out);
  rmSync(options.out, { recursive: true, force: true });
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), jobs.length));
  let done = 0;
  const report = (r: TileResult) => {
    const spec = tileById(r.id);
    const bytes = r.files.reduce((s, f) => s + f.bytes, 0);
    const count = jobs.length > specs.length ? ` [${++done}/${jobs.length}]` : '';
    options.onProgress?.(`  ${r.dir.padEnd(3)} ${spec.state.padEnd(3)} ${spec.place}${count}: ${r.lots} parcels, ${r.addresses} addresses, ${r.files.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${(r.ms / 1000).toFixed(1)} s`);
  };
  let results: TileResult[];
  if (threads === 1) {
    results = jobs.map(({ spec, sub }) => {
      const r = generateTile(spec.id, seed, options.out, sub);
      report(r);
      return r;
    });
  } else {
    const fromSource = import.meta.url.endsWith('.ts');
    const pool = createWorkerPool<GeneratorTasks>({ module: new URL(`./tile-task.${fromSource ? 'ts' : 'js'}`, import.meta.url), threads, taskTimeoutMs: 600_000 });
    try {
      results = await Promise.all(jobs.map(async ({ spec, sub }) => {
        const r = await pool.run('sample-world-tile', { id: spec.id, seed, out: options.out, sub });
        report(r);
        return r;
      }));
    } finally {
      await pool.destroy();
    }
  }
  const writer = new FileWriter(options.out);
  const registry = new SourceRegistry();
  const sandbox: SandboxAddress[] = [];
  const files: WrittenFile[] = [];
  for (const r of results) {
    for (const [id, file] of r.added) registry.add(id, file);
    files.push(...r.files);
    sandbox.push(...r.sandbox);
  }
  writeAirports(writer, registry);
  writer.json('sandbox.json', { addresses: sandbox });
  const sources = registry.sources();
  const doc = {
    catalogue_version: CATALOGUE_VERSION,
    name: 'propintel sample world',
    description: `A synthetic dataset in real publishers' formats: ${specs.length} tiles (${specs.map((s) => s.state).join(', ')})${n > 1 ? `, each ${extentKm} km across (${n} x ${n} sub-tiles)` : ''}. Every source is synthetic; none describes a real parcel or application.`,
    synthetic: true,
    // The tiles written: a world of fewer than all eight does not count as the default sample world.
    generator: { name: 'propintel sample-world', version: `${VERSION}+g${GENERATOR_VERSION}`, seed, tiles: specs.map((s) => s.id), ...(n > 1 ? { extent_km: extentKm } : {}) },
    sandbox: 'sandbox.json',
    sources,
  };
  writer.json('catalogue.json', doc);
  files.push(...writer.files);
  writer.json('manifest.json', { generator: doc.generator, files: files.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256 })) });
  files.push(writer.files[writer.files.length - 1]);
  return { out: options.out, seed, files, sources: sources.length, sandbox, ms: performance.now() - t0 };
}

/** The generated world's file for a path (for tests). */
export function worldFile(out: string, path: string): string {
  return join(out, path);
}

/**
 * `propintel noise`: scores.noise and surfaces.noise for one point, from a dataset directory (`--data DIR`,
 * default the sample world: the state's network as the property lookup builds it) or from explicit data
 * files (`--roads FILE` and friends). Prints `{ "score": ..., "surface": ... }` as JSON.
 */
import { resolve } from 'node:path';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { openDataStore } from '../../engine/entry/data.js';
import { EngineError } from '../../engine/entry/errors.js';
import { loadNoiseNetworkFiles, type NoiseFiles, noiseGridSpec, noiseSurface, noiseScore } from '../../engine/entry/noise.js';
import type { NoiseNetwork } from '../../engine/entry/noise.js';
import { noiseNetworkFor, stateAt } from '../../engine/entry/scores.js';
import { EXIT_OK, UsageError, type Command, type CommandIO } from '../command.js';
import { profileFileLevels } from '../../engine/entry/noise.js';
import { numberFlag, parseFlags, POINT_FLAGS, requirePointFlags, type FlagValues } from '../args.js';

const FLAGS = {
  data: { type: 'string' },
  roads: { type: 'string' },
  rail: { type: 'string' },
  counters: { type: 'string' },
  loggers: { type: 'string' },
  anef: { type: 'string' },
  ...POINT_FLAGS,
  cells: { type: 'string' },
  state: { type: 'string' },
  method: { type: 'string' },
  compact: { type: 'boolean' },
} as const;


const FILE_FLAGS = ['roads', 'rail', 'counters', 'loggers', 'anef'] as const;

/** The data files named on the command line, or null when none is (the dataset directory answers). */
export function noiseFilesFromFlags(values: FlagValues<typeof FLAGS>): NoiseFiles | null {
  const named = FILE_FLAGS.filter((k) => values[k] !== undefined);
  if (named.length === 0) return null;
  if (values.data !== undefined) throw new UsageError(`pass either --data DIR or data files (--${named.join(', --')}), not both`);
  if (!values.roads) throw new UsageError(`--roads FILE.geojson is required with --${named.join(', --')}`);
  return { roads: values.roads, rail: values.rail, counters: values.counters, loggers: values.loggers, anef: values.anef };
}

/**
 * The network of the state at (lon, lat) from a dataset directory (the sample world, generated when absent,
 * by default), built the way the property lookup builds it, and that state.
 */
async function networkFromData(dir: string | undefined, lon: number, lat: number, io: CommandIO): Promise<{ network: NoiseNetwork; state: string }> {
  const root = resolve(dir ?? defaultDataDir());
  if (dir === undefined) await ensureSampleWorld(root, (line) => io.stderr(`${line}\n`));
  const store = await openDataStore(root);
  const state = stateAt(store, lon, lat);
  if (!state) throw new EngineError('NOT_FOUND', `no state's administrative boundaries in ${root} contain ${lon}, ${lat}`, { lon, lat, data: root });
  const network = noiseNetworkFor(store, state);
  if (!network) throw new EngineError('NOT_FOUND', `no road network (scores.noise.roads) is held for ${state} in ${root}`, { state, data: root });
  return { network, state };
}

/** The `noise` subcommand. */
export const noiseCommand: Command = {
  name: 'noise',
  summary: 'road, rail and aircraft noise score and surface for a point',
  usage: [
    'propintel noise [--data DIR] --lon X --lat Y [--cells 5|7|9] [--state CODE] [--compact]',
    'propintel noise --roads FILE.geojson [--rail FILE.geojson] [--counters FILE.csv] [--loggers FILE.csv]',
    '                [--anef FILE.geojson] --lon X --lat Y [--cells 5|7|9] [--state CODE] [--compact]',
    '',
    'Prints { "score": <scores.noise>, "surface": <surfaces.noise> } for the point as JSON.',
    '',
    `  --data DIR       dataset directory; the network of the state at the point (default: the sample world`,
    `                   in ${defaultDataDir()}, generated when absent). Not with the file flags below.`,
    '  --roads FILE     roads GeoJSON (road_id, name, road_class, aadt, heavy_share, speed_kmh, gradient_pct,',
    '                   crowd_sourced, source)',
    '  --rail FILE      rail and tram GeoJSON (line_id, name, mode, services_day, speed_kmh, source)',
    '  --counters FILE  traffic counters, CSV or JSON lines (counter_id, lon, lat, road_id, aadt, ...)',
    '  --loggers FILE   noise loggers, CSV or JSON lines (logger_id, lon, lat, state, lden_db, ...)',
    '  --anef FILE      ANEF contours GeoJSON (anef_min, anef_max, airport, source)',
    '  --lon X --lat Y  the subject, degrees (--lng is accepted for --lon)',
    '  --cells N        surface nodes per side: 5 (500 m), 7 (375 m, default) or 9 (300 m)',
    '  --state CODE     state for measured_validation (default: the state at the point with --data, else',
    '                   that of the nearest logger)',
    '  --method M       the physics path\'s propagation: cortn (default) or cnossos (CNOSSOS-EU',
    '                   per octave band, docs/noise-cnossos.md)',
    '  --compact        one-line JSON',
    '',
    'propintel noise path FILE... [--lw 93] [--temperature 10] [--humidity 70] [--p 0.5]',
    '',
    'CNOSSOS-EU propagation along vertical cut profiles (the format of ISO/TR 17534-4\'s test profiles, e.g.',
    '../shared/cnossos/profiles/): prints a JSON array with, per file, `file`, `LH` and `LF` (8 octave bands,',
    '63 Hz-8 kHz, dB: the path\'s level in homogeneous and favourable conditions for the sound power; LF null',
    'where the path does not exist in favourable conditions) and, per case given whole (files named',
    '<case>_Direct.json, <case>_Left.json, ...; a lateral path\'s favourable profile <case>_Left_Curved.json is',
    'read beside it), `case`, `L` and `LA` per band: every path\'s long-term level summed, and A-weighted.',
    '  --lw DB          sound power per band, dB (default 93)',
    '  --temperature C  air temperature (default 10) and --humidity % (default 70): atmospheric absorption',
    '  --p P            probability of favourable conditions, 0-1 (default 0.5)',
  ].join('\n'),
  async run(args, io) {
    if (args[0] === 'path') return pathCommand(args.slice(1), io);
    const { values } = parseFlags(args, FLAGS);
    const files = noiseFilesFromFlags(values);
    const { lon, lat } = requirePointFlags(values);
    const cells = numberFlag('cells', values.cells, 7);
    const method = values.method ?? 'cortn';
    if (method !== 'cortn' && method !== 'cnossos') throw new UsageError(`--method must be cortn or cnossos, got ${JSON.stringify(method)}`);
    noiseGridSpec(cells); // a bad --cells fails before any data is loaded
    let network: NoiseNetwork;
    let state: string | undefined = values.state;
    if (files) {
      network = await loadNoiseNetworkFiles(files);
    } else {
      const found = await networkFromData(values.data, lon, lat, io);
      network = found.network;
      state ??= found.state;
    }
    const surface = noiseSurface(network, lon, lat, { cells, method });
    const score = noiseScore(network, lon, lat, { ...(state ? { state } : {}), method });
    io.stdout(`${JSON.stringify({ score, surface }, null, values.compact ? 0 : 2)}\n`);
    return EXIT_OK;
  },
};

/** `propintel noise path FILE...`: CNOSSOS-EU levels of cut profiles (engine/noise/cnossos). */
async function pathCommand(args: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseFlags(args, { lw: { type: 'string' }, temperature: { type: 'string' }, humidity: { type: 'string' }, p: { type: 'string' }, compact: { type: 'boolean' } }, true);
  if (!positionals.length) throw new UsageError('noise path needs one or more profile files (JSON cut profiles)');
  const lw = numberFlag('lw', values.lw, 93, { min: -50, max: 250 });
  const temperature = numberFlag('temperature', values.temperature, 10, { min: -40, max: 60 });
  const humidity = numberFlag('humidity', values.humidity, 70, { min: 0, max: 100 });
  const p = numberFlag('p', values.p, 0.5, { min: 0, max: 1 });
  const { paths, cases } = profileFileLevels(positionals, { lw, temperature, humidity }, p);
  const r2 = (v: number) => Math.round(v * 100) / 100;
  const out = [
    ...paths.map((x) => ({ file: x.file, LH: x.LH.map(r2), LF: x.LF ? x.LF.map(r2) : null })),
    ...cases.map((c) => ({ case: c.case, paths: c.paths, L: c.L.map(r2), LA: c.LA.map(r2) })),
  ];
  io.stdout(`${JSON.stringify(out, null, values.compact ? 0 : 2)}\n`);
  return EXIT_OK;
}


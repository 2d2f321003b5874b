/**
 * `propintel noise`: scores.noise and surfaces.noise for one point, from explicit data files (the
 * catalogue's `--data DIR` will feed the same loader). Prints `{ "score": ..., "surface": ... }` as JSON.
 */
import { loadNoiseNetworkFiles, type NoiseFiles } from '../../engine/noise/load-noise-files.js';
import { noiseSurface } from '../../engine/noise/noise-grid.js';
import { noiseScore } from '../../engine/noise/noise-score.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';
import { numberFlag, parseFlags, type FlagValues, joinNegativeValues } from '../args.js';

const FLAGS = {
  roads: { type: 'string' },
  rail: { type: 'string' },
  counters: { type: 'string' },
  loggers: { type: 'string' },
  anef: { type: 'string' },
  lon: { type: 'string' },
  lat: { type: 'string' },
  cells: { type: 'string' },
  state: { type: 'string' },
  compact: { type: 'boolean' },
} as const;


/** The data files named on the command line (kept apart so a catalogue source can replace it). */
export function noiseFilesFromFlags(values: FlagValues<typeof FLAGS>): NoiseFiles {
  if (!values.roads) throw new UsageError('--roads FILE.geojson is required');
  return { roads: values.roads, rail: values.rail, counters: values.counters, loggers: values.loggers, anef: values.anef };
}

/** The `noise` subcommand. */
export const noiseCommand: Command = {
  name: 'noise',
  summary: 'road, rail and aircraft noise score and surface for a point',
  usage: [
    'propintel noise --roads FILE.geojson [--rail FILE.geojson] [--counters FILE.csv] [--loggers FILE.csv]',
    '                [--anef FILE.geojson] --lon X --lat Y [--cells 5|7|9] [--state CODE] [--compact]',
    '',
    'Prints { "score": <scores.noise>, "surface": <surfaces.noise> } for the point as JSON.',
    '',
    '  --roads FILE     roads GeoJSON (road_id, name, road_class, aadt, heavy_share, speed_kmh, gradient_pct,',
    '                   crowd_sourced, source)',
    '  --rail FILE      rail and tram GeoJSON (line_id, name, mode, services_day, speed_kmh, source)',
    '  --counters FILE  traffic counters, CSV or JSON lines (counter_id, lon, lat, road_id, aadt, ...)',
    '  --loggers FILE   noise loggers, CSV or JSON lines (logger_id, lon, lat, state, lden_db, ...)',
    '  --anef FILE      ANEF contours GeoJSON (anef_min, anef_max, airport, source)',
    '  --lon X --lat Y  the subject, degrees',
    '  --cells N        surface nodes per side: 5 (500 m), 7 (375 m, default) or 9 (300 m)',
    '  --state CODE     state for measured_validation (default: that of the nearest logger)',
    '  --compact        one-line JSON',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseFlags(joinNegativeValues(args), FLAGS);
    const files = noiseFilesFromFlags(values);
    if (values.lon === undefined || values.lat === undefined) throw new UsageError('--lon and --lat are required');
    const lon = numberFlag('lon', values.lon, NaN, { min: -180, max: 180 });
    const lat = numberFlag('lat', values.lat, NaN, { min: -90, max: 90 });
    const cells = numberFlag('cells', values.cells, 7);
    const network = await loadNoiseNetworkFiles(files);
    const surface = noiseSurface(network, lon, lat, { cells });
    const score = noiseScore(network, lon, lat, values.state ? { state: values.state } : {});
    io.stdout(`${JSON.stringify({ score, surface }, null, values.compact ? 0 : 2)}\n`);
    return EXIT_OK;
  },
};

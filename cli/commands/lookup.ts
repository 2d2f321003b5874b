/**
 * `propintel lookup`: the property payload for one address or point, printed as JSON: exactly what
 * GET /api/v1/property returns (without `usage`). Every query parameter is a flag, dashes for underscores.
 * Without a key the CLI acts with a full, geometry-licensed licence.
 */
import { resolve } from 'node:path';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/index.js';
import type { PropertyOptions, PropertySubject, SurfaceLayer } from '../../engine/entry/property.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';
import { parseFlags, pointFlags, POINT_FLAGS } from '../args.js';

const FLAGS = {
  data: { type: 'string' },
  ...POINT_FLAGS,
  components: { type: 'string' },
  'school-radius-m': { type: 'string' },
  'include-geometry': { type: 'boolean' },
  'include-surfaces': { type: 'boolean' },
  surfaces: { type: 'string' },
  'noise-cells': { type: 'string' },
  'contour-interval-m': { type: 'string' },
  'include-nearby-zones': { type: 'boolean' },
  'nearby-zone-radius-m': { type: 'string' },
  core: { type: 'boolean' },
  compact: { type: 'boolean' },
} as const;


function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got ${JSON.stringify(v)}`);
  return n;
}

/** The `lookup` subcommand. */
export const lookupCommand: Command = {
  name: 'lookup',
  summary: 'the property payload for one address or point, as JSON',
  usage: [
    'propintel lookup [--data DIR] "ADDRESS" | --lon X --lat Y  [options]',
    '',
    'Prints the payload of GET /api/v1/property (or /core with --core) as JSON.',
    '',
    `  --data DIR                 dataset directory (default: the sample world in ${defaultDataDir()})`,
    '  --lon X --lat Y            a point instead of an address (--lng is accepted for --lon)',
    '  --components LIST          blocks and dotted selectors, e.g. scores.noise,das',
    '  --school-radius-m N        100-5000 (default 500)',
    '  --include-geometry         clipped GeoJSON for layers and the parcel boundary',
    '  --include-surfaces         the noise, heat and contour surfaces',
    '  --surfaces LIST            subset of noise,heat,contours',
    '  --noise-cells N            5, 7 (default) or 9',
    '  --contour-interval-m M     above 0, up to 200 (default 5, widened over steep relief)',
    '  --include-nearby-zones     adds planning.zones_nearby',
    '  --nearby-zone-radius-m N   50-2000 (default 200)',
    '  --core                     the score-free core variant',
    '  --compact                  one-line JSON',
  ].join('\n'),
  async run(args, io) {
    const { values, positionals } = parseFlags(args, FLAGS, true);
    const point = pointFlags(values);
    let subject: PropertySubject;
    if (positionals.length > 1) throw new UsageError('pass the address as one quoted argument');
    if (positionals.length === 1) {
      if (point) throw new UsageError('pass either an address or --lon and --lat, not both');
      subject = { address: positionals[0] };
    } else {
      if (!point) throw new UsageError('pass an address, or both --lon and --lat');
      subject = { lat: point.lat, lng: point.lon };
    }
    const options: PropertyOptions = {
      components: values.components?.split(',').map((s) => s.trim()).filter(Boolean),
      school_radius_m: num('school-radius-m', values['school-radius-m']),
      include_geometry: values['include-geometry'],
      include_surfaces: values['include-surfaces'],
      surfaces: values.surfaces?.split(',').map((s) => s.trim()) as SurfaceLayer[] | undefined,
      noise_cells: num('noise-cells', values['noise-cells']) as 5 | 7 | 9 | undefined,
      contour_interval_m: num('contour-interval-m', values['contour-interval-m']),
      include_nearby_zones: values['include-nearby-zones'],
      nearby_zone_radius_m: num('nearby-zone-radius-m', values['nearby-zone-radius-m']),
      variant: values.core ? 'core' : 'full',
    };
    const dir = resolve(values.data ?? defaultDataDir());
    if (!values.data) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
    const engine = await createEngine({ datasets: dir });
    try {
      const result = await engine.property(subject, options);
      io.stdout(`${JSON.stringify(result.payload, null, values.compact ? undefined : 2)}\n`);
    } finally {
      await engine.close();
    }
    return EXIT_OK;
  },
};

import { unpackContours, computeContours, NO_LIMITS } from '../../engine/entry/contours.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';
import { numberFlag, parseFlags, POINT_FLAGS, requirePointFlags } from '../args.js';

/** `propintel contours`: the contours layer of spec 2.7 for any GeoTIFF DEM, printed as JSON. */
export const contoursCommand: Command = {
  name: 'contours',
  summary: 'contour lines around a point from any GeoTIFF DEM, as GeoJSON',
  usage: [
    'propintel contours --dem FILE.tif --lon X --lat Y [--interval M] [--half-width M] [--floor M] [--crs CODE] [--unlimited]',
    '',
    'Traces the contours of the square window around (X, Y) on a GeoTIFF DEM, as gdal_contour would, and',
    'prints the surfaces.contours layer as JSON: interval_m, interval_source, levels, truncated, coverage',
    'and the lines as a GeoJSON FeatureCollection (lon/lat, an "elevation" property, high ground on the right).',
    '',
    '  --dem FILE       GeoTIFF or COG of elevations in metres, in any CRS propintel supports',
    '  --lon X --lat Y  the subject, degrees (GDA2020 / WGS84; --lng is accepted for --lon)',
    '  --interval M     contour_interval_m: above 0, at most 200 (default 5, widened over steep relief)',
    '  --half-width M   half the side of the window, metres (default 1500)',
    '  --floor M        the finest interval the DEM supports, metres (default 1, the national model\'s)',
    '  --crs CODE       the DEM\'s CRS (e.g. EPSG:7855) when the file declares none',
    '  --unlimited      every line at exactly the interval asked: no 1,200-line cap, no size limits, no',
    '                   widening for too many levels (what gdal_contour gives)',
    '',
    'An address outside the DEM prints the layer with "available": false and its reason.',
  ].join('\n'),
  async run(args, io) {
    const { values } = parseFlags(args, {
      dem: { type: 'string' },
      ...POINT_FLAGS,
      interval: { type: 'string' },
      'half-width': { type: 'string' },
      floor: { type: 'string' },
      crs: { type: 'string' },
      unlimited: { type: 'boolean' },
    });
    if (!values.dem) throw new UsageError('--dem FILE is required');
    const { lon, lat } = requirePointFlags(values);
    const halfWidth = numberFlag('half-width', values['half-width'], 1500, { min: 1, max: 50_000 });
    const floor = numberFlag('floor', values.floor, 1, { min: 0.01, max: 200 });
    // The engine validates the interval, so a bad one is reported as contour_interval_m, as the API does.
    const interval = values.interval === undefined ? undefined : values.interval.trim() === '' ? NaN : Number(values.interval);
    const packed = await computeContours({
      lon,
      lat,
      interval,
      halfWidth,
      limits: values.unlimited ? NO_LIMITS : undefined,
      sources: { dem: { kind: 'dem', id: 'cli_dem', name: values.dem, path: values.dem, crs: values.crs, floor_m: floor } },
    });
    io.stdout(`${JSON.stringify(unpackContours(packed))}\n`);
    if (!packed.available) io.stderr(`propintel contours: ${packed.note}\n`);
    return EXIT_OK;
  },
};

/** `propintel hand`: HAND (height above nearest drainage) for a whole DEM, written as GeoTIFF. */
import { performance } from 'node:perf_hooks';
import { rasterizeLines, DEFAULT_CHANNEL_THRESHOLD_KM2, computeHand, lineSetFromFeatures, projectLineSet } from '../../engine/entry/hydro.js';
import { writeGeoTiff } from '../../engine/entry/raster.js';
import { openRaster, readGeoJsonLayer } from '../../engine/entry/geo.js';
import { numberFlag, parseFlags } from '../args.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';

const USAGE = `propintel hand --dem FILE.tif --out HAND.tif [options]

Computes HAND, the height above the nearest drainage (Renno et al. 2008; Nobre et al. 2011), for every
cell of a DEM: Priority-Flood+epsilon depression filling, D8 flow directions, flow accumulation, channels
where the contributing area reaches the threshold, then each cell's height above the channel cell its
flow path reaches first. Writes a Float32 GeoTIFF in the DEM's CRS (metres; no-data NaN where a cell's
flow path leaves the DEM before reaching a channel), which QGIS and GDAL open directly.

Options:
  --dem FILE.tif         input DEM: GeoTIFF, elevation in metres (any CRS the engine reads)
  --out FILE.tif         output HAND raster
  --threshold-km2 A      channel-initiation area in km2 (default ${DEFAULT_CHANNEL_THRESHOLD_KM2}, for 5 m LiDAR;
                         use larger values for coarser DEMs such as 30 m SRTM)
  --channels FILE.tif    also write the channel mask (Uint8: 1 channel, 0 not, 255 no-data)
  --burn FILE.geojson    mapped watercourses (LineStrings) to burn into the DEM first
  --burn-depth M         burn depth in metres (default 5)`;

export const handCommand: Command = {
  name: 'hand',
  summary: 'compute HAND (height above nearest drainage) for a DEM GeoTIFF',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseFlags(args, {
      dem: { type: 'string' },
      out: { type: 'string' },
      'threshold-km2': { type: 'string' },
      channels: { type: 'string' },
      burn: { type: 'string' },
      'burn-depth': { type: 'string' },
    });
    if (!values.dem) throw new UsageError('--dem is required');
    if (!values.out) throw new UsageError('--out is required');
    const thresholdKm2 = numberFlag('threshold-km2', values['threshold-km2'], DEFAULT_CHANNEL_THRESHOLD_KM2, { min: 1e-9 });
    const burnDepth = numberFlag('burn-depth', values['burn-depth'], 5, { min: 0 });

    const t0 = performance.now();
    const raster = await openRaster(values.dem);
    let dem;
    try {
      dem = await raster.readPixels([0, 0, raster.info.width, raster.info.height]);
    } finally {
      await raster.close();
    }
    let burnMask: Uint8Array | null = null;
    if (values.burn) {
      const layer = await readGeoJsonLayer(values.burn);
      burnMask = rasterizeLines(dem, projectLineSet(lineSetFromFeatures(layer.features), dem.crs));
    }
    const t1 = performance.now();
    const r = computeHand(dem, { thresholdKm2, burnMask, burnDepth });
    const t2 = performance.now();
    await writeGeoTiff(values.out, r.hand);
    if (values.channels) {
      const mask = Uint8Array.from(r.channels.data);
      for (let i = 0; i < mask.length; i++) if (dem.data[i] !== dem.data[i]) mask[i] = 255;
      await writeGeoTiff(values.channels, { ...r.channels, data: mask, noData: 255 });
    }
    const t3 = performance.now();
    const cells = dem.width * dem.height;
    let channelCells = 0;
    for (const v of r.channels.data) channelCells += v;
    const computeMs = t2 - t1;
    io.stdout(
      [
        `HAND for ${values.dem}: ${dem.width} x ${dem.height} cells of ${r.cellSize.x.toFixed(2)} x ${r.cellSize.y.toFixed(2)} m (${dem.crs})`,
        `channels: threshold ${thresholdKm2} km2 (${r.thresholdCells} cells), ${channelCells} channel cells${r.burned ? ', mapped watercourses burned in' : ''}`,
        `cells draining off the DEM before a channel: ${r.unresolvedCells} (${((100 * r.unresolvedCells) / cells).toFixed(2)} %, no-data in the output)`,
        `computed in ${computeMs.toFixed(0)} ms (${(cells / computeMs / 1e3).toFixed(2)} M cells/s); read ${(t1 - t0).toFixed(0)} ms, write ${(t3 - t2).toFixed(0)} ms`,
        `wrote ${values.out}${values.channels ? ` and ${values.channels}` : ''}`,
        '',
      ].join('\n'),
    );
    return EXIT_OK;
  },
};

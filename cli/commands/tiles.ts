/**
 * `propintel tiles export`: the engine's vector tiles of a box and zoom range written to an MBTiles file that
 * any tile server (or `pmtiles convert`, for a static host) reads.
 */
import { resolve } from 'node:path';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/index.js';
import { checkExport, exportMbtiles, CONTOUR_LAYER, HAND_LAYER, NOISE_LAYER, VECTOR_TILE_LAYERS } from '../../engine/entry/tiles.js';

/** Every layer the engine can make (HAND only when the engine keeps HAND tiles, as it does by default). */
const ALL_TILE_LAYERS = [...VECTOR_TILE_LAYERS, CONTOUR_LAYER, NOISE_LAYER, HAND_LAYER];
import { parseFlags } from '../args.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';

export const tilesCommand: Command = {
  name: 'tiles',
  summary: 'export vector tiles of a box and zoom range to an MBTiles file',
  usage: [
    'propintel tiles export --layer L[,L...] --bbox W,S,E,N --zooms Z1-Z2 --out FILE.mbtiles [--force] [--data DIR]',
    '',
    'Writes the tiles of every layer named (das, zones, overlays, flood, bushfire, schools, parcels, roads,',
    'water, contours, noise, hand) to an MBTiles 1.3 file: gzipped MVT in the TMS row order; several layers',
    'share each tile. Each layer is written over the zooms it is made at within Z1-Z2, and the zooms skipped',
    'are said (a layer with none of them is refused). The metadata is the file\'s: minzoom and maxzoom the',
    'zooms holding tiles, vector_layers each layer\'s zooms with features, bounds the tiles within the box.',
    'Empty tiles are left out. At most 200,000 tiles; an existing file is replaced only with --force.',
    '',
    `  --data DIR   dataset directory (default: the sample world in ${defaultDataDir()}, generated when absent)`,
  ].join('\n'),
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { layer: { type: 'string' }, bbox: { type: 'string' }, zooms: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' }, data: { type: 'string' } }, true);
    if (positionals[0] !== 'export' || positionals.length > 1) throw new UsageError(positionals[0] ? `unknown subcommand ${JSON.stringify(positionals.join(' '))}; use export` : 'say what to do: export');
    if (!values.layer) throw new UsageError('export needs --layer (e.g. --layer contours or --layer das,roads)');
    if (!values.out) throw new UsageError('export needs --out FILE.mbtiles');
    const bbox = (values.bbox ?? '').split(',').map(Number);
    if (bbox.length !== 4 || !bbox.every(Number.isFinite)) throw new UsageError('--bbox must be four numbers: west,south,east,north (degrees)');
    const m = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(values.zooms ?? '');
    if (!m) throw new UsageError('--zooms must be a zoom or a range like 12-16');
    const minzoom = Number(m[1]), maxzoom = Number(m[2] ?? m[1]);
    if (minzoom > maxzoom) throw new UsageError('--zooms: the first zoom must not be above the second');
    const out = resolve(values.out);
    const options = { layers: values.layer.split(',').map((s) => s.trim()).filter(Boolean), bbox: bbox as [number, number, number, number], minzoom, maxzoom, out, force: !!values.force, onProgress: (line: string) => io.stderr(`${line}\n`) };
    // Everything the flags can get wrong is found before the dataset is opened.
    checkExport(ALL_TILE_LAYERS, options);
    const dir = resolve(values.data ?? defaultDataDir());
    if (!values.data) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
    const engine = await createEngine({ datasets: dir });
    try {
      const r = await exportMbtiles(engine, options);
      io.stdout(`${out}: ${r.written} tiles (${(r.bytes / 1024).toFixed(0)} KB of gzipped MVT), ${r.empty} empty left out\n`);
      for (const l of r.layers) io.stdout(`  ${l.id}: ${l.minzoom === null ? 'no features in the box' : l.minzoom === l.maxzoom ? `z${l.minzoom}` : `z${l.minzoom}-${l.maxzoom}`}\n`);
      for (const line of r.skipped) io.stdout(`  skipped ${line}\n`);
    } finally {
      await engine.close();
    }
    return EXIT_OK;
  },
};

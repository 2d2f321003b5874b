/** `propintel catalogue`: start, extend, check and describe a dataset directory's catalogue.json. */
import { resolve } from 'node:path';
import { addSource, CatalogueToolError, checkCatalogue, describeCatalogue, initCatalogue } from '../../engine/entry/data.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command } from '../command.js';
import { parseFlags } from '../args.js';

const USAGE = [
  'propintel catalogue init DIR [--name NAME]',
  'propintel catalogue add DIR --file F --id ID --paths a,b --coverage partial|complete --licence L --attribution A',
  '                        [--state VIC] [--schema S] [--crs EPSG:N] [--title T] [--custodian C] [--format F]',
  '                        [--table T (a GeoPackage\'s feature table)] [--layer roads (an OSM file\'s road ways)]',
  '                        [--no-geometry-redistribution]',
  'propintel catalogue check DIR',
  'propintel catalogue show DIR',
  '',
  'init    starts DIR with an empty catalogue.json.',
  'add     adds one source for one file: the file is copied into DIR (under the state\'s folder) unless it is',
  '        there already; its format (from the name) and CRS (GeoTIFF GeoKeys, a GeoJSON crs member, else',
  '        lon/lat) are detected and printed; the source is validated and the file loaded exactly as the',
  '        engine will load it before the catalogue changes. Any problem: nothing is written, exit 1.',
  '        --paths are payload paths (planning.zone, hazards.flood, transport.pt_stop, ...);',
  '        Formats: GeoJSON, Shapefile (.shp with its .dbf, .prj, .cpg), GeoPackage (.gpkg), CSV, JSON lines,',
  '        GeoTIFF, a G-NAF Standard folder (with --state and --paths resolved.address), OSM XML or PBF',
  '        (.osm, .osm.pbf), a vector tile directory.',
  '        --schema names the publisher schema the properties are read with (e.g. vicmap_planning_zone).',
  'check   every problem of the catalogue at once, in the loader\'s words; exit 1 when there is any.',
  'show    the sources by state and payload path, with their coverage.',
].join('\n');

export const catalogueCommand: Command = {
  name: 'catalogue',
  summary: 'start, add sources to, check and show a dataset catalogue',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      {
        name: { type: 'string' },
        file: { type: 'string' },
        id: { type: 'string' },
        paths: { type: 'string' },
        state: { type: 'string' },
        coverage: { type: 'string' },
        schema: { type: 'string' },
        licence: { type: 'string' },
        attribution: { type: 'string' },
        crs: { type: 'string' },
        title: { type: 'string' },
        custodian: { type: 'string' },
        format: { type: 'string' },
        table: { type: 'string' },
        layer: { type: 'string' },
        'no-geometry-redistribution': { type: 'boolean' },
      },
      true,
    );
    const [action, dirArg, ...rest] = positionals;
    if (!action) throw new UsageError('name an action: init, add, check or show');
    if (!dirArg) throw new UsageError(`catalogue ${action} takes the dataset directory`);
    if (rest.length) throw new UsageError(`unexpected argument(s): ${rest.join(' ')}`);
    const dir = resolve(dirArg);
    const addOnly = ['file', 'id', 'paths', 'state', 'coverage', 'schema', 'licence', 'attribution', 'crs', 'title', 'custodian', 'format', 'table', 'layer', 'no-geometry-redistribution'] as const;
    if (action !== 'add') {
      const stray = addOnly.filter((f) => values[f] !== undefined);
      if (stray.length) throw new UsageError(`--${stray[0]} applies to catalogue add only`);
    }
    try {
      switch (action) {
        case 'init':
          io.stdout(`propintel catalogue: started ${initCatalogue(dir, values.name)}\n`);
          return EXIT_OK;
        case 'add': {
          const need = (['file', 'id', 'paths', 'coverage', 'licence', 'attribution'] as const).filter((f) => !values[f]);
          if (need.length) throw new UsageError(`catalogue add needs ${need.map((f) => `--${f}`).join(', ')}`);
          const r = await addSource(dir, {
            file: values.file!, id: values.id!, paths: values.paths!.split(',').map((p) => p.trim()).filter(Boolean), state: values.state, coverage: values.coverage!,
            licence: values.licence!, attribution: values.attribution!, schema: values.schema, crs: values.crs, title: values.title, custodian: values.custodian, format: values.format, table: values.table, layer: values.layer,
            geometryRedistribution: values['no-geometry-redistribution'] ? false : undefined,
          });
          io.stdout(`propintel catalogue: added ${r.source.id} (${r.source.paths.join(', ')})\n  file: ${r.copiedTo}\n  format: ${r.format}\n  CRS: ${r.crs} (${r.crsHow})\n  loads as the engine will load it\n${r.warnings.map((w) => `  note: ${w}\n`).join('')}`);
          return EXIT_OK;
        }
        case 'check': {
          const warnings: string[] = [];
          const problems = await checkCatalogue(dir, warnings);
          for (const w of warnings) io.stdout(`  note: ${w}\n`);
          if (!problems.length) {
            io.stdout(`propintel catalogue: ${dir}: every source loads\n`);
            return EXIT_OK;
          }
          io.stderr(`propintel catalogue: ${dir}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
          return EXIT_FAILURE;
        }
        case 'show':
          io.stdout(`${describeCatalogue(dir).join('\n')}\n`);
          return EXIT_OK;
        default:
          throw new UsageError(`unknown action ${JSON.stringify(action)}; use init, add, check or show`);
      }
    } catch (err) {
      if (err instanceof CatalogueToolError) {
        io.stderr(`propintel catalogue: ${err.message}\n`);
        return EXIT_FAILURE;
      }
      throw err;
    }
  },
};

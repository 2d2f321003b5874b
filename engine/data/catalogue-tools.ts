/**
 * Writing and checking catalogues by command (`propintel catalogue init | add | check | show`): a source is
 * added only when it loads exactly as the engine will load it, and a check lists every problem of a
 * catalogue at once, in the loader's own words.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { sourceFileProblems } from './dataset-store.js';
import { isEngineError } from '../errors.js';
import { normaliseCrs, isSupportedCrs } from '../geo/crs.js';
import { openRaster } from '../raster/geotiff-reader.js';
import { crsOfPrj } from '../vector/shapefile-reader.js';
import { geoPackageTables } from '../vector/geopackage-reader.js';
import { CATALOGUE_VERSION, type CatalogueSource, type CoverageExtent, type SourceFormat } from '../catalogue/catalogue.js';
import type { CatalogueProblem } from '../catalogue/catalogue-error.js';
import { CATALOGUE_FILE, geojsonDeclaredCrs, validateCatalogue } from '../catalogue/load-catalogue.js';
import { PAYLOAD_PATHS, type PayloadPath } from '../catalogue/payload-paths.js';
import { STATES, type StateCode } from '../catalogue/states.js';

/** A problem found by a tool, as one line (`source: field: message`, or the loader's message). */
export class CatalogueToolError extends Error {
  constructor(message: string, readonly problems: string[]) {
    super(problems.length ? `${message}:\n${problems.map((p) => `  - ${p}`).join('\n')}` : message);
  }
}

const problemLines = (err: unknown): string[] => {
  if (isEngineError(err) && Array.isArray(err.details.problems)) {
    return (err.details.problems as (CatalogueProblem | string)[]).map((p) => (typeof p === 'string' ? p.replace(/^\s*-\s*/, '') : `${p.source}: ${p.field}: ${p.message}`));
  }
  return [(err as Error).message];
};

/** A file's format, from its name (a directory is a tile pyramid). */
export function detectFormat(path: string): SourceFormat | null {
  if (existsSync(path) && statSync(path).isDirectory()) {
    // A G-NAF Standard folder (STATE_ADDRESS_DETAIL_psv.psv, ...) or a tile pyramid.
    return readdirSync(path).some((n) => /_ADDRESS_DETAIL_psv\.psv$/i.test(n)) ? 'gnaf' : 'mvt';
  }
  const ext = extname(path).toLowerCase();
  if (ext === '.geojson' || ext === '.json') return 'geojson';
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.tif' || ext === '.tiff') return 'geotiff';
  if (ext === '.shp') return 'shapefile';
  if (ext === '.gpkg') return 'geopackage';
  if (ext === '.osm' || ext === '.pbf') return 'osm';
  return null;
}

/**
 * The CRS a file declares: a GeoTIFF's GeoKeys, a GeoJSON `crs` member (else RFC 7946's lon/lat), lon/lat
 * for CSV and JSON lines coordinates and for vector tiles decoded to lon/lat.
 */
export async function detectCrs(path: string, format: SourceFormat, table?: string): Promise<{ crs: string; how: string }> {
  if (format === 'geopackage') {
    const tables = geoPackageTables(path);
    const t = table ? tables.find((x) => x.table === table) : tables.length === 1 ? tables[0] : undefined;
    if (!t) throw new Error(table ? `${basename(path)} has no feature table ${JSON.stringify(table)}; it holds ${tables.map((x) => x.table).join(', ') || 'none'}` : `${basename(path)} holds ${tables.length} feature tables (${tables.map((x) => x.table).join(', ')}): name one with --table`);
    return t.crs ? { crs: t.crs, how: `table ${t.table}'s spatial reference` } : { crs: '', how: `table ${t.table}'s spatial reference (${t.srsName ?? 'undefined'}), not an EPSG one` };
  }
  if (format === 'geotiff') {
    const r = await openRaster(path);
    await r.close();
    return { crs: r.info.crs, how: 'GeoTIFF GeoKeys' };
  }
  if (format === 'shapefile') {
    const prj = ['.prj', '.PRJ'].map((e) => path.replace(/\.shp$/i, e)).find((p) => existsSync(p));
    if (!prj) return { crs: '', how: 'no .prj' };
    const crs = crsOfPrj(readFileSync(prj, 'utf8'));
    return crs ? { crs, how: 'the .prj' } : { crs: '', how: 'a .prj this reader does not recognise' };
  }
  if (format === 'geojson') {
    const own = await geojsonDeclaredCrs(path);
    const n = own ? normaliseCrs(own) : null;
    return n ? { crs: n, how: 'the file\'s crs member' } : { crs: 'EPSG:4326', how: 'no crs member: GeoJSON is lon/lat (RFC 7946)' };
  }
  const how = format === 'mvt' ? 'vector tiles decode to lon/lat' : format === 'gnaf' ? 'G-NAF longitude and latitude (GDA2020 or GDA94 as downloaded)' : format === 'osm' ? 'OpenStreetMap coordinates are WGS 84' : 'lon/lat coordinate columns';
  return { crs: format === 'gnaf' ? 'EPSG:7844' : 'EPSG:4326', how };
}

/** Creates `dir` with an empty catalogue (no sources yet); refuses when one exists. */
export function initCatalogue(dir: string, name = basename(resolve(dir))): string {
  const file = join(dir, CATALOGUE_FILE);
  if (existsSync(file)) throw new CatalogueToolError(`${file} exists already; add sources to it with \`propintel catalogue add\``, []);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${JSON.stringify({ catalogue_version: CATALOGUE_VERSION, name, sources: [] }, null, 2)}\n`);
  return file;
}

/** What {@link addSource} is told. */
export interface AddSourceSpec {
  file: string;
  id: string;
  paths: string[];
  state?: string;
  coverage: string;
  licence: string;
  attribution: string;
  schema?: string;
  crs?: string;
  title?: string;
  custodian?: string;
  format?: string;
  /** GeoPackage: the feature table. */
  table?: string;
  /** The file entry's layer (an OSM file's `roads`). */
  layer?: string;
  geometryRedistribution?: boolean;
  obligation?: CatalogueSource['obligation_status'];
  now?: Date;
}

function readDoc(dir: string): Record<string, unknown> {
  const file = join(dir, CATALOGUE_FILE);
  if (!existsSync(file)) throw new CatalogueToolError(`no catalogue in ${dir}; start one with \`propintel catalogue init ${dir}\``, []);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new CatalogueToolError(`${file} is not valid JSON (${(err as Error).message})`, []);
  }
}

/**
 * Adds a source for one file: the file is copied into the dataset directory (under the state's folder)
 * unless it is already inside it, its format and CRS are detected, and the source is validated and its
 * file loaded exactly as the engine will, before anything is written. Returns the source and what was
 * detected.
 */
export async function addSource(dir: string, spec: AddSourceSpec): Promise<{ source: CatalogueSource; format: SourceFormat; crs: string; crsHow: string; copiedTo: string; warnings: string[] }> {
  const root = resolve(dir);
  const doc = readDoc(root);
  const problems: string[] = [];
  const src = resolve(spec.file);
  if (!existsSync(src)) throw new CatalogueToolError(`cannot add ${spec.file}`, [`--file: file not found: ${spec.file}`]);
  const format = (spec.format as SourceFormat | undefined) ?? detectFormat(src);
  if (!format) throw new CatalogueToolError(`cannot add ${spec.file}`, [`--file: cannot tell the format of ${basename(src)} from its name (GeoJSON, Shapefile, GeoPackage, OSM XML or PBF, CSV, JSON lines, GeoTIFF, a G-NAF Standard folder or a tile directory); name it with --format`]);
  const state = spec.state?.toUpperCase();
  if (state && !(STATES as readonly string[]).includes(state)) problems.push(`--state: unknown state ${JSON.stringify(spec.state)}; one of ${STATES.join(', ')}`);
  if (spec.coverage !== 'partial' && spec.coverage !== 'complete') problems.push(`--coverage: must be partial or complete, got ${JSON.stringify(spec.coverage)}`);
  const unknownPaths = spec.paths.filter((p) => !(PAYLOAD_PATHS as readonly string[]).includes(p));
  if (unknownPaths.length) problems.push(`--paths: unknown payload path(s) ${unknownPaths.join(', ')} (see engine/catalogue/payload-paths.ts)`);
  if (!spec.paths.length) problems.push('--paths: name at least one payload path');
  const sources = (Array.isArray(doc.sources) ? doc.sources : []) as CatalogueSource[];
  if (sources.some((s) => s.id === spec.id)) problems.push(`--id: a source ${spec.id} exists already`);
  let detected: { crs: string; how: string };
  try {
    detected = await detectCrs(src, format, spec.table);
  } catch (err) {
    throw new CatalogueToolError(`cannot add ${spec.file}`, [...problems, `--file: ${(err as Error).message}`]);
  }
  const declared = spec.crs ? normaliseCrs(spec.crs) : null;
  if (spec.crs && (!declared || !isSupportedCrs(declared))) problems.push(`--crs: unsupported CRS ${JSON.stringify(spec.crs)}`);
  else if (!declared && (format === 'shapefile' || format === 'geopackage') && !detected.crs) problems.push(`--crs: ${basename(src)} has ${detected.how}: say which CRS its coordinates are in with --crs EPSG:N`);
  else if (declared && detected.crs && detected.how !== 'no crs member: GeoJSON is lon/lat (RFC 7946)' && declared !== detected.crs && format !== 'csv' && format !== 'jsonl') {
    problems.push(`--crs: declared ${declared} but ${basename(src)} says ${detected.crs} (${detected.how})`);
  }
  if (problems.length) throw new CatalogueToolError(`cannot add ${spec.file}`, problems);
  const inside = src.startsWith(`${root}${sep}`);
  const rel = inside ? relative(root, src) : join(state ? state.toLowerCase() : 'national', basename(src));
  const now = spec.now ?? new Date();
  const source: CatalogueSource = {
    id: spec.id,
    title: spec.title ?? spec.id.replace(/_/g, ' '),
    paths: spec.paths as PayloadPath[],
    coverage: state ? { [state]: spec.coverage as CoverageExtent } : Object.fromEntries(STATES.map((s) => [s, spec.coverage as CoverageExtent])),
    custodian: spec.custodian ?? spec.attribution,
    licence: spec.licence,
    attribution: spec.attribution,
    obligation_status: spec.obligation ?? (/^CC0|public domain/i.test(spec.licence) ? 'none' : /ODbL/i.test(spec.licence) ? 'share_alike' : 'attribution_required'),
    geometry_redistribution: spec.geometryRedistribution ?? true,
    currency: { last_fetched_at: now.toISOString().replace(/\.\d{3}Z$/, 'Z'), established: 'added with propintel catalogue add', repull: 'by hand' },
    format,
    files: [{ path: rel.split(sep).join('/'), ...(state ? { state: state as StateCode } : {}), ...(declared ?? (format === 'geotiff' || format === 'shapefile' || format === 'geopackage' ? detected.crs || null : null) ? { crs: declared ?? detected.crs } : {}), ...(spec.table ? { table: spec.table } : {}), ...(spec.layer ? { layer: spec.layer } : {}) }],
    ...(spec.schema ? { schema: spec.schema } : {}),
  };
  // Copy first (the check reads the file where the catalogue will name it), and remove it again on failure.
  const target = join(root, rel);
  const copied = !inside && !existsSync(target);
  if (format === 'gnaf' && !state) throw new CatalogueToolError(`cannot add ${spec.file}`, ['--state: a G-NAF folder is read one state at a time: name it with --state']);
  if (!inside) {
    if (existsSync(target)) throw new CatalogueToolError(`cannot add ${spec.file}`, [`--file: ${rel} exists already in ${root}`]);
    mkdirSync(join(target, '..'), { recursive: true });
    if (statSync(src).isDirectory()) cpSync(src, target, { recursive: true });
    else copyFileSync(src, target);
    // A Shapefile is several files: its index, attributes, projection and code page go along.
    if (format === 'shapefile') {
      for (const ext of ['.shx', '.dbf', '.prj', '.cpg']) {
        const side = src.replace(/\.shp$/i, ext);
        if (existsSync(side)) copyFileSync(side, target.replace(/\.shp$/i, ext));
      }
    }
  }
  const fail = async (lines: string[]): Promise<never> => {
    if (copied) (await import('node:fs')).rmSync(target, { force: true, recursive: true });
    throw new CatalogueToolError(`not added: ${spec.id} would not load`, lines);
  };
  try {
    await validateCatalogue({ catalogue_version: CATALOGUE_VERSION, name: 'check', sources: [source] }, root);
  } catch (err) {
    await fail(problemLines(err));
  }
  const warnings: string[] = [];
  const loadProblems = await sourceFileProblems(root, source, warnings);
  if (loadProblems.length) await fail(loadProblems);
  doc.sources = [...sources, source];
  writeFileSync(join(root, CATALOGUE_FILE), `${JSON.stringify(doc, null, 2)}\n`);
  return { source, format, crs: declared ?? detected.crs, crsHow: declared ? 'declared with --crs' : detected.how, copiedTo: rel, warnings };
}

/**
 * Every problem of a catalogue at once: the catalogue's own (fields, paths, states, missing files, CRS), and
 * then, for each source that is valid on its own, what loading its files raises, in the loader's words.
 */
export async function checkCatalogue(dir: string, warnings?: string[]): Promise<string[]> {
  const root = resolve(dir);
  const doc = readDoc(root);
  const problems: string[] = [];
  try {
    await validateCatalogue(doc, root);
  } catch (err) {
    problems.push(...problemLines(err));
  }
  const sources = Array.isArray(doc.sources) ? (doc.sources as CatalogueSource[]) : [];
  for (const s of sources) {
    try {
      await validateCatalogue({ catalogue_version: CATALOGUE_VERSION, name: 'check', sources: [s] }, root);
    } catch {
      continue; // already reported above
    }
    problems.push(...(await sourceFileProblems(root, s, warnings)));
  }
  return problems;
}

/** The sources by state and payload path, with coverage, as lines. */
export function describeCatalogue(dir: string): string[] {
  const doc = readDoc(resolve(dir));
  const sources = Array.isArray(doc.sources) ? (doc.sources as CatalogueSource[]) : [];
  const lines = [`${doc.name ?? '(unnamed)'}: ${sources.length} source${sources.length === 1 ? '' : 's'}`];
  const byState = new Map<string, Map<string, string[]>>();
  for (const s of sources) {
    for (const [st, extent] of Object.entries(s.coverage ?? {})) {
      let paths = byState.get(st);
      if (!paths) byState.set(st, (paths = new Map()));
      for (const p of s.paths ?? []) {
        const list = paths.get(p) ?? [];
        list.push(`${s.id} (${extent})`);
        paths.set(p, list);
      }
    }
  }
  for (const st of [...byState.keys()].sort((a, b) => STATES.indexOf(a as StateCode) - STATES.indexOf(b as StateCode))) {
    lines.push(`${st}:`);
    const paths = byState.get(st)!;
    for (const p of [...paths.keys()].sort()) lines.push(`  ${p.padEnd(36)} ${paths.get(p)!.join(', ')}`);
  }
  return lines;
}

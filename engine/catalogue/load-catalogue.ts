/**
 * Loads and validates `catalogue.json`. Every problem is collected before failing, so one run tells the
 * maintainer everything that is wrong: unknown payload paths, unknown states, missing files, unsupported or
 * inconsistent CRSs, bad currency dates, duplicate ids.
 */
import { existsSync, statSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { EngineError } from '../errors.js';
import { isSupportedCrs, normaliseCrs } from '../geo/crs.js';
import { openRaster } from '../raster/geotiff-reader.js';
import { CATALOGUE_VERSION, OBLIGATION_STATUSES, SOURCE_FORMATS, type Catalogue, type CatalogueSource } from './catalogue.js';
import { catalogueError, type CatalogueProblem } from './catalogue-error.js';
import { isPayloadPath } from './payload-paths.js';
import { isStateCode } from './states.js';

/** The catalogue file name inside a dataset directory. */
export const CATALOGUE_FILE = 'catalogue.json';

const ID = /^[a-z][a-z0-9_]*$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function nonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0;
}

/** Reads the legacy GeoJSON `crs` member from the head of a file, without parsing the whole file. */
export async function geojsonDeclaredCrs(file: string): Promise<string | null> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead).toString('utf8');
    const m = /"crs"\s*:\s*\{[^{}]*"properties"\s*:\s*\{[^{}]*"name"\s*:\s*"([^"]+)"/.exec(head);
    return m ? m[1] : null;
  } finally {
    await fh.close();
  }
}

/** Validates the structure of one source entry, pushing problems; returns nothing. */
function checkSource(s: Record<string, unknown>, index: number, problems: CatalogueProblem[]): void {
  const id = nonEmptyString(s.id) ? s.id : `sources[${index}]`;
  const add = (field: string, message: string) => problems.push({ source: id, field, message });
  if (!nonEmptyString(s.id) || !ID.test(s.id)) add('id', `must be lower-case letters, digits and underscores, got ${JSON.stringify(s.id)}`);
  for (const f of ['title', 'custodian', 'licence', 'attribution'] as const) if (!nonEmptyString(s[f])) add(f, 'must be a non-empty string');
  if (!Array.isArray(s.paths) || s.paths.length === 0) add('paths', 'must list at least one payload path');
  else s.paths.forEach((p, i) => !isPayloadPath(p) && add(`paths[${i}]`, `unknown payload path ${JSON.stringify(p)}`));
  if (!isObject(s.coverage) || Object.keys(s.coverage).length === 0) add('coverage', 'must map at least one state to "complete" or "partial"');
  else {
    for (const [st, extent] of Object.entries(s.coverage)) {
      if (!isStateCode(st)) add(`coverage.${st}`, `unknown state ${JSON.stringify(st)} (states are VIC, NSW, QLD, WA, SA, TAS, ACT, NT)`);
      if (extent !== 'complete' && extent !== 'partial') add(`coverage.${st}`, `must be "complete" or "partial", got ${JSON.stringify(extent)}`);
    }
  }
  if (!(OBLIGATION_STATUSES as readonly unknown[]).includes(s.obligation_status)) add('obligation_status', `must be one of ${OBLIGATION_STATUSES.join(', ')}, got ${JSON.stringify(s.obligation_status)}`);
  if (typeof s.geometry_redistribution !== 'boolean') add('geometry_redistribution', 'must be true or false');
  if (!isObject(s.currency)) add('currency', 'must be an object with last_fetched_at, established and repull');
  else {
    const c = s.currency;
    if (!nonEmptyString(c.last_fetched_at) || Number.isNaN(Date.parse(c.last_fetched_at)) || !/^\d{4}-\d{2}-\d{2}/.test(c.last_fetched_at)) add('currency.last_fetched_at', `must be an ISO 8601 timestamp, got ${JSON.stringify(c.last_fetched_at)}`);
    if (!nonEmptyString(c.established)) add('currency.established', 'must say how the data was established');
    if (!nonEmptyString(c.repull)) add('currency.repull', 'must give the re-pull schedule');
  }
  if (!(SOURCE_FORMATS as readonly unknown[]).includes(s.format)) add('format', `must be one of ${SOURCE_FORMATS.join(', ')}, got ${JSON.stringify(s.format)}`);
  if (!Array.isArray(s.files) || s.files.length === 0) add('files', 'must list at least one file');
  else {
    s.files.forEach((f, i) => {
      if (!isObject(f) || !nonEmptyString(f.path)) return add(`files[${i}].path`, 'must be a relative file path');
      if (!wellFormedPath(f.path)) add(`files[${i}].path`, `must stay inside the dataset directory, got ${JSON.stringify(f.path)}`);
      if (f.state !== undefined) {
        if (!isStateCode(f.state)) add(`files[${i}].state`, `unknown state ${JSON.stringify(f.state)}`);
        else if (isObject(s.coverage) && !(f.state in s.coverage)) add(`files[${i}].state`, `${f.state} is not in the source's coverage`);
      }
      if (f.format !== undefined && !(SOURCE_FORMATS as readonly unknown[]).includes(f.format)) add(`files[${i}].format`, `must be one of ${SOURCE_FORMATS.join(', ')}, got ${JSON.stringify(f.format)}`);
      const isMvt = (f.format ?? s.format) === 'mvt';
      if (isMvt && !nonEmptyString(f.tile_layer)) add(`files[${i}].tile_layer`, 'must name the layer inside the vector tiles');
      if (!isMvt && f.tile_layer !== undefined) add(`files[${i}].tile_layer`, 'only applies to mvt files');
      if (f.table !== undefined && ((f.format ?? s.format) !== 'geopackage' || !nonEmptyString(f.table))) add(`files[${i}].table`, 'names a GeoPackage feature table: a non-empty string, on geopackage files only');
      if (f.zoom !== undefined && (!isMvt || !Number.isInteger(f.zoom) || (f.zoom as number) < 0 || (f.zoom as number) > 24)) {
        add(`files[${i}].zoom`, isMvt ? `must be an integer zoom 0-24, got ${JSON.stringify(f.zoom)}` : 'only applies to mvt files');
      }
      if (f.crs !== undefined) {
        const crs = typeof f.crs === 'string' || typeof f.crs === 'number' ? normaliseCrs(f.crs) : null;
        if (!crs || !isSupportedCrs(crs)) add(`files[${i}].crs`, `unsupported CRS ${JSON.stringify(f.crs)}`);
      }
    });
  }
  if (s.schema !== undefined && !nonEmptyString(s.schema)) add('schema', 'must be a non-empty string when present');
  if (s.options !== undefined && !isObject(s.options)) add('options', 'must be an object when present');
}

/** A file path that {@link checkSource} accepts: a non-empty relative path that stays inside the directory. */
function wellFormedPath(p: unknown): p is string {
  return nonEmptyString(p) && !isAbsolute(p) && !normalize(p).split(sep).includes('..');
}

/**
 * Checks that every well-formed `files[i]` exists and that its own CRS matches the declared one. Runs on a raw
 * entry whatever else is wrong with it (an unknown payload path does not hide a missing file), so one load
 * lists every problem. Malformed fields were reported by {@link checkSource}; here they are skipped: a CRS
 * only counts when supported, a format only when known.
 */
async function checkFiles(dir: string, s: Record<string, unknown>, index: number, problems: CatalogueProblem[], options: LoadCatalogueOptions): Promise<void> {
  if (!Array.isArray(s.files)) return;
  const id = nonEmptyString(s.id) ? s.id : `sources[${index}]`;
  const known = (f: unknown) => ((SOURCE_FORMATS as readonly unknown[]).includes(f) ? (f as string) : undefined);
  for (let i = 0; i < s.files.length; i++) {
    const f: unknown = s.files[i];
    if (!isObject(f) || !wellFormedPath(f.path)) continue;
    const abs = join(dir, f.path);
    if (!existsSync(abs)) {
      problems.push({ source: id, field: `files[${i}].path`, message: `file not found: ${f.path}` });
      continue;
    }
    const norm = typeof f.crs === 'string' || typeof f.crs === 'number' ? normaliseCrs(f.crs) : null;
    const declared = norm && isSupportedCrs(norm) ? norm : null;
    const format = known(f.format) ?? known(s.format);
    try {
      if (format === 'geotiff') {
        let crs = options.rasterCrs?.(f.path);
        if (crs === undefined) {
          const r = await openRaster(abs);
          await r.close();
          crs = r.info.crs;
        }
        if (declared && crs !== declared) {
          problems.push({ source: id, field: `files[${i}].crs`, message: `inconsistent CRS: declared ${declared} but ${f.path} says ${crs}` });
        }
      } else if (format === 'mvt') {
        if (!statSync(abs).isDirectory()) problems.push({ source: id, field: `files[${i}].path`, message: `an mvt file entry must be a directory of z/x/y.mvt tiles: ${f.path}` });
        else if (declared && declared !== 'EPSG:4326' && declared !== 'EPSG:3857') {
          problems.push({ source: id, field: `files[${i}].crs`, message: `inconsistent CRS: vector tiles are Web Mercator tiles decoded to lon/lat, declared ${declared}` });
        }
      } else if (format === 'geojson' && declared) {
        const inFile = await geojsonDeclaredCrs(abs);
        const own = inFile ? normaliseCrs(inFile) : null;
        if (own && own !== declared) {
          problems.push({ source: id, field: `files[${i}].crs`, message: `inconsistent CRS: declared ${declared} but ${f.path} says ${own}` });
        }
      }
    } catch (err) {
      problems.push({ source: id, field: `files[${i}].path`, message: (err as Error).message });
    }
  }
}

/** Validates a parsed catalogue document against a directory. Throws one INVALID_DATA error listing every problem. */
export async function validateCatalogue(doc: unknown, dir: string, file = join(dir, CATALOGUE_FILE), options: LoadCatalogueOptions = {}): Promise<Catalogue> {
  const problems: CatalogueProblem[] = [];
  const top = (field: string, message: string) => problems.push({ source: 'catalogue', field, message });
  if (!isObject(doc)) throw catalogueError(file, [{ source: 'catalogue', field: '(root)', message: 'must be a JSON object' }]);
  if (doc.catalogue_version !== CATALOGUE_VERSION) top('catalogue_version', `must be ${CATALOGUE_VERSION}, got ${JSON.stringify(doc.catalogue_version)}`);
  if (!nonEmptyString(doc.name)) top('name', 'must be a non-empty string');
  if (doc.sandbox !== undefined && (!nonEmptyString(doc.sandbox) || !existsSync(join(dir, doc.sandbox)))) top('sandbox', `file not found: ${JSON.stringify(doc.sandbox)}`);
  if (!Array.isArray(doc.sources) || doc.sources.length === 0) top('sources', 'must list at least one source');
  const sources = (Array.isArray(doc.sources) ? doc.sources : []) as unknown[];
  const seen = new Set<string>();
  sources.forEach((s, i) => {
    if (!isObject(s)) return problems.push({ source: `sources[${i}]`, field: '(entry)', message: 'must be an object' });
    checkSource(s, i, problems);
    if (typeof s.id === 'string') {
      if (seen.has(s.id)) problems.push({ source: s.id, field: 'id', message: 'duplicate source id' });
      seen.add(s.id);
    }
  });
  // Every source's well-formed file entries are checked, whatever else is wrong with the source.
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i];
    if (isObject(s)) await checkFiles(dir, s, i, problems, options);
  }
  if (problems.length) throw catalogueError(file, problems);
  return {
    dir,
    version: doc.catalogue_version as number,
    name: doc.name as string,
    description: typeof doc.description === 'string' ? doc.description : undefined,
    synthetic: doc.synthetic === true,
    generator: isObject(doc.generator) ? (doc.generator as Catalogue['generator']) : undefined,
    sandbox: doc.sandbox as string | undefined,
    sources: sources as CatalogueSource[],
  };
}

/** Options for {@link loadCatalogue}. */
export interface LoadCatalogueOptions {
  /**
   * The CRS of a raster by its catalogue path, when already known (the headers a current layer file keeps:
   * data/windowed-store.ts), so that the check of declared CRSs does not open every GeoTIFF (hundreds of
   * milliseconds for a few hundred DEM tiles). Undefined for a path not known: that raster is opened.
   */
  rasterCrs?: (path: string) => string | undefined;
}

/** Loads `catalogue.json` from a dataset directory and validates it and its files. */
export async function loadCatalogue(datasetDir: string, options: LoadCatalogueOptions = {}): Promise<Catalogue> {
  const dir = resolve(datasetDir);
  const file = join(dir, CATALOGUE_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new EngineError('NOT_FOUND', `${file}: no catalogue in the dataset directory ${dir}`, { file });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new EngineError('INVALID_DATA', `${file}: not valid JSON (${(err as Error).message})`, { file });
  }
  return validateCatalogue(doc, dir, file, options);
}

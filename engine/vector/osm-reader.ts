/**
 * OpenStreetMap extracts, XML (`.osm`, streamed through `saxes`) and PBF (`.osm.pbf`, streamed through
 * `osm-pbf-parser-node`), as features:
 *
 * - a tagged node is a Point;
 * - a way is a LineString, or a Polygon when it is closed and an area (`area=yes`, or a building, landuse,
 *   leisure, natural or amenity way that is not `area=no`);
 * - every feature carries its tags, `osm_type` and `osm_id`; a way tagged with a road `highway` also gets the
 *   noise model's `road_class` (motorway and trunk `motorway`; primary and secondary `arterial`; tertiary
 *   `collector`; residential, unclassified, living street, service `local`), `road_id` and `name`.
 *
 * With `layer: 'roads'` only those road ways are returned (footways, cycleways, paths and steps are not
 * roads for the noise model). Relations are not assembled (multipolygons and routes): they are counted.
 * A way whose nodes are not all in the file (an extract cut at its edge, a broken reference) is not built:
 * the others are, and the broken ones are counted and named in the layer's `warnings`.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createOSMStream } from 'osm-pbf-parser-node';
import { SaxesParser } from 'saxes';
import { EngineError } from '../errors.js';
import { layerFromFeatures, type GeoJsonLayer } from './geojson-reader.js';

/** `highway` values the noise model reads as roads, with their class. */
export const OSM_ROAD_CLASSES: Record<string, 'motorway' | 'arterial' | 'collector' | 'local'> = {
  motorway: 'motorway', motorway_link: 'motorway', trunk: 'motorway', trunk_link: 'motorway',
  primary: 'arterial', primary_link: 'arterial', secondary: 'arterial', secondary_link: 'arterial',
  tertiary: 'collector', tertiary_link: 'collector',
  residential: 'local', unclassified: 'local', living_street: 'local', service: 'local', road: 'local',
};

const AREA_KEYS = ['building', 'landuse', 'leisure', 'natural', 'amenity', 'area:highway'];

/** One element as both parsers give it. */
type Element =
  | { type: 'node'; id: number; lat: number; lon: number; tags?: Record<string, string> }
  | { type: 'way'; id: number; refs: number[]; tags?: Record<string, string> }
  | { type: 'relation'; id: number; tags?: Record<string, string> };

/** Options of {@link readOsmLayer}. */
export interface ReadOsmOptions {
  /** `roads`: only ways with a road `highway` (see the module comment); default every tagged element. */
  layer?: string;
}

/** An OSM layer: the features, and what could not be built. */
export interface OsmLayer extends GeoJsonLayer {
  warnings: string[];
}

async function* xmlElements(file: string): AsyncGenerator<Element> {
  const parser = new SaxesParser();
  const done: Element[] = [];
  let cur: (Element & { tags: Record<string, string> }) | null = null;
  let failure: Error | null = null;
  parser.on('opentag', (t) => {
    const a = t.attributes as Record<string, string>;
    if (t.name === 'node') cur = { type: 'node', id: Number(a.id), lat: Number(a.lat), lon: Number(a.lon), tags: {} };
    else if (t.name === 'way') cur = { type: 'way', id: Number(a.id), refs: [], tags: {} };
    else if (t.name === 'relation') cur = { type: 'relation', id: Number(a.id), tags: {} };
    else if (t.name === 'tag' && cur) cur.tags[a.k] = a.v;
    else if (t.name === 'nd' && cur?.type === 'way') cur.refs.push(Number(a.ref));
  });
  parser.on('closetag', (t) => {
    if (cur && t.name === cur.type) {
      done.push(cur);
      cur = null;
    }
  });
  parser.on('error', (e) => {
    failure ??= e;
  });
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    parser.write(chunk as string);
    if (failure) throw new EngineError('INVALID_DATA', `${basename(file)}: not OSM XML (${(failure as Error).message})`, { file });
    yield* done.splice(0);
  }
  parser.close();
  if (failure) throw new EngineError('INVALID_DATA', `${basename(file)}: not OSM XML (${(failure as Error).message})`, { file });
  yield* done.splice(0);
}

async function* pbfElements(file: string): AsyncGenerator<Element> {
  try {
    for await (const item of createOSMStream(file, { withTags: true, withInfo: false }) as AsyncIterable<Record<string, unknown>>) {
      if (item.type === 'node' || item.type === 'way' || item.type === 'relation') yield item as unknown as Element;
    }
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError('INVALID_DATA', `${basename(file)}: not an OSM PBF file this reader decodes (${(err as Error).message})`, { file });
  }
}

const isArea = (tags: Record<string, string>, closed: boolean) => closed && tags.area !== 'no' && (tags.area === 'yes' || AREA_KEYS.some((k) => tags[k] !== undefined && !(k === 'amenity' && tags.highway)));

/** Reads an OSM XML or PBF extract into a validated lon/lat layer (see the module comment). */
export async function readOsmLayer(file: string, options: ReadOsmOptions = {}): Promise<OsmLayer> {
  const pbf = /\.pbf$/i.test(file);
  const roadsOnly = options.layer === 'roads';
  if (options.layer !== undefined && !roadsOnly) throw new EngineError('INVALID_DATA', `${basename(file)}: an OSM file's layer is "roads" or none (every tagged element), got ${JSON.stringify(options.layer)}`, { file });
  // Node coordinates by id: ways come after the nodes they use in both formats.
  const coords = new Map<number, [number, number]>();
  const raw: unknown[] = [];
  let relations = 0;
  const broken: number[] = [];
  let brokenCount = 0;
  for await (const e of pbf ? pbfElements(file) : xmlElements(file)) {
    const tags = e.tags ?? {};
    if (e.type === 'node') {
      coords.set(e.id, [e.lon, e.lat]);
      if (!roadsOnly && Object.keys(tags).length) raw.push({ type: 'Feature', id: `node/${e.id}`, properties: { ...tags, osm_type: 'node', osm_id: e.id }, geometry: { type: 'Point', coordinates: [e.lon, e.lat] } });
    } else if (e.type === 'way') {
      const cls = tags.highway ? OSM_ROAD_CLASSES[tags.highway] : undefined;
      if (roadsOnly && !cls) continue;
      if (!Object.keys(tags).length) continue;
      const pts: [number, number][] = [];
      for (const r of e.refs) {
        const c = coords.get(r);
        if (!c) break;
        pts.push(c);
      }
      if (pts.length !== e.refs.length || pts.length < 2) {
        brokenCount++;
        if (broken.length < 10) broken.push(e.id);
        continue;
      }
      const closed = e.refs.length >= 4 && e.refs[0] === e.refs[e.refs.length - 1];
      const props: Record<string, unknown> = { ...tags, osm_type: 'way', osm_id: e.id };
      if (cls) Object.assign(props, { road_class: cls, road_id: `way/${e.id}`, name: tags.name ?? null });
      raw.push({ type: 'Feature', id: `way/${e.id}`, properties: props, geometry: !cls && isArea(tags, closed) ? { type: 'Polygon', coordinates: [pts] } : { type: 'LineString', coordinates: pts } });
    } else {
      relations++;
    }
  }
  const layer = layerFromFeatures(raw, file, 'EPSG:4326');
  const warnings: string[] = [];
  if (brokenCount) warnings.push(`${brokenCount} way(s) with nodes missing from the file not built (e.g. way ${broken.join(', way ')})`);
  if (relations && !roadsOnly) warnings.push(`${relations} relation(s) not assembled (multipolygons and routes are not read)`);
  return { ...layer, warnings };
}

/**
 * Childcare reports (issue 19): a finished PDF or HTML rendering of a site analysis, with a map drawn from the
 * dataset's own layers. A report is never a second computation: {@link prepareReport} takes the site
 * analysis `data` (what `/site-analysis` returns for the same request) and the map layers, and makes a plain
 * job ({@link ReportJob}: blocks and drawing, no functions) that {@link renderReport} turns into the file:
 * on the engine's worker pool (task `childcare-report`), or in this thread.
 */
import type { Geometry } from 'geojson';
import type { StateCode } from '../../catalogue/states.js';
import type { CatalogueSource } from '../../catalogue/catalogue.js';
import { vectorFeaturesIn, type DataStore } from '../../data/dataset-store.js';
import type { SiteRequest } from '../site.js';
import { reportBlocks, reportFilename, subjectLine, type Block, type ReportSubject } from './report-content.js';
import { reportHtml } from './report-html.js';
import { mapBox, reportMap, type DrawItem, type MapRoad } from './report-map.js';

/** The report formats. */
export const REPORT_FORMATS = ['pdf', 'html'] as const;
/** One of {@link REPORT_FORMATS}. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Everything the renderer needs, as plain data (it crosses to a worker thread). */
export interface ReportJob {
  format: ReportFormat;
  blocks: Block[];
  map: { width: number; height: number; items: DrawItem[] };
  title: string;
  subject: string;
}

/** A finished report. */
export interface ReportFile {
  body: Buffer;
  contentType: string;
  filename: string;
}

/** The base layers of a report map inside a lon/lat box, and the sources they came from. */
export interface ReportLayers {
  roads: MapRoad[];
  water: Geometry[];
  sources: CatalogueSource[];
}

/** Roads (class from `road_class`, else OSM `highway`) and water of `state` within `box`, from the data store. */
export function reportLayers(store: DataStore, state: StateCode, box: readonly [number, number, number, number]): ReportLayers {
  const sources = new Map<string, CatalogueSource>();
  const roads: MapRoad[] = [];
  const osmClass: Record<string, string> = { motorway: 'motorway', trunk: 'motorway', primary: 'arterial', secondary: 'arterial', tertiary: 'collector' };
  for (const layer of store.vectorsFor('scores.noise.roads', state)) {
    for (const i of vectorFeaturesIn(layer, box)) {
      const f = layer.features[i];
      const p = f.properties ?? {};
      roads.push({ roadClass: String(p.road_class ?? osmClass[String(p.highway)] ?? 'local'), geometry: f.geometry });
      sources.set(layer.source.id, layer.source);
    }
  }
  const water: Geometry[] = [];
  for (const layer of store.vectorsFor('scores.flood.water', state)) {
    for (const i of vectorFeaturesIn(layer, box)) {
      water.push(layer.features[i].geometry);
      sources.set(layer.source.id, layer.source);
    }
  }
  return { roads, water, sources: [...sources.values()] };
}

/** The short map attribution of a source: its custodian and licence. */
export function mapAttribution(s: CatalogueSource): string {
  return `${s.custodian}, ${s.licence}`;
}

/**
 * The render job of a site analysis: its blocks and its map. `sources` are every source drawn on the map
 * (base layers, DAs, schools), whose attribution goes inside the map frame.
 */
export function prepareReport(format: ReportFormat, req: SiteRequest, data: Record<string, any>, layers: ReportLayers, drawnSources: readonly CatalogueSource[], generatedAt: string): ReportJob & { filename: string } {
  const subject: ReportSubject = {
    state: req.state,
    circle: req.catchment.kind === 'circle' ? { lat: req.catchment.lat, lng: req.catchment.lng, radius_km: req.catchment.radius_km } : null,
    suburb: data.suburb_context?.suburb ?? req.suburb ?? null,
    generatedAt,
  };
  const attribution = [...new Map([...layers.sources, ...drawnSources].map((s) => [s.id, mapAttribution(s)])).values()];
  const features: { geometry: { coordinates: [number, number] }; properties: Record<string, unknown> }[] = data.geojson?.features ?? [];
  const schools: { geometry: { coordinates: [number, number] } }[] = data.schools?.features?.features ?? [];
  const map = reportMap({
    catchment: req.catchment,
    das: features.map((f) => ({ lng: f.geometry.coordinates[0], lat: f.geometry.coordinates[1], stage: String(f.properties.childcare_pipeline_stage) })),
    schools: schools.map((s) => ({ lng: s.geometry.coordinates[0], lat: s.geometry.coordinates[1] })),
    roads: layers.roads,
    water: layers.water,
    attribution,
    stageCounts: Object.fromEntries(((data.breakdowns?.stage ?? []) as { key: string; count: number }[]).map((r) => [r.key, r.count])),
  });
  return {
    format,
    blocks: reportBlocks(data, subject, attribution),
    map: { width: map.width, height: map.height, items: map.items },
    title: 'Childcare development pipeline',
    subject: subjectLine(subject, data),
    filename: reportFilename(subject, format),
  };
}

/** The file of a job: PDF bytes or the HTML text, as bytes. */
export async function renderReport(job: ReportJob): Promise<Uint8Array> {
  if (job.format === 'html') return Buffer.from(reportHtml(job.blocks, job.map), 'utf8');
  // pdfkit is loaded by the first PDF: a thread that never renders one (most engine threads) never holds it.
  const { reportPdf } = await import('./report-pdf.js');
  return reportPdf(job.blocks, job.map, { title: job.title, subject: job.subject });
}

/** The content type of a format. */
export function reportContentType(format: ReportFormat): string {
  return format === 'pdf' ? 'application/pdf' : 'text/html; charset=utf-8';
}

export { mapBox };

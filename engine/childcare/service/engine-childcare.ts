/**
 * The childcare service over an engine's data (out of engine.ts): the analysis of
 * `/api/v1/childcare/analysis`, the site analysis of `/site-analysis`, the PDF or HTML report with its map, and
 * what a site analysis reads of the dataset (a suburb's census context, the DA sources' notices, the open
 * schools, the state at a point). The engine holds one and hands it out as `engine.childcare`; on engine threads
 * the engine sends the report to a thread and serves the rest from its own store.
 */
import type { StateCode } from '../../catalogue/states.js';
import type { DaReader } from '../../da/da-store.js';
import type { DataStore } from '../../data/dataset-store.js';
import type { AddressIndex } from '../../address/address-index.js';
import type { TaskRunner } from '../../pool/worker-pool.js';
import { childcareAnalysis, type ChildcareScope, type OpenSchool, type SourceNotice } from '../analysis.js';
import { mapBox, prepareReport, renderReport, reportContentType, reportLayers, type ReportFile, type ReportFormat, type ReportJob } from '../report/report.js';
import { siteAnalysis, type ChildcareWorld, type SiteRequest } from '../site.js';
import { SuburbCensus } from '../suburb-context.js';

/** The time a childcare report may take to render, ms: past it the render is stopped and fails. */
export const REPORT_TIMEOUT_MS = 15_000;

/** Options of a report. */
export interface ReportOptions {
  /** The site analysis, when the caller made it already. */
  data?: Record<string, unknown>;
  generatedAt?: Date;
  /** Render on this thread rather than on the pool. */
  inThread?: boolean;
}

/** What the childcare service reads of its engine. */
export interface ChildcareSources {
  store(): DataStore;
  das(): DaReader;
  addresses(): AddressIndex;
  stateAt(lon: number, lat: number): StateCode | null;
  pool: TaskRunner<{ 'childcare-report': [ReportJob, Uint8Array] }>;
  /** With engine threads: renders a report on one (the engine's `childcareReport` thread call); null without. */
  renderOnThread?(req: SiteRequest, format: ReportFormat, options: { data: Record<string, unknown>; generatedAt?: Date }): Promise<ReportFile> | null;
}

/** The childcare service of one engine; also the `ChildcareWorld` its site analyses read. */
export class EngineChildcare implements ChildcareWorld {
  private readonly census = new Map<StateCode, SuburbCensus>();

  constructor(private readonly from: ChildcareSources) {}

  /** The `data` object of `/api/v1/childcare/analysis`. */
  analysis(scope: ChildcareScope): Record<string, unknown> {
    return childcareAnalysis(this.from.das(), { notices: this.notices, ...scope });
  }

  /** The `data` object of `/site-analysis` (the HTTP layer checks a polygon's rules and the key's states first). */
  siteAnalysis(req: SiteRequest): Record<string, unknown> {
    return siteAnalysis(this.from.das(), this, req);
  }

  /**
   * A report of a site (issue 19): the site analysis (or `options.data`, the same analysis made by the caller)
   * rendered as PDF or HTML with its map, on the worker pool (`inThread` renders here), or on an engine thread.
   */
  async report(req: SiteRequest, format: ReportFormat, options: ReportOptions = {}): Promise<ReportFile> {
    const data = options.data ?? this.siteAnalysis(req);
    const threaded = this.from.renderOnThread?.(req, format, { data, generatedAt: options.generatedAt });
    if (threaded) return threaded;
    const store = this.from.store();
    const layers = reportLayers(store, req.state, mapBox(req.catchment));
    const daIds = new Set(((data.notices as { licences?: { source: string }[] } | undefined)?.licences ?? []).map((l) => l.source));
    const drawn = store.catalogue.sources.filter((s) => daIds.has(s.id) || (s.paths.includes('poi.schools_500m') && req.state in s.coverage));
    const { filename, ...plain } = prepareReport(format, req, data, layers, drawn, (options.generatedAt ?? new Date()).toISOString());
    // A render is a few tens of milliseconds; one that overruns is stopped (its worker ended) so it frees its slot.
    const bytes = options.inThread ? await renderReport(plain) : await this.from.pool.run('childcare-report', plain, { timeoutMs: REPORT_TIMEOUT_MS });
    return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType: reportContentType(format), filename };
  }

  /** The state at a point (a site analysis's check that the site lies in its state). */
  stateAt(lng: number, lat: number): StateCode | null {
    return this.from.stateAt(lng, lat);
  }

  /** Bound, so it can be handed on as a `NoticeLookup`. */
  readonly notices = (ids: readonly string[]): SourceNotice[] => this.sourceNotices(ids);

  /**
   * The suburb census section of a site analysis (a suburb fact, never a catchment statistic): for `suburb`,
   * or when none is named, for the locality of the nearest address in `state` within 2 km of (lng, lat).
   */
  suburbContext(state: StateCode, suburb: string | null, lng: number, lat: number): Record<string, unknown> {
    let census = this.census.get(state);
    if (!census) this.census.set(state, (census = new SuburbCensus(this.from.store().recordsFor('childcare.suburb_demographics', state))));
    if (suburb) return census.context(state, suburb, 'request');
    const near = this.from.addresses().nearest(lng, lat, 2000);
    return census.context(state, near && near.record.state === state ? near.record.suburb : null, 'nearest_address');
  }

  /**
   * The attribution and licence of DA data sources as the catalogue states them: each id the catalogue knows,
   * and for ids it does not (records imported under a file's name), every source feeding development_applications.
   */
  sourceNotices(ids: readonly string[]): SourceNotice[] {
    const all = this.from.store().catalogue.sources;
    const known = all.filter((s) => ids.includes(s.id));
    const fallback = ids.some((id) => !all.some((s) => s.id === id)) || ids.length === 0 ? all.filter((s) => s.paths.includes('development_applications')) : [];
    return [...new Map([...known, ...fallback].map((s) => [s.id, { source: s.id, attribution: s.attribution, licence: s.licence }])).values()];
  }

  /**
   * The open-school points of a state (name, type, sector, location and the publisher's attribution; never
   * an identifier, enrolment or year range), or null when the dataset holds none for it.
   */
  openSchools(state: StateCode): OpenSchool[] | null {
    const tables = this.from.store().recordsFor('poi.schools_500m', state);
    if (!tables.length) return null;
    const text = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));
    return tables.flatMap((t) =>
      t.rows
        .map((r) => ({ name: String(r.name ?? r.school_name ?? ''), school_type: text(r.school_type), school_sector: text(r.school_sector), lng: Number(r.lon ?? r.lng), lat: Number(r.lat), attribution: t.source.attribution }))
        .filter((s) => Number.isFinite(s.lng) && Number.isFinite(s.lat)),
    );
  }
}

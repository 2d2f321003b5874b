/**
 * `propintel`: the engine as a library. Open a dataset directory with {@link createEngine} and ask it what
 * the HTTP API answers: a property payload, the scores and surfaces of a point, the sandbox addresses.
 * Failures are {@link EngineError}s with a code from {@link ENGINE_ERROR_CODES}. The compute engines that
 * need no dataset are their own entry points: `propintel/contours`, `propintel/hydro`, `propintel/noise`
 * and `propintel/geo`. Everything else in the package is internal.
 */
import { createEngine as createEngineImpl, type Engine as EngineImpl, type EngineOptions } from './runtime/engine.js';
import type { PropertyOptions, PropertyResult as UntypedPropertyResult, PropertySubject } from './property/kit/contract.js';
import type { CorePayload as GeneratedCorePayload, PropertyPayload as GeneratedPropertyPayload } from './property/payload-types.js';
import type { Scores, Surfaces } from './scores/score-types.js';
import type { ChildcareScope } from './childcare/analysis.js';
import type { SiteRequest } from './childcare/site.js';
import type { ChildcareAnalysisResponse, ChildcareSiteResponse } from './childcare/response-types.js';
import type { DaService } from './da/da-store.js';

/**
 * A property payload, typed: the full payload's blocks as its JSON Schema (engine/property/schema.ts, the one
 * the OpenAPI document embeds) defines them, generated into engine/property/payload-types.ts, with the score
 * and surface blocks as the engine's own types (the schema leaves their insides open). Reading a field the
 * payload does not have fails to compile.
 */
export type PropertyPayload = Omit<GeneratedPropertyPayload, 'scores' | 'surfaces'> & { scores?: Partial<Scores>; surfaces?: Partial<Surfaces> };
/** The core payload (`variant: 'core'`): no scores or surfaces. */
export type CorePayload = GeneratedCorePayload;

/** A lookup's answer with its payload typed: the full payload, or the core one when `variant: 'core'` was asked. */
export type PropertyResult = Omit<UntypedPropertyResult, 'payload'> & { payload: PropertyPayload };

/** An open engine: what the server itself calls (see docs/library.md). */
export type Engine = Pick<
  EngineImpl,
  | 'identify' | 'propertyBody' | 'batchChunk' | 'batchUpload' | 'batchText' | 'scores' | 'surfaces' | 'sandbox' | 'sample' | 'stateAt' | 'addresses' | 'dataRevision' | 'threadStats' | 'threadStates' | 'threadHeaps'
  | 'openSchools' | 'sourceNotices'
  | 'tile' | 'tileLayers' | 'tileAttribution' | 'terrainTile' | 'terrainLayer'
  | 'warm' | 'memoryReport' | 'close'
> & {
  /**
   * The DA records the listing serves, as a service: the listing's reads, radius and area queries, councils,
   * categories, tiles and the webhook outbox (a {@link DaService}, not the store's class: its writes go
   * through `propintel das import` or `propintel/das`'s importer).
   */
  das(): DaService;
  /** The property payload of an address or point (the HTTP API's `/api/v1/property`), typed. */
  property(subject: PropertySubject, options?: PropertyOptions): Promise<PropertyResult>;
  /** Childcare market intelligence: the `data` of `/api/v1/childcare/analysis` and `/site-analysis`, typed from their schemas. */
  readonly childcare: Omit<EngineImpl['childcare'], 'analysis' | 'siteAnalysis'> & {
    analysis(scope: ChildcareScope): ChildcareAnalysis;
    siteAnalysis(req: SiteRequest): ChildcareSiteAnalysis;
  };
};

/** A childcare state analysis (`/api/v1/childcare/analysis`'s `data`). */
export type ChildcareAnalysis = ChildcareAnalysisResponse['data'];
/** A childcare site analysis (`/api/v1/childcare/site-analysis`'s `data`). */
export type ChildcareSiteAnalysis = ChildcareSiteResponse['data'];

/** Opens the dataset directory `options.datasets` (its catalogue.json) and starts the worker threads. */
// The engine builds the payload as its schema describes (every sandbox payload is validated against it in the
// tests); the types are that schema's, so the engine's untyped payload is handed out as them here.
export const createEngine: (options: EngineOptions) => Promise<Engine> = createEngineImpl as unknown as (options: EngineOptions) => Promise<Engine>;

export type { EngineOptions, ScoresOptions, ScoresResult, SurfacesOptions, SurfacesResult, MemoryReport } from './runtime/engine.js';
export { EngineError, isEngineError, ENGINE_ERROR_CODES, type EngineErrorCode } from './errors.js';
export type { PropertySubject, PropertyOptions, SandboxAddress } from './property/kit/contract.js';
export type { DaItem, PlanningItem, LayerItem } from './property/payload-types.js';
export type { Scores, Surfaces };
export { PROPERTY_PAYLOAD_SCHEMA, CORE_PAYLOAD_SCHEMA } from './property/schema.js';
export { VERSION } from './version.js';
export type { ChildcareScope, Catchment } from './childcare/analysis.js';
export type { SiteRequest } from './childcare/site.js';
export type { DaReader, DaService, DaWriter } from './da/da-store.js';

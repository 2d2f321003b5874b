/**
 * The surfaces of spec 2.7 around a point: the noise grid and the contours on workers, the heat land-cover
 * grid in this thread. Bad arguments are the caller's error, thrown before any job starts; a surface that
 * fails is reported under `unavailable` with its reason, never a crashed lookup.
 */
import type { StateCode } from '../catalogue/states.js';
import type { DataStore } from '../data/dataset-store.js';
import { isEngineError } from '../errors.js';
import { createWindow } from '../geo/window.js';
import { DEFAULT_NOISE_CELLS, noiseGridSpec, noiseSurfaceOnPool } from '../noise/noise-grid.js';
import type { NoiseGridInput, NoiseGridOutput } from '../noise/noise-grid-task.js';
import type { TaskRunner } from '../pool/worker-pool.js';
import type { SurfaceLayer } from '../property/kit/contract.js';
import { contourSourcesFor } from '../property/inputs/domain-inputs.js';
import { rasterAt, type RasterCache } from '../property/inputs/raster-cache.js';
import type { ContoursRequest } from '../surfaces/contours/contours-surface.js';
import { unpackContours, type ContoursLayer, type PackedContoursLayer } from '../surfaces/contours/contours-layer.js';
import { validateInterval } from '../surfaces/contours/interval.js';
import type { HeatSurface, HeatSurfaceTaskInput } from '../surfaces/heat/heat-surface.js';
import type { SurfacesOptions, SurfacesResult } from '../property/engine-calls.js';
import type { StateModels } from './state-models.js';

/** What the surfaces read: the dataset, a pool that runs the noise grid and contours, open rasters, the models. */
export interface SurfacesContext {
  store: DataStore;
  pool: TaskRunner<{ 'noise-grid': [NoiseGridInput, NoiseGridOutput]; contours: [ContoursRequest, PackedContoursLayer]; 'heat-surface': [HeatSurfaceTaskInput, HeatSurface] }>;
  rasters: RasterCache;
  models: StateModels;
}

/** The surfaces of spec 2.7 around a point; `stateOf` is asked once the arguments have been checked. */
export async function computeSurfaces(ctx: SurfacesContext, lon: number, lat: number, stateOf: () => StateCode | null, options: SurfacesOptions = {}): Promise<SurfacesResult> {
  // Bad arguments are the caller's error, thrown before any job starts: a job's failure becomes
  // `unavailable.<layer>`, which would misreport a bad noise_cells or contour interval as a lookup failure.
  const noiseGrid = noiseGridSpec(options.noiseCells ?? DEFAULT_NOISE_CELLS);
  validateInterval(options.contourIntervalM);
  const state = stateOf();
  const layers = new Set(options.layers ?? ['noise', 'heat', 'contours']);
  const window = createWindow(lon, lat);
  const surfaces: SurfacesResult['surfaces'] = {};
  const unavailable: SurfacesResult['unavailable'] = {};
  const fail = (layer: SurfaceLayer, err: unknown) => {
    if (options.signal?.aborted) throw err;
    unavailable[layer] = { reason: isEngineError(err) && err.code === 'TIMEOUT' ? 'timeout' : 'lookup_failed', note: `The ${layer} surface could not be computed: ${(err as Error).message}` };
  };
  const jobs: Promise<void>[] = [];
  if (layers.has('noise')) {
    jobs.push((async () => {
      try {
        const net = state ? await ctx.models.noiseNetwork(state) : null;
        if (!net) {
          unavailable.noise = { reason: 'no_source', note: `No road network is held for ${state ?? 'this location'}.` };
          return;
        }
        surfaces.noise = await noiseSurfaceOnPool(ctx.pool, net, lon, lat, { cells: noiseGrid.cells, signal: options.signal, method: options.noiseMethod });
      } catch (err) {
        fail('noise', err);
      }
    })());
  }
  if (layers.has('heat')) {
    jobs.push((async () => {
      try {
        const ref = rasterAt(ctx.store.rastersFor('surfaces.heat', state), lon, lat);
        if (!ref) {
          unavailable.heat = { reason: 'no_source', note: 'No 10 m land-cover raster covers this location.' };
          return;
        }
        surfaces.heat = await ctx.pool.run('heat-surface', { file: ref.path, source: ref.source.id, lon: window.lon, lat: window.lat }, { signal: options.signal });
      } catch (err) {
        fail('heat', err);
      }
    })());
  }
  if (layers.has('contours')) {
    jobs.push((async () => {
      try {
        const sources = contourSourcesFor(ctx.store, state, lon, lat);
        const packed = await ctx.pool.run('contours', { lon, lat, state, sources, interval: options.contourIntervalM }, { signal: options.signal });
        const layer: ContoursLayer = unpackContours(packed);
        surfaces.contours = layer;
        if (!layer.available) unavailable.contours = { reason: layer.reason, note: layer.note, services_tried: layer.services_tried };
      } catch (err) {
        if (isEngineError(err) && err.code === 'INVALID_ARGUMENT') throw err;
        fail('contours', err);
      }
    })());
  }
  await Promise.all(jobs);
  return { surfaces, unavailable };
}


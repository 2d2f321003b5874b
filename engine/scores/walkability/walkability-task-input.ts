/** The input of the `walkability` worker task (see workers/tasks/walkability.ts). */
import type { MissingLayer } from '../../score-kit/layer-input.js';
import type { SharedWalkabilityIndexes } from './walkability-layers.js';
import type { WalkSlopeInput } from './walkability-score.js';

/** Input of the `walkability` task: shared indexes (attached, not copied) and one subject. */
export interface WalkabilityTaskInput {
  /** From `shareWalkabilityIndexes`: SharedArrayBuffers and small plain data. */
  indexes: SharedWalkabilityIndexes;
  /** Subject, degrees. */
  lon: number;
  lat: number;
  /** Add `walking_areas` (include_geometry=1); default false. */
  includeGeometry?: boolean;
  /** Regional slope worked out by the caller; when given (even null), `dem` is not read. */
  slope?: WalkSlopeInput | MissingLayer | null;
  /** A DEM GeoTIFF the worker reads a window of for the regional slope (workers open rasters themselves). */
  dem?: { file: string; source: string };
}

/** The wire types of the `noise-grid` worker task (registered in engine/tasks/task-map.ts). */
import type { SharedNoiseScene } from './noise-scene.js';

/** Input of the `noise-grid` task: the shared noise scene and the nodes (network CRS metres, row-major). */
export interface NoiseGridInput {
  scene: SharedNoiseScene;
  nodesX: Float64Array;
  nodesY: Float64Array;
  /** The physics path's propagation: CoRTN (default) or CNOSSOS-EU (engine/noise/cnossos-grid.ts). */
  method?: NoiseMethod;
  /** With the cnossos method: also CoRTN's energies, for nodes on the transfer path (default true). */
  transfer?: boolean;
}

/** The physics path's propagation method. */
export type NoiseMethod = 'cortn' | 'cnossos';

/** Output of the `noise-grid` task: physics-path Lden energy (`10^(Lden/10)`) per node, row-major. */
export interface NoiseGridOutput {
  /** Road segments (the part the transfer relation calibrates). */
  road: Float64Array;
  /** Rail and tram segments (never scaled by the road relation). */
  other: Float64Array;
  /** Segments examined (the work done). */
  segments: number;
  /** With the cnossos method: CoRTN's energies, for the transfer path's nodes (noise-grid.ts NoiseGridEnergy). */
  transfer?: { road: Float64Array; other: Float64Array };
}

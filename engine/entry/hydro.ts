/**
 * `propintel/hydro`: flow routing on a DEM grid: depression filling (priority flood), D8 flow directions,
 * flow accumulation, channels and height above nearest drainage (HAND), as one chain or step by step.
 */
export { computeHand, type HandChainOptions, type HandChainResult } from '../hydro/hand-chain.js';
export { fillDepressions, type FillOptions, type FillResult } from '../hydro/priority-flood.js';
export { d8FlowDirections } from '../hydro/flow-direction.js';
export { flowAccumulation, type FlowAccumulation } from '../hydro/flow-accumulation.js';
export { heightAboveNearestDrainage, type HandOptions, type HandResult } from '../hydro/hand.js';
export { D8_DX, D8_DY, D8_OUTLET, D8_PIT, D8_NODATA } from '../hydro/d8.js';
export type { Grid } from '../raster/grid.js';

export { rasterizeLines } from '../hydro/burn-streams.js';
export { metricCellSize } from '../hydro/cell-size.js';
export { DEFAULT_CHANNEL_THRESHOLD_KM2, thresholdCells } from '../hydro/channels.js';
export { DEFAULT_BUFFER_FRACTION, handTileCache } from '../hydro/hand-at-point.js';
export { lineSetFromFeatures, projectLineSet } from '../hydro/line-set.js';
export { syntheticTerrain } from '../hydro/synthetic-terrain.js';

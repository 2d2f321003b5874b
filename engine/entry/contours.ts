/**
 * `propintel/contours`: contour lines of an elevation grid (marching squares with saddle disambiguation,
 * the same crossings as d3-contour), as flat typed arrays, and of a GeoTIFF DEM around a point.
 */
export { isolines, type IsolineSet, type IsolineOptions } from '../surfaces/contours/isolines.js';
export { demContours } from '../surfaces/contours/dem-contours.js';
export { unpackContours, type ContoursLayer } from '../surfaces/contours/contours-layer.js';

export { computeContours } from '../surfaces/contours/contours-surface.js';
export { traceWindowLines } from '../surfaces/contours/dem-contours.js';
export { levelsInRange } from '../surfaces/contours/interval.js';
export { latticeTransform } from '../geo/lattice-transform.js';
export { NO_LIMITS } from '../surfaces/contours/request.js';

/**
 * `propintel/geo`: what the engine's layers stand on: CRSs (GDA2020 / MGA zones) and analysis windows,
 * GeoTIFF / COG and GeoJSON readers, and static spatial indexes with metre queries (flatbush underneath,
 * shareable with worker threads).
 */
export { createWindow, windowLonLatBBox, type Window } from '../geo/window.js';
export { getTransformer, transformBBox, mgaCrsForLon, type Transformer } from '../geo/crs.js';
export { distanceMetres } from '../geo/distance.js';
export { openRaster, type RasterSource, type RasterInfo } from '../raster/geotiff-reader.js';
export { readGeoJsonLayer, type GeoJsonLayer } from '../vector/geojson-reader.js';
export { PointIndex } from '../vector/point-index.js';
export { SegmentIndex } from '../vector/segment-index.js';
export { PolygonIndex } from '../vector/polygon-index.js';
export type { Grid } from '../raster/grid.js';

export { LONLAT } from '../geo/crs.js';
export { destination, metresPerDegree } from '../geo/distance.js';
export { northUpTransform } from '../geo/geo-transform.js';
export { windowGridSpec } from '../geo/window.js';
export { seededRandom } from '../random/seeded-random.js';

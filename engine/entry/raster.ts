/**
 * `propintel/raster`: GeoTIFF / COG reading and writing (geotiff.js underneath), grids and their
 * statistics.
 */

export { openRaster } from '../raster/geotiff-reader.js';
export { writeGeoTiff } from '../raster/geotiff-writer.js';
export { gridStats } from '../raster/grid-stats.js';
export { cellCentre, createGrid } from '../raster/grid.js';
export type { Grid, TypedArray } from '../raster/grid.js';

export * from './grid.js';
export * from './grid-stats.js';
export * from './geotiff-reader.js';
export * from './geotiff-writer.js';
export * from './resample.js';
export * from './raster-pool.js';
export * from './sample.js';
export * from './terrain-slope.js';

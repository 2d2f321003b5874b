/**
 * Channel cells: cells whose contributing area reaches a threshold (the constant-threshold channel
 * initiation of O'Callaghan & Mark 1984 and Tarboton, Bras & Rodriguez-Iturbe 1991).
 *
 * The default, {@link DEFAULT_CHANNEL_THRESHOLD_KM2} = 0.05 km2 (5 ha; 2,000 cells of 5 m LiDAR), is chosen
 * for urban flood screening rather than for mapping blue-line streams: it is the catchment at which a 1 % AEP
 * storm first produces overland flow beyond what a piped minor drainage system carries. By the rational
 * method, Q = C I A / 360 (Q m3/s, I mm/h, A ha; ARR 1987 Book IV / ARR 2019 Book 9), with C = 0.7 for an
 * urban 1 % AEP event and I = 100 mm/h (the 1 % AEP intensity for a 10-20 minute burst on the east coast,
 * indicative, not a BoM value), 5 ha gives about 1 m3/s, several times the 10-20 % AEP capacity of a typical
 * 375-600 mm street pipe. So a 0.05 km2 network reaches up the overland flow paths a flood study would map,
 * while 0.1 km2 (the other end of the brief's range) stops short of many of them in small urban catchments;
 * smaller thresholds start tracing kerbs and roof lines in 5 m LiDAR. Coarser DEMs (SRTM 30 m) need larger
 * thresholds because their channels are smeared; pass `thresholdKm2` for those.
 */
import { invalidArgument } from '../errors.js';
import type { Grid } from '../raster/grid.js';

/** Default channel-initiation threshold, km2 (0.05 km2 = 5 ha; see the file comment for the reasoning). */
export const DEFAULT_CHANNEL_THRESHOLD_KM2 = 0.05;

/** The threshold in cells for an area in km2 and a cell area in m2 (at least one cell). */
export function thresholdCells(thresholdKm2: number, cellAreaM2: number): number {
  if (!(thresholdKm2 > 0) || !Number.isFinite(thresholdKm2)) throw invalidArgument('threshold_km2', `channel threshold must be a positive number of km2, got ${thresholdKm2}`);
  if (!(cellAreaM2 > 0)) throw invalidArgument('cell_area', `cell area must be positive, got ${cellAreaM2}`);
  return Math.max(1, Math.ceil((thresholdKm2 * 1e6) / cellAreaM2 - 1e-9));
}

/**
 * A Uint8 mask (1 = channel) of the cells whose accumulation (cells, the cell itself included) reaches
 * `minCells`. Cells already set in `force` (burned-in mapped watercourses) are channels too.
 */
export function channelMask(accumulation: Grid<Uint32Array>, minCells: number, force?: Uint8Array | null): Grid<Uint8Array> {
  const acc = accumulation.data;
  if (!(minCells >= 1)) throw invalidArgument('min_cells', `channel threshold must be at least one cell, got ${minCells}`);
  if (force && force.length !== acc.length) throw invalidArgument('force', `forced channel mask has ${force.length} cells, the grid ${acc.length}`);
  const out = new Uint8Array(acc.length);
  for (let i = 0; i < acc.length; i++) out[i] = acc[i] >= minCells || (force !== undefined && force !== null && force[i] !== 0 && acc[i] > 0) ? 1 : 0;
  return { width: accumulation.width, height: accumulation.height, data: out, noData: 255, transform: accumulation.transform, crs: accumulation.crs };
}

/**
 * Moving a 600x600 Float32 grid (1.44 MB, a 3 km window at 5 m) into a worker and back: structured-clone
 * copy, transfer (ownership moves, zero copy; the worker moves it back), and a SharedArrayBuffer (both
 * threads see the same memory). The task is `grid-stats`, so the worker does the same small work each time.
 */
import { northUpTransform } from '../../engine/entry/geo.js';
import { createEnginePool } from '../../engine/entry/runtime.js';
import { gridStats } from '../../engine/entry/raster.js';
import type { Grid } from '../../engine/entry/raster.js';
import { measure, measureAsync } from '../lib/measure.js';
import { compared, type BenchRow, type BenchSuite } from '../lib/report.js';

const SIDE = 600;

function makeGrid(data: Float32Array): Grid<Float32Array> {
  for (let i = 0; i < data.length; i++) data[i] = (i % SIDE) * 0.1 + Math.floor(i / SIDE) * 0.05;
  return { width: SIDE, height: SIDE, data, noData: NaN, transform: northUpTransform(320000, 5812000, 5), crs: 'EPSG:7855' };
}

export const workerTransferSuite: BenchSuite = {
  name: 'worker-transfer',
  description: '600x600 Float32 grid into a worker: copy vs transfer vs SharedArrayBuffer',
  async run() {
    const pool = createEnginePool({ threads: 1 });
    const rows: BenchRow[] = [];
    const cells = SIDE * SIDE;
    try {
      const local = makeGrid(new Float32Array(cells));
      const inProcess = await measure(() => gridStats(local).sum);

      const copyGrid = makeGrid(new Float32Array(cells));
      await pool.run('grid-stats', { grid: copyGrid }); // warm the worker
      const copy = await measureAsync(() => pool.run('grid-stats', { grid: copyGrid }));

      let moving = makeGrid(new Float32Array(cells));
      const transfer = await measureAsync(async () => {
        const out = await pool.run('grid-stats', { grid: moving, returnGrid: true }, { transfer: [moving.data.buffer as ArrayBuffer] });
        moving = out.grid!;
        return out.stats.sum;
      });

      const shared = makeGrid(new Float32Array(new SharedArrayBuffer(cells * 4)));
      const sab = await measureAsync(() => pool.run('grid-stats', { grid: shared }));

      const size = `${SIDE}x${SIDE} f32`;
      rows.push({ benchmark: 'grid-stats in process', size, msPerOp: inProcess.msPerOp, rme: inProcess.rme, itemsPerSec: cells / (inProcess.msPerOp / 1e3), note: 'no worker: the floor' });
      rows.push({ benchmark: 'worker, structured-clone copy', size, msPerOp: copy.msPerOp, rme: copy.rme, itemsPerSec: cells / (copy.msPerOp / 1e3) });
      rows.push(compared({ benchmark: 'worker, transfer both ways', size, msPerOp: transfer.msPerOp, rme: transfer.rme, itemsPerSec: cells / (transfer.msPerOp / 1e3), reference: 'copy' }, copy.msPerOp));
      rows.push(compared({ benchmark: 'worker, SharedArrayBuffer', size, msPerOp: sab.msPerOp, rme: sab.rme, itemsPerSec: cells / (sab.msPerOp / 1e3), reference: 'copy' }, copy.msPerOp));
    } finally {
      await pool.destroy();
    }
    return rows;
  },
};

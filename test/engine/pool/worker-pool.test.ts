import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { deserializeError, EngineError, serializeError } from '../../../engine/errors.js';
import { northUpTransform } from '../../../engine/geo/geo-transform.js';
import { createWorkerPool } from '../../../engine/pool/worker-pool.js';
import { createEnginePool } from '../../../engine/tasks/engine-pool.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';
import { PointIndex } from '../../../engine/vector/point-index.js';
import type { PoolTestTasks } from '../../fixtures/pool-test-worker.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';

const testPool = createWorkerPool<PoolTestTasks>({ module: new URL('../../fixtures/pool-test-worker.ts', import.meta.url), threads: 2, taskTimeoutMs: 10_000 });
const enginePool = createEnginePool({ threads: 1 });
afterAll(async () => {
  await testPool.destroy();
  await enginePool.destroy();
});

describe('the error boundary', () => {
  it('a custom Error subclass loses its code in a structured clone, so workers send a serialized form', () => {
    const e = new EngineError('INVALID_DATA', 'x.tif: truncated', { file: 'x.tif' });
    const cloned = structuredClone(e) as unknown as { code?: string };
    expect(cloned).not.toBeInstanceOf(EngineError);
    expect(cloned.code).toBeUndefined();
    const back = deserializeError(structuredClone(serializeError(e)));
    expect(back).toBeInstanceOf(EngineError);
    expect(back.code).toBe('INVALID_DATA');
    expect(back.details).toEqual({ file: 'x.tif' });
  });

  it('maps a plain error to TASK_FAILED and an unknown code to TASK_FAILED', () => {
    expect(serializeError(new RangeError('nope'))).toMatchObject({ code: 'TASK_FAILED', message: 'nope' });
    expect(deserializeError({ code: 'MADE_UP' as never, message: 'm' }).code).toBe('TASK_FAILED');
  });
});

describe('the worker pool', () => {
  it('starts every worker on request (piscina starts one, the rest only when tasks overlap), and still runs tasks', async () => {
    const two = createEnginePool({ threads: 2 });
    try {
      expect(two.threads).toBe(1);
      await two.startWorkers!();
      expect(two.threads).toBe(2);
      const data = new Float32Array([1, 3]);
      const out = await two.run('grid-stats', { grid: { width: 2, height: 1, data, noData: NaN, transform: northUpTransform(0, 0, 1), crs: 'EPSG:7855' } });
      expect(out.stats.mean).toBe(2);
    } finally {
      await two.destroy();
    }
  });

  it('runs a task and returns its result', async () => {
    const values = Float32Array.from({ length: 1000 }, (_, i) => i);
    const out = await testPool.run('sum', { values });
    expect(out.sum).toBe((999 * 1000) / 2);
    expect(out.doubled[999]).toBe(1998);
    expect(values.byteLength).toBe(4000); // copied, not transferred
  });

  it('transfers input buffers: the caller\'s buffer is detached afterwards', async () => {
    const values = Float32Array.from({ length: 600 * 600 }, (_, i) => i % 7);
    const out = await testPool.run('sum', { values }, { transfer: [values.buffer as ArrayBuffer] });
    expect(values.byteLength).toBe(0);
    expect(out.receivedBytes).toBe(600 * 600 * 4);
    expect(out.doubled).toBeInstanceOf(Float32Array);
    expect(out.doubled.length).toBe(600 * 600);
  });

  it('lets a worker query a flatbush index through shared memory (Flatbush.from, no copy)', async () => {
    const rnd = seededRandom(4);
    const coords = Float64Array.from({ length: 20000 }, (_, i) => (i % 2 ? -37.8 + rnd.next() * 0.05 : 144.95 + rnd.next() * 0.05));
    const index = PointIndex.build(coords);
    const out = await testPool.run('point-within', { index: index.toShared(), lon: 144.975, lat: -37.775, radius: 400 });
    expect(out.shared).toBe(true);
    expect(out.ids).toEqual(index.within(144.975, -37.775, 400).map((h) => h.id));
    expect(out.ids.length).toBeGreaterThan(10);
  });

  it('returns a task\'s EngineError with its code and details', async () => {
    const e = await expectEngineError(() => testPool.run('throw-engine', { file: 'dem.tif' }), 'INVALID_DATA', 'dem.tif: bad bytes');
    expect(e.details).toMatchObject({ file: 'dem.tif', offset: 12, task: 'throw-engine' });
  });

  it('turns an unexpected throw into TASK_FAILED', async () => {
    await expectEngineError(() => testPool.run('throw-plain', {}), 'TASK_FAILED', /undefined is not a function/);
  });

  it('stops a task that runs past its time limit with TIMEOUT, and keeps serving', async () => {
    const e = await expectEngineError(() => testPool.run('sleep', { ms: 5000 }, { timeoutMs: 100 }), 'TIMEOUT', /100 ms/);
    expect(e.details).toMatchObject({ task: 'sleep', timeoutMs: 100 });
    expect(await testPool.run('sleep', { ms: 1 })).toEqual({ slept: 1 });
  });

  it('reports a worker that exits mid-task as WORKER_CRASHED, and keeps serving', async () => {
    await expectEngineError(() => testPool.run('exit', {}), 'WORKER_CRASHED', /exit/);
    expect((await testPool.run('sum', { values: Float32Array.of(1, 2) })).sum).toBe(3);
  });

  it('reports an uncaught exception in a worker as WORKER_CRASHED', async () => {
    await expectEngineError(() => testPool.run('uncaught', {}), 'WORKER_CRASHED', /boom from a timer/);
    expect((await testPool.run('sum', { values: Float32Array.of(4) })).sum).toBe(4);
  });

  it('cancels a task when the caller aborts (ABORTED, not TIMEOUT)', async () => {
    const ac = new AbortController();
    const p = testPool.run('sleep', { ms: 5000 }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expectEngineError(() => p, 'ABORTED', /cancelled/);
  });

  it('rejects an unknown task name with INVALID_ARGUMENT', async () => {
    await expectEngineError(() => testPool.run('nope' as never, {} as never), 'INVALID_ARGUMENT', /unknown task "nope"/);
  });

  it('runs the engine\'s own tasks from TypeScript sources (grid-stats)', async () => {
    const data = Float32Array.from({ length: 100 }, (_, i) => (i === 5 ? NaN : i));
    const out = await enginePool.run('grid-stats', { grid: { width: 10, height: 10, data, noData: NaN, transform: northUpTransform(0, 0, 1), crs: 'EPSG:7855' }, returnGrid: true }, { transfer: [data.buffer as ArrayBuffer] });
    expect(out.stats).toMatchObject({ count: 99, min: 0, max: 99 });
    expect(data.byteLength).toBe(0);
    expect(out.grid!.data.length).toBe(100); // moved back to the caller
  });

  it('runs the same tasks from the built output (dist/)', () => {
    const script = `
      const { createEnginePool } = await import(${JSON.stringify(new URL('../../../dist/engine/tasks/engine-pool.js', import.meta.url).href)});
      const { northUpTransform } = await import(${JSON.stringify(new URL('../../../dist/engine/geo/index.js', import.meta.url).href)});
      const pool = createEnginePool({ threads: 1 });
      const data = new Float32Array([1, 2, 3, NaN]);
      const out = await pool.run('grid-stats', { grid: { width: 2, height: 2, data, noData: NaN, transform: northUpTransform(0, 0, 1), crs: 'EPSG:7855' } }, { transfer: [data.buffer] });
      await pool.destroy();
      console.log(JSON.stringify({ stats: out.stats, detached: data.byteLength === 0 }));
    `;
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('../../..', import.meta.url)), encoding: 'utf8' });
    expect(JSON.parse(stdout)).toEqual({ stats: { count: 3, min: 1, max: 3, mean: 2, sum: 6 }, detached: true });
  });

  it('refuses work after destroy with UNAVAILABLE', async () => {
    const p = createWorkerPool<PoolTestTasks>({ module: new URL('../../fixtures/pool-test-worker.ts', import.meta.url), threads: 1 });
    await p.destroy();
    await expectEngineError(() => p.run('sleep', { ms: 1 }), 'UNAVAILABLE', /closed/);
  });
});

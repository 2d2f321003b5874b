/**
 * Timing with benchmark.js: repeated samples until the relative margin of error settles or the time budget
 * runs out. Every benchmark feeds its results into `sink` so the work cannot be optimised away.
 */
import Benchmark from 'benchmark';

/** One measurement. */
export interface Measurement {
  /** Mean milliseconds per operation. */
  msPerOp: number;
  /** Operations per second. */
  hz: number;
  /** Relative margin of error, percent. */
  rme: number;
  samples: number;
}

/** Options for a measurement. */
export interface MeasureOptions {
  /** Seconds to spend sampling (default from the runner: 1, or 0.25 with --quick). */
  maxTime?: number;
  minSamples?: number;
}

let defaultMaxTime = 1;

/** Sets the default sampling budget (the runner's --quick flag). */
export function setDefaultMaxTime(seconds: number): void {
  defaultMaxTime = seconds;
}

/** The sampling budget in seconds (below 1 under --quick). */
export function getDefaultMaxTime(): number {
  return defaultMaxTime;
}

/** A place to put results so the optimiser keeps the work that produced them. */
export const sink: { value: unknown } = { value: 0 };

function toMeasurement(b: Benchmark): Measurement {
  const mean = b.stats.mean;
  return { msPerOp: mean * 1e3, hz: 1 / mean, rme: b.stats.rme, samples: b.stats.sample.length };
}

function runOne(options: Benchmark.Options): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const b = new Benchmark({
      maxTime: defaultMaxTime,
      minSamples: 5,
      ...options,
      onComplete() {
        if (b.error) reject(b.error instanceof Error ? b.error : new Error(String(b.error)));
        else resolve(toMeasurement(b));
      },
    });
    b.run({ async: true });
  });
}

/** Measures a synchronous function. */
export function measure(fn: () => unknown, options: MeasureOptions = {}): Promise<Measurement> {
  return runOne({ fn: () => void (sink.value = fn()), ...options });
}

/**
 * Measures an asynchronous function (one operation per awaited call). An operation that rejects ends the
 * measurement with that error (after the current sampling cycle) instead of hanging or killing the run.
 */
export async function measureAsync(fn: () => Promise<unknown>, options: MeasureOptions = {}): Promise<Measurement> {
  let failure: unknown;
  const m = await runOne({
    defer: true,
    fn: (deferred: { resolve(): void }) => {
      if (failure !== undefined) return deferred.resolve();
      fn().then(
        (v) => {
          sink.value = v;
          deferred.resolve();
        },
        (err) => {
          failure = err ?? new Error('benchmark operation rejected');
          deferred.resolve();
        },
      );
    },
    ...options,
  });
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  return m;
}

/** The `p`th percentile (0-100) of `values`: the value at that rank of the sorted list (p = 50: the median). */
export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Milliseconds of each of `n` runs of `fn` (sync or async), after one untimed warm-up run. */
export async function timeRuns(n: number, fn: () => unknown): Promise<number[]> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    sink.value = await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

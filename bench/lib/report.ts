/** The benchmark table: rows, printing, and the machine-readable results file. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { availableParallelism, cpus, platform, release } from 'node:os';

/** One result row. */
export interface BenchRow {
  /** What was measured, e.g. "flatbush within 500 m". */
  benchmark: string;
  /** Problem size, e.g. "1M points" or "600x600". */
  size: string;
  /** Mean milliseconds per operation. */
  msPerOp: number;
  /** Items processed per second (cells, points, lines), when meaningful. */
  itemsPerSec?: number;
  /** Relative margin of error, percent. */
  rme?: number;
  /** The reference tool or method measured beside it. */
  reference?: string;
  /** The reference's ms per operation. */
  refMsPerOp?: number;
  /** Speed-up over the reference: refMsPerOp / msPerOp (above 1 means propintel is faster). */
  ratio?: number;
  /** Anything a reader needs to interpret the row (checks, skips). */
  note?: string;
}

/** A benchmark suite: a name and a function producing rows. */
export interface BenchSuite {
  name: string;
  description: string;
  run(): Promise<BenchRow[]>;
}

/** A row comparing `ours` to a reference measured in the same run. */
export function compared(row: Omit<BenchRow, 'ratio' | 'refMsPerOp'>, refMsPerOp: number | undefined): BenchRow {
  return refMsPerOp === undefined ? row : { ...row, refMsPerOp, ratio: refMsPerOp / row.msPerOp };
}

function fmt(n: number | undefined, digits = 3): string {
  if (n === undefined || !Number.isFinite(n)) return '';
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return n >= 100 ? n.toFixed(0) : n.toPrecision(digits);
}

/** Formats rows as an aligned text table. */
export function formatTable(rows: BenchRow[]): string {
  const header = ['benchmark', 'size', 'ms/op', '±%', 'items/s', 'reference', 'ref ms/op', 'ratio', 'note'];
  const body = rows.map((r) => [
    r.benchmark,
    r.size,
    fmt(r.msPerOp),
    r.rme === undefined ? '' : r.rme.toFixed(1),
    fmt(r.itemsPerSec),
    r.reference ?? '',
    fmt(r.refMsPerOp),
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`,
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

/** Machine facts recorded with every results file. */
export function machineInfo() {
  return {
    node: process.versions.node,
    v8: process.versions.v8,
    platform: `${platform()} ${release()}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
  };
}

/** One suite's rows in the results file, with when and where they were measured. */
export interface SuiteResult {
  ranAt: string;
  machine: ReturnType<typeof machineInfo>;
  rows: BenchRow[];
}

/**
 * Writes the results as JSON. Suites run now replace their entries; suites not run keep their last result
 * (each entry carries its own `ranAt`), so `npm run bench -- noise` does not erase the contours numbers.
 */
export function writeResults(file: string, suites: Record<string, BenchRow[]>): void {
  mkdirSync(dirname(file), { recursive: true });
  const now = new Date().toISOString();
  const machine = machineInfo();
  const merged: Record<string, SuiteResult> = { ...previousSuites(file) };
  for (const [name, rows] of Object.entries(suites)) merged[name] = { ranAt: now, machine, rows };
  writeFileSync(file, `${JSON.stringify({ generatedAt: now, suites: merged }, null, 2)}\n`);
}

/** The suites of an earlier results file in the current shape; anything unreadable or older is dropped. */
function previousSuites(file: string): Record<string, SuiteResult> {
  if (!existsSync(file)) return {};
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as { suites?: Record<string, unknown> };
    const out: Record<string, SuiteResult> = {};
    for (const [name, v] of Object.entries(json.suites ?? {})) {
      const r = v as Partial<SuiteResult>;
      if (r && typeof r.ranAt === 'string' && Array.isArray(r.rows)) out[name] = r as SuiteResult;
    }
    return out;
  } catch {
    return {};
  }
}

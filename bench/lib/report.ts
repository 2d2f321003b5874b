/** The benchmark table: rows, printing, and the machine-readable results file. */
import { mkdirSync, writeFileSync } from 'node:fs';
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

/** Writes the results as JSON. */
export function writeResults(file: string, suites: Record<string, BenchRow[]>): void {
  mkdirSync(new URL('.', `file://${file}`).pathname, { recursive: true });
  writeFileSync(file, `${JSON.stringify({ generatedAt: new Date().toISOString(), machine: machineInfo(), suites }, null, 2)}\n`);
}

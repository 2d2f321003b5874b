/**
 * `propintel batch FILE --out FILE`: a file of addresses (CSV with a header row, or JSON lines) looked up
 * without a server, every row's answer written to the output in input order: its status and error, the
 * resolved address and point, and the chosen components (flattened to columns in CSV, whole in JSON lines
 * and GeoJSON). Rows are looked up a chunk at a time in spatial order; a progress line on stderr shows rows,
 * rows/s and the time left. `--resume` continues a stopped run after the rows already in the output file;
 * Ctrl-C stops after the chunk in hand, so the file always ends on a whole row.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, realpathSync, statSync, writeSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { defaultDataDir, ensureSampleWorld } from '../../datasets/sample-world.js';
import { createEngine } from '../../engine/index.js';
import { BATCH_DELIMITERS, BATCH_OUTPUT_FORMATS, BatchFileWriter, batchRows, collectColumns, lookupRows, resumePoint, type BatchInputFormat, type BatchOutputFormat, type BatchRow } from '../../engine/entry/batch.js';
import { EXIT_OK, UsageError, type Command } from '../command.js';
import { numberFlag, parseFlags } from '../args.js';

const FLAGS = {
  out: { type: 'string', short: 'o' },
  format: { type: 'string' },
  'input-format': { type: 'string' },
  delimiter: { type: 'string' },
  components: { type: 'string' },
  'include-geometry': { type: 'boolean' },
  data: { type: 'string' },
  resume: { type: 'boolean' },
  chunk: { type: 'string' },
  concurrency: { type: 'string' },
  order: { type: 'string' },
  threads: { type: 'string' },
} as const;

/** `1,234` */
const n = (v: number) => v.toLocaleString('en-AU');

/** The progress line: rows, share, rows/s, time left. */
export function progressLine(done: number, total: number, failed: number, elapsedS: number, resumedAt = 0): string {
  // The rate of this run: rows a resumed run found done are not counted in it.
  const rate = elapsedS > 0 ? (done - resumedAt) / elapsedS : 0;
  const left = rate > 0 ? Math.ceil((total - done) / rate) : null;
  const eta = left === null ? '-' : left >= 3600 ? `${Math.floor(left / 3600)} h ${Math.round((left % 3600) / 60)} min` : left >= 120 ? `${Math.round(left / 60)} min` : `${left} s`;
  const width = 24;
  const filled = total ? Math.round((done / total) * width) : width;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${n(done)}/${n(total)} rows (${total ? Math.floor((done / total) * 100) : 100}%), ${rate.toFixed(1)} rows/s, ETA ${eta}, ${n(failed)} not ok`;
}

/** The `batch` subcommand. */
export const batchCommand: Command = {
  name: 'batch',
  summary: 'look up every address of a CSV or JSON lines file, without a server',
  usage: [
    'propintel batch FILE --out FILE [--format csv|jsonl|geojson] [--components LIST] [--data DIR] [--resume]',
    '',
    'FILE is CSV with a header row (an address column, or lat and lng columns; every column is carried',
    'through) or JSON lines (an object per line with address, or lat and lng). Every row gets one record in the',
    'output, in input order, with status (ok, unresolved, outside_coverage, invalid, error) and error columns.',
    '',
    '  --out FILE, -o FILE        the results file (required)',
    '  --format F                 csv (default from --out\'s extension, else csv), jsonl or geojson',
    '  --input-format F           csv or jsonl (default from FILE\'s extension: .jsonl/.ndjson are JSON lines)',
    '  --delimiter D              the input CSV\'s delimiter: , ; tab | (default: the one its header uses)',
    '  --components LIST          blocks and dotted selectors, e.g. scores.flood,planning,hazards',
    '  --include-geometry         clipped GeoJSON for layers and the parcel boundary (JSON lines, GeoJSON)',
    `  --data DIR                 dataset directory (default: the sample world in ${defaultDataDir()})`,
    '  --resume                   continue after the rows already in --out (same input, format, components)',
    '  --chunk N                  rows looked up together, in spatial order (default 2000)',
    '  --concurrency N            lookups at once (default 8)',
    '  --order spatial|input      the order of lookups within a chunk (default spatial; output is in input order)',
    '  --threads N                worker threads (default: the number of cores)',
  ].join('\n'),
  async run(args, io) {
    const { values, positionals } = parseFlags(args, FLAGS, true);
    if (positionals.length !== 1) throw new UsageError('pass one input FILE');
    if (!values.out) throw new UsageError('--out FILE is required');
    const input = resolve(positionals[0]);
    const out = resolve(values.out);
    if (!existsSync(input)) throw new UsageError(`no such input file: ${input}`);
    // The results never replace the rows they come from: the same file under another name (a hard link, a
    // symbolic link, another path to it) is the same file.
    if (existsSync(out)) {
      const a = statSync(input), b = statSync(out);
      if ((a.dev === b.dev && a.ino === b.ino) || realpathSync(input) === realpathSync(out)) {
        throw new UsageError(`--out ${values.out} is the input file ${positionals[0]}${out !== input ? ' (the same file under another name)' : ''}: writing the results there would destroy the rows; choose another file`);
      }
    }
    const byExt: Record<string, BatchOutputFormat> = { '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.geojson': 'geojson', '.json': 'geojson', '.csv': 'csv' };
    const format = (values.format ?? byExt[extname(out).toLowerCase()] ?? 'csv') as BatchOutputFormat;
    if (!BATCH_OUTPUT_FORMATS.includes(format)) throw new UsageError(`--format must be csv, jsonl or geojson, got ${JSON.stringify(values.format)}`);
    const inputFormat = (values['input-format'] ?? (['.jsonl', '.ndjson'].includes(extname(input).toLowerCase()) ? 'jsonl' : 'csv')) as BatchInputFormat;
    if (inputFormat !== 'csv' && inputFormat !== 'jsonl') throw new UsageError(`--input-format must be csv or jsonl, got ${JSON.stringify(values['input-format'])}`);
    const delimiter = values.delimiter === 'tab' ? '\t' : values.delimiter;
    if (delimiter !== undefined && !(BATCH_DELIMITERS as readonly string[]).includes(delimiter)) throw new UsageError('--delimiter must be , ; tab or |');
    const order = values.order ?? 'spatial';
    if (order !== 'spatial' && order !== 'input') throw new UsageError('--order must be spatial or input');
    const chunk = numberFlag('chunk', values.chunk, 2000, { min: 1, max: 100_000, integer: true });
    const concurrency = numberFlag('concurrency', values.concurrency, 8, { min: 1, max: 256, integer: true });
    const threads = values.threads === undefined ? undefined : numberFlag('threads', values.threads, 0, { min: 1, max: 256, integer: true });
    const components = values.components?.split(',').map((s) => s.trim()).filter(Boolean);

    // The input's columns first (JSON lines: every key seen), and its size for the progress line.
    const text = readFileSync(input, 'utf8');
    const readOptions = { format: inputFormat, delimiter: delimiter as (typeof BATCH_DELIMITERS)[number] | undefined };
    let columns: string[] = [];
    let total = 0;
    const seen = new Set<string>();
    for (const r of batchRows(text, readOptions, (c) => (columns = c))) {
      total++;
      if (inputFormat === 'jsonl') collectColumns(columns, seen, r.cells);
    }
    const writer = new BatchFileWriter({ format, columns, components: components ?? null });

    // Where to start: after the rows already in the output (--resume), or afresh.
    let start = 0;
    let pos = 0;
    const fd = openSync(out, values.resume && existsSync(out) ? 'r+' : 'w');
    try {
      if (values.resume && existsSync(out)) {
        const point = resumePoint(readFileSync(out, 'utf8'), format, writer.header());
        if (point.finished || point.rows >= total) {
          // Every row is there; a GeoJSON file stopped before its closing bracket gets it now.
          if (!point.finished && format === 'geojson') {
            ftruncateSync(fd, point.keepBytes);
            writeSync(fd, writer.footer(), point.keepBytes);
          }
          io.stderr(`batch: ${out} already holds all ${n(total)} rows; nothing to do\n`);
          return EXIT_OK;
        }
        ftruncateSync(fd, point.keepBytes);
        start = point.rows;
        pos = point.keepBytes;
        writer.resumeAfter(start);
        io.stderr(`batch: resuming after row ${n(start)} of ${n(total)}\n`);
      }
      const write = (s: string) => {
        pos += writeSync(fd, s, pos);
      };
      if (pos === 0) write(writer.header());

      const dir = resolve(values.data ?? defaultDataDir());
      if (!values.data) await ensureSampleWorld(dir, (line) => io.stderr(`${line}\n`));
      const engine = await createEngine({ datasets: dir, ...(threads ? { threads } : {}) });
      let stopped = false;
      void io.shutdown.then(() => (stopped = true));
      const t0 = performance.now();
      let done = start, failed = 0, lastShown = 0;
      const tty = !!process.stderr.isTTY;
      const show = (final: boolean) => {
        const now = performance.now();
        if (!final && (done === total || now - lastShown < (tty ? 250 : 5000))) return;
        lastShown = now;
        const line = progressLine(done, total, failed, (now - t0) / 1000, start);
        io.stderr(tty && !final ? `\r${line}` : `${tty ? '\r' : ''}batch: ${line}\n`);
      };
      try {
        let rows: BatchRow[] = [];
        const flush = async () => {
          const results = await lookupRows(engine, rows, { property: { components, include_geometry: values['include-geometry'] }, concurrency, order });
          for (const r of results) {
            write(writer.row(r));
            if (r.status !== 'ok') failed++;
          }
          done += rows.length;
          rows = [];
          show(false);
        };
        for (const r of batchRows(text, readOptions)) {
          if (r.row <= start) continue;
          rows.push(r);
          if (rows.length >= chunk) {
            await flush();
            if (stopped) break;
          }
        }
        if (rows.length && !stopped) await flush();
        if (!stopped) write(writer.footer());
        show(true);
        if (stopped) io.stderr(`batch: stopped after row ${n(done)}; run again with --resume to continue\n`);
      } finally {
        await engine.close();
      }
    } finally {
      closeSync(fd);
    }
    return EXIT_OK;
  },
};

/**
 * The sample world: generating it (all eight tiles, on the worker pool) and loading it with every index built
 * (the engine's startup cost). Targets from issue 3: generation well under a minute on 2 cores; loading and
 * indexing under 5 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSampleWorld } from '../../datasets/generator/generate.js';
import { openDataStore } from '../../engine/data/dataset-store.js';
import type { BenchRow, BenchSuite } from '../lib/report.js';

export const sampleWorldSuite: BenchSuite = {
  name: 'sample-world',
  description: 'generate the sample world, then load it and build every index',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'propintel-bench-world-'));
    const rows: BenchRow[] = [];
    try {
      const gen = await generateSampleWorld({ out: dir });
      const bytes = gen.files.reduce((s, f) => s + f.bytes, 0);
      rows.push({ benchmark: 'generate (8 tiles, worker pool)', size: `${gen.files.length} files, ${(bytes / 1e6).toFixed(0)} MB`, msPerOp: gen.ms, itemsPerSec: bytes / (gen.ms / 1e3), note: 'one run; items = bytes; target well under 60 s' });
      const single = await generateSampleWorld({ out: `${dir}-one`, tiles: ['vic'], threads: 1 });
      rows.push({ benchmark: 'generate one tile in process', size: 'vic', msPerOp: single.ms, note: 'one run' });
      rmSync(`${dir}-one`, { recursive: true, force: true });
      const times: number[] = [];
      let files = 0;
      for (let i = 0; i < 3; i++) {
        const store = await openDataStore(dir);
        times.push(store.loadMs);
        files = store.files.length;
      }
      times.sort((a, b) => a - b);
      rows.push({ benchmark: 'load + index every layer', size: `${files} files`, msPerOp: times[1], note: `median of 3; target under 5,000 ms` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

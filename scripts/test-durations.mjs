// Writes test/durations.json from the last `npm test` on this machine (vitest's results cache): each test file's
// duration in ms. vitest.config.ts runs the longest files first from it, so that a clean checkout (CI, where
// vitest has no cache of its own) packs its two workers as well as a machine that ran the suite before.
// Run it after adding or reworking slow test files: `node scripts/test-durations.mjs`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = join(root, 'node_modules', '.vite', 'vitest');
const found = readdirSync(cacheDir).map((d) => join(cacheDir, d, 'results.json'));
const results = new Map(JSON.parse(readFileSync(found[0], 'utf8')).results);
const durations = Object.fromEntries(
  [...results]
    .map(([key, r]) => [key.replace(/^[^:]*:/, ''), Math.round(r.duration ?? 0)])
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1]),
);
writeFileSync(join(root, 'test', 'durations.json'), `${JSON.stringify(durations, null, 1)}\n`);
console.log(`test/durations.json: ${Object.keys(durations).length} files`);

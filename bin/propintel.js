#!/usr/bin/env node
// The `propintel` command. Runs the built CLI (dist/), which `npm install` produces.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('propintel: the CLI is not built yet; run `npm run build` (npm install runs it for you).\n');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));

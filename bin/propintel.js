#!/usr/bin/env node
// The `propintel` command. Runs the built CLI (dist/), which `npm install` produces. Commands with a one-shot
// bundle (dist/bundles/<command>.js, written by scripts/bundle-cli.mjs) load from that one file: it starts
// about twice as fast as the same modules loaded one by one, which is most of a short run.
import { existsSync } from 'node:fs';

const argv = process.argv.slice(2);
const bundle = /^[a-z-]+$/.test(argv[0] ?? '') ? new URL(`../dist/bundles/${argv[0]}.js`, import.meta.url) : null;
if (bundle && existsSync(bundle)) {
  const { command, runCommand } = await import(bundle.href);
  process.exitCode = await runCommand(command, argv.slice(1));
} else {
  const entry = new URL('../dist/cli/main.js', import.meta.url);
  if (!existsSync(entry)) {
    process.stderr.write('propintel: the CLI is not built yet; run `npm run build` (npm install runs it for you).\n');
    process.exit(1);
  }
  const { main } = await import(entry.href);
  process.exitCode = await main(argv);
}

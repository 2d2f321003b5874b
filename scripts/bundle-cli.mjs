/**
 * One-shot bundles of the CLI commands people run once per shell line (`propintel contours`, `propintel
 * hand`): each command with everything it imports (geotiff and its 70-odd modules, our engine modules) in one
 * ESM file under dist/bundles/. Node 20 resolves and compiles every ES module separately and keeps no compile
 * cache, so loading `contours` from dist/ costs about 130 ms before it reads a byte; from one file, about 60.
 * bin/propintel.js runs a command from its bundle when there is one and from dist/cli otherwise; both go
 * through the same runCommand, so they print and exit alike (test/cli/bundles.test.ts checks it).
 *
 * Only commands that run in process are bundled: the ones that start worker threads load their worker files
 * by path next to the module (dist/workers), which a bundle would not have.
 *
 * Run after `tsc` (npm run build does): node scripts/bundle-cli.mjs
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The bundled commands: name -> the module and export of its Command in dist/cli/commands. */
export const BUNDLED_COMMANDS = {
  contours: ['contours.js', 'contoursCommand'],
  hand: ['hand.js', 'handCommand'],
};

/** Writes dist/bundles/<name>.js for every bundled command; `root` is the package root. */
export async function bundleCli(root = fileURLToPath(new URL('..', import.meta.url))) {
  const { build } = await import('esbuild');
  // dist/bundles/ sits two levels below the root, like dist/engine/, so engine/version.ts finds package.json.
  const outdir = `${root}/dist/bundles`;
  mkdirSync(outdir, { recursive: true });
  await Promise.all(
    Object.entries(BUNDLED_COMMANDS).map(([name, [file, symbol]]) =>
      build({
        stdin: {
          contents: `export { ${symbol} as command } from './dist/cli/commands/${file}';\nexport { runCommand } from './dist/cli/run-command.js';\n`,
          resolveDir: root,
          sourcefile: `bundle-${name}.js`,
        },
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: `${outdir}/${name}.js`,
        // Native addons and packages loaded with require() at run time stay outside (proj4 is required through
        // createRequire, which esbuild leaves alone).
        external: ['better-sqlite3', 'uWebSockets.js', 'piscina'],
        logLevel: 'warning',
        legalComments: 'eof',
      }),
    ),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await bundleCli();

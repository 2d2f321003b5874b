// Before the suites run: builds dist/ and the CLI's one-shot bundles, as `npm run build` does (so tests of the
// built output see the current sources; tsc 7 takes under a second, the bundles about as long), then makes sure the default sample world exists and was written by this generator version.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/bundle-cli.mjs', import.meta.url))], { cwd: root, stdio: 'inherit' });
  const { ensureSampleWorld } = (await import(new URL('../dist/datasets/sample-world.js', import.meta.url).href)) as typeof import('../datasets/sample-world.js');
  await ensureSampleWorld(undefined, (line) => process.stdout.write(`${line}\n`));
}

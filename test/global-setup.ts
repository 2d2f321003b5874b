// Before the suites run: builds dist/ (so tests of the built output see the current sources; tsc 7 takes under
// a second), then makes sure the default sample world exists and was written by this generator version.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  const { ensureSampleWorld } = (await import(new URL('../dist/datasets/sample-world.js', import.meta.url).href)) as typeof import('../datasets/sample-world.js');
  await ensureSampleWorld(undefined, (line) => process.stdout.write(`${line}\n`));
}

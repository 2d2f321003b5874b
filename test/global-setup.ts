// Builds dist/ once before the suites run, so tests of the built output (bin/propintel.js, the pool loading
// dist/workers) always see the current sources. tsc 7 builds the project in well under a second.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}

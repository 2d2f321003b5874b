/**
 * Reference tools some tests check our readers against (ogr2ogr, osmium). Where a tool is missing the test
 * skips, naming why; under `.ci/run` (PROPINTEL_CI=1, which installs the tools first) a missing tool fails the
 * test instead, so CI always runs these comparisons.
 */
import { spawnSync } from 'node:child_process';

/** Why `tool` cannot be used here ('' when it runs). Throws under PROPINTEL_CI when it does not. */
export function missingTool(tool: string, args: string[], install: string): string {
  if (spawnSync(tool, args, { encoding: 'utf8' }).status === 0) return '';
  const why = `${tool} is not installed (apt-get install ${install})`;
  if (process.env.PROPINTEL_CI) throw new Error(`${why}: .ci/run installs it, and CI runs this comparison`);
  return why;
}

/**
 * Skips that say why. `needs(ctx, missing)` skips a test naming what it lacks, except under `.ci/run`
 * (PROPINTEL_CI=1), which installs the tools CI is to run the test with (PostgreSQL, Chromium, poppler, nginx,
 * GDAL, osmium, python3; `missingTool` says whether a command-line one runs): there a missing tool fails the
 * test instead of letting it pass as a skip.
 * `needsRealdata(ctx, file, name)` skips when a ../shared/realdata file is absent, in CI too (a clean checkout
 * has none), naming the file.
 */
import { spawnSync } from 'node:child_process';
import type { TestContext } from 'vitest';

/** True under `.ci/run`. */
export const inCi = (): boolean => !!process.env.PROPINTEL_CI;

/** Skips (or, under PROPINTEL_CI, fails) the test when `missing` names something it lacks; '' goes on. */
export function needs(ctx: Pick<TestContext, 'skip'>, missing: string | undefined): void {
  if (!missing) return;
  if (inCi()) throw new Error(`${missing}: .ci/run installs it, so CI runs this test rather than skip it`);
  ctx.skip(missing);
}

/** Skips the test when the realdata file `name` is absent (`file` null), naming it. */
export function needsRealdata(ctx: Pick<TestContext, 'skip'>, file: string | null, name: string): asserts file is string {
  if (!file) ctx.skip(`../shared/realdata/${name} is absent (set PROPINTEL_REALDATA to its folder)`);
}

/** Why command-line tool `tool` cannot be used here ('' when `tool args` runs), for {@link needs}. */
export function missingTool(tool: string, args: string[], install: string): string {
  return spawnSync(tool, args, { encoding: 'utf8' }).status === 0 ? '' : `${tool} is not installed (apt-get install ${install})`;
}

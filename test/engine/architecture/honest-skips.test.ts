// Skips that say why (issue 38): no test is switched off by a bare condition (`it.runIf`, `skipIf`), every
// dynamic skip names its reason, and under .ci/run a tool CI installs being missing fails instead of skipping.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { needs, needsRealdata } from '../../helpers/skip.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? testFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('honest skips', () => {
  const files = testFiles(root).filter((f) => !f.endsWith('honest-skips.test.ts'));

  it('no test or suite is skipped by a bare condition, and every ctx.skip names its reason', () => {
    const bare: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const name = relative(root, f);
      for (const m of text.matchAll(/\b(?:it|test|describe)\.(?:runIf|skipIf|skip)\b/g)) bare.push(`${name}: ${m[0]}`);
      for (const m of text.matchAll(/\bctx\.skip\(\s*\)/g)) bare.push(`${name}: ${m[0]} without a reason`);
    }
    expect(bare).toEqual([]);
    // The scan reads the tree it guards: the helpers' own uses are there to be found.
    expect(files.some((f) => readFileSync(f, 'utf8').includes('needsRealdata(ctx'))).toBe(true);
  });

  describe('needs()', () => {
    const saved = process.env.PROPINTEL_CI;
    afterEach(() => {
      if (saved === undefined) delete process.env.PROPINTEL_CI;
      else process.env.PROPINTEL_CI = saved;
    });
    const fakeCtx = () => {
      const notes: (string | undefined)[] = [];
      return { notes, ctx: { skip: ((note?: string) => { notes.push(note); throw new Error('skipped'); }) as never } };
    };

    it('goes on when nothing is missing, in CI or not', () => {
      const { ctx, notes } = fakeCtx();
      delete process.env.PROPINTEL_CI;
      needs(ctx, '');
      process.env.PROPINTEL_CI = '1';
      needs(ctx, undefined);
      expect(notes).toEqual([]);
    });

    it('skips naming what is missing outside CI, and fails the test under .ci/run', () => {
      const { ctx, notes } = fakeCtx();
      delete process.env.PROPINTEL_CI;
      expect(() => needs(ctx, 'no Chromium at /usr/bin/chromium')).toThrow('skipped');
      expect(notes).toEqual(['no Chromium at /usr/bin/chromium']);
      process.env.PROPINTEL_CI = '1';
      expect(() => needs(ctx, 'no Chromium at /usr/bin/chromium')).toThrow(/no Chromium at \/usr\/bin\/chromium: \.ci\/run installs it/);
      expect(notes).toHaveLength(1);
    });

    it('skips an absent realdata file by its name, in CI too (a clean checkout has none)', () => {
      const { ctx, notes } = fakeCtx();
      process.env.PROPINTEL_CI = '1';
      expect(() => needsRealdata(ctx, null, 'dem/x.tif')).toThrow('skipped');
      expect(notes[0]).toMatch(/^\.\.\/shared\/realdata\/dem\/x\.tif is absent/);
      expect(() => needsRealdata(ctx, '/some/file.tif', 'dem/x.tif')).not.toThrow();
    });
  });
});

/**
 * Profiles read from files and gathered into cases, as the ISO/TR 17534-4 test profiles are named:
 * `<case>_<path>.json` with path `Direct`, `Left`, `Right` or `Reflection...`, and `<case>_<Left|Right>_Curved.json`
 * the lateral path of favourable conditions. A case given whole (its Direct file among those given) gets its
 * total: every path's long-term level summed, and A-weighted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { invalidArgument } from '../../errors.js';
import { longTermLevel, pathLevels, sumLevels, type PathConditions, type PathLevels } from './path.js';
import { readCutProfile, type CutProfile } from './profile.js';

/** One file's path levels. */
export interface FileLevels extends PathLevels {
  file: string;
}

/** One case's total, per band. */
export interface CaseResult {
  case: string;
  paths: string[];
  L: number[];
  LA: number[];
}

const NAME = /^(.+?)_(Direct|Left|Right|Reflection\w*?)(_Curved)?\.json$/;

/** The case and path a file name says, or null. */
export function caseFiles(file: string): { name: string; path: string; curved: boolean } | null {
  const m = NAME.exec(basename(file));
  return m ? { name: m[1], path: m[2], curved: !!m[3] } : null;
}

function readProfile(file: string): CutProfile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw invalidArgument('file', `${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw invalidArgument('file', `${file}: not JSON (${(err as Error).message})`);
  }
  return readCutProfile(doc, file);
}

/**
 * Each file's LH and LF (a lateral path's LF from its `_Curved` sibling when there is one), and the total of
 * each case given whole, for `conditions` and probability of favourable conditions `p`.
 */
export function profileFileLevels(files: readonly string[], conditions: PathConditions = {}, p = 0.5): { paths: FileLevels[]; cases: CaseResult[] } {
  const paths: FileLevels[] = [];
  const byCase = new Map<string, { key: string; levels: PathLevels }[]>();
  for (const file of files) {
    const profile = readProfile(file);
    const named = caseFiles(file);
    let favourable = profile;
    if (named && !named.curved && (named.path === 'Left' || named.path === 'Right')) {
      const sibling = join(dirname(file), `${named.name}_${named.path}_Curved.json`);
      if (existsSync(sibling)) favourable = readProfile(sibling);
    }
    const levels = pathLevels(profile, conditions, favourable);
    paths.push({ file, ...levels });
    if (named && !named.curved) byCase.set(named.name, [...(byCase.get(named.name) ?? []), { key: named.path, levels }]);
  }
  const cases: CaseResult[] = [];
  for (const [name, list] of byCase) {
    if (!list.some((x) => x.key === 'Direct')) continue;
    const { L, LA } = sumLevels(list.map((x) => longTermLevel(x.levels, p)));
    cases.push({ case: name, paths: list.map((x) => x.key), L, LA });
  }
  return { paths, cases };
}

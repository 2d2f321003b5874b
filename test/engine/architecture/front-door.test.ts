// One front door (issue 38): the server, the command line and the benchmarks use the engine only through its
// public entries, `propintel` (engine/index.ts) and its subpaths (engine/entry/*.ts), which package.json
// exports, so what they use is what an internal service importing the package can use.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../helpers/import-graph.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const entries = ['index.ts', ...readdirSync(join(root, 'engine', 'entry')).filter((f) => f.endsWith('.ts')).map((f) => `entry/${f}`)];

/** The engine modules each file of `dir` imports (paths relative to engine/), by file. */
function engineImports(dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [file, deps] of importGraph(root, [dir])) {
    out.set(file, deps.filter((d) => d.startsWith('engine/')).map((d) => d.slice('engine/'.length)));
  }
  return out;
}

describe('the front door', () => {
  for (const dir of ['server', 'cli', 'bench']) {
    it(`${dir}/ imports the engine only through its public entries`, () => {
      const imports = engineImports(dir);
      // The scan sees the tree: every one of these folders uses the engine.
      expect([...imports.values()].some((deps) => deps.length > 0), dir).toBe(true);
      const through: string[] = [];
      for (const [file, deps] of imports) for (const d of deps) if (!entries.includes(d)) through.push(`${file} -> engine/${d}`);
      expect(through).toEqual([]);
    });
  }

  it('the CLI starts without loading the engine: nothing cli/main.ts imports statically reaches engine/runtime/engine.ts', () => {
    // Commands load lazily (import() in cli/main.ts); `propintel version` and `--help` must stay a fraction of
    // a second, which loading the engine through `propintel` (1 s) would not.
    const graph = importGraph(root, ['cli', 'engine', 'server'], { runtimeOnly: true });
    const seen = new Set<string>();
    const stack = ['cli/main.ts', 'cli/run-command.ts', 'cli/commands/version.ts'];
    while (stack.length) {
      const m = stack.pop()!;
      if (seen.has(m)) continue;
      seen.add(m);
      stack.push(...(graph.get(m) ?? []));
    }
    expect(seen.size).toBeGreaterThan(3);
    expect([...seen].filter((m) => m === 'engine/runtime/engine.ts' || m === 'engine/index.ts')).toEqual([]);
  });

  it('every entry is a subpath the package exports, built to dist/', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { default: string; types: string }> };
    for (const e of entries) {
      const sub = e === 'index.ts' ? '.' : `./${e.slice('entry/'.length, -3)}`;
      expect(pkg.exports[sub], `package.json exports ${sub}`).toEqual({ types: `./dist/engine/${e.replace(/\.ts$/, '.d.ts')}`, default: `./dist/engine/${e.replace(/\.ts$/, '.js')}` });
    }
  });

  it('the entries only re-export: no code of their own to drift from what they name', () => {
    for (const e of entries.filter((x) => x !== 'index.ts')) {
      const code = readFileSync(join(root, 'engine', e), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      const statements = code.split(';').map((x) => x.trim()).filter(Boolean);
      expect(statements.filter((x) => !/^export\s+(type\s+)?\{[^}]*\}\s+from\s+'[^']+'$/.test(x)), e).toEqual([]);
    }
  });
});

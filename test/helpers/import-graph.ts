/** The static import graph of a source tree (relative imports of .ts files; type-only imports included unless `runtimeOnly`). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/**
 * Module (path relative to `root`) -> the modules of `root` it imports; with `only`, the modules of those
 * folders of `root` (their imports may lead anywhere in `root`).
 */
export function importGraph(root: string, only?: readonly string[], options: { runtimeOnly?: boolean } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of only ? only.flatMap((d) => files(join(root, d))) : files(root)) {
    const text = readFileSync(f, 'utf8');
    const deps = new Set<string>();
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g)) {
      // With runtimeOnly, what is loaded when the module runs: `import type` and `export type` are erased.
      if (options.runtimeOnly && /^\s*(?:import|export)\s+type\s/.test(m[0])) continue;
      const target = resolve(dirname(f), m[1].replace(/\.js$/, '.ts'));
      deps.add(relative(root, target));
    }
    graph.set(relative(root, f), [...deps].filter((d) => !d.startsWith('..')));
  }
  return graph;
}

/** The strongly connected components with more than one module (import cycles), each sorted. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>(), low = new Map<string, number>(), on = new Set<string>(), stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(c.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/**
 * What one property lookup did, path by path: how many records each data path returned, which sources they
 * came from, and which lookups failed. `meta.coverage_status`, `meta.attribution`, `meta.source_currency` and
 * `completeness` are generated from this log and the catalogue, never written by hand per response.
 */
import type { PayloadPath } from '../../catalogue/payload-paths.js';

/** The outcome of one data path. */
export interface PathOutcome {
  count: number;
  failed: boolean;
  /** An empty result stays `not_assessed` (DAs and schools, spec 3). */
  emptyIsNotAssessed: boolean;
  /** Sources whose records this path returned. */
  sources: Set<string>;
}

/** The lookup log of one response. */
export class LookupLog {
  readonly paths = new Map<string, PathOutcome>();
  /** Sources whose geometry was delivered, by geometry kind (`cadastre`, `planning`, ...). */
  readonly geometry = new Map<string, Set<string>>();
  /** Failed component names (spec 7 `degraded_components`), e.g. `planning.zone`, `scores.flood`. */
  readonly degraded = new Set<string>();

  /** Records a completed lookup of `path` that returned `sources` (one entry per record). */
  record(path: PayloadPath | string, sources: readonly string[], options: { emptyIsNotAssessed?: boolean } = {}): void {
    const o = this.outcome(path);
    o.count += sources.length;
    for (const s of sources) o.sources.add(s);
    if (options.emptyIsNotAssessed) o.emptyIsNotAssessed = true;
  }

  /** Records a failed lookup of `path` (the component is degraded). */
  fail(path: PayloadPath | string, component: string = path): void {
    this.outcome(path).failed = true;
    this.degraded.add(component);
  }

  /** Records delivered geometry of `source` under credit `kind`. */
  geometryFrom(kind: string, source: string): void {
    const set = this.geometry.get(kind) ?? new Set<string>();
    set.add(source);
    this.geometry.set(kind, set);
  }

  /** Every source that contributed records, with the paths it fed. */
  usedSources(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const [path, o] of this.paths) {
      for (const s of o.sources) {
        const set = out.get(s) ?? new Set<string>();
        set.add(path);
        out.set(s, set);
      }
    }
    return out;
  }

  private outcome(path: string): PathOutcome {
    let o = this.paths.get(path);
    if (!o) this.paths.set(path, (o = { count: 0, failed: false, emptyIsNotAssessed: false, sources: new Set() }));
    return o;
  }
}

/**
 * One matcher for the route table's path templates (issue 50): `/v1/das/{id}`, `/v1/webhooks/{id}/test`,
 * `/api/v1/tiles/{layer}/{z}/{x}/{y}.mvt`. A template is split at `/`; a segment is literal or a parameter,
 * optionally followed by a literal suffix (`{y}.mvt`). A path matches when it has as many segments, every literal
 * equal and every parameter non-empty (and ending with its suffix). An exact path wins; then the template with
 * the most literal segments (so `/api/v1/tiles/terrain/{z}/{x}/{y}.png` before `/api/v1/tiles/{layer}/...`).
 */

type Segment = { literal: string } | { param: string; suffix: string };

interface Compiled<T> {
  template: string;
  segments: Segment[];
  literals: number;
  value: T;
}

/** A path's match: the value registered with its template, and the parameters' raw (undecoded) text. */
export interface PathMatch<T> {
  template: string;
  value: T;
  params: Record<string, string>;
}

function compile<T>(template: string, value: T): Compiled<T> {
  const segments = template.split('/').map((s): Segment => {
    const m = /^\{(\w+)\}(.*)$/.exec(s);
    return m ? { param: m[1], suffix: m[2] } : { literal: s };
  });
  return { template, segments, literals: segments.filter((s) => 'literal' in s).length, value };
}

export class PathMatcher<T> {
  private readonly exact = new Map<string, T>();
  private readonly bySegments = new Map<number, Compiled<T>[]>();

  /** Registers `template` (a path with `{name}` parameters, or a plain path). */
  add(template: string, value: T): this {
    if (!template.includes('{')) {
      this.exact.set(template, value);
      return this;
    }
    const c = compile(template, value);
    const list = this.bySegments.get(c.segments.length) ?? [];
    list.push(c);
    list.sort((a, b) => b.literals - a.literals);
    this.bySegments.set(c.segments.length, list);
    return this;
  }

  /** The value of a plain path exactly as registered (templates included as their text). */
  get(path: string): T | undefined {
    return this.exact.get(path);
  }

  /** The match of `path`, or null. */
  match(path: string): PathMatch<T> | null {
    const hit = this.exact.get(path);
    if (hit !== undefined) return { template: path, value: hit, params: {} };
    const parts = path.split('/');
    for (const c of this.bySegments.get(parts.length) ?? []) {
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const s = c.segments[i], p = parts[i];
        if ('literal' in s) ok = p === s.literal;
        else if (p.length > s.suffix.length && p.endsWith(s.suffix)) params[s.param] = p.slice(0, p.length - s.suffix.length);
        else ok = false;
      }
      if (ok) return { template: c.template, value: c.value, params };
    }
    return null;
  }
}

/**
 * The guides (docs/*.md) served as HTML beside the API reference: `/api/v1/docs` links to each at
 * `/api/v1/docs/{name}`, so a client reading the reference on a running server finds the same guides as a
 * reader of the repository. Markdown is rendered by marked; links between guides become links between these
 * pages (README.md's becomes the reference page), links into the source tree and images (which the server
 * does not serve) keep their text only. Headings get GitHub's anchors, so `operators.md#...` links land.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { PACKAGE_ROOT } from '../../engine/entry/version.js';
import { escapeHtml } from '../../engine/entry/runtime.js';

export { GUIDES, guidePath, type GuideName } from '../api/guides.js';
import { GUIDES, guidePath, type GuideName } from '../api/guides.js';

/** Where the guides are: the package's docs/ folder (shipped with it). */
export const GUIDES_DIR = join(PACKAGE_ROOT, 'docs');


/** GitHub's anchor of a heading's text. */
export const headingSlug = (text: string): string => text.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');

const guideOf = (file: string): GuideName | null => {
  const name = file.replace(/\.md$/, '');
  return (GUIDES as readonly string[]).includes(name) ? (name as GuideName) : null;
};

/** A link of a guide as served: another guide's page, the reference, an outside address, or none. */
export function servedHref(href: string): string | null {
  if (/^(https?:|mailto:)/i.test(href) || href.startsWith('#')) return href;
  const [path, anchor] = href.split('#');
  const file = path.split('/').pop() ?? '';
  const hash = anchor ? `#${anchor}` : '';
  if (/^(\.\.\/)?README\.md$/.test(path)) return `/api/v1/docs${hash}`;
  if (!path.includes('/') || path.startsWith('./')) {
    const g = guideOf(file);
    if (g) return `${guidePath(g)}${hash}`;
  }
  return null;
}

const PLAIN_TEXT = /<[^>]+>/g;

function renderer(): Marked {
  const seen = new Map<string, number>();
  return new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, { tokens, depth, text }: Tokens.Heading) {
        const base = headingSlug(text.replace(PLAIN_TEXT, '').replace(/`/g, ''));
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        const id = n ? `${base}-${n}` : base;
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, { href, title, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens);
        const to = servedHref(href);
        if (to === null) return inner;
        return `<a href="${escapeHtml(to)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;
      },
      image({ text }: Tokens.Image) {
        return `<em>[${escapeHtml(text)}: see the image in the repository's docs/]</em>`;
      },
    },
  });
}

const STYLE = `body{font:15px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:56rem;padding:1rem 1.5rem;color:#1b1f23}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:1px solid #d0d7de}h3{margin-top:1.6rem}
code,pre{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f3f4f6;border-radius:3px}code{padding:0 .25em}pre{padding:.75rem;overflow:auto}pre code{padding:0}
table{border-collapse:collapse;margin:.75rem 0}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f6f8fa}
nav{font-size:.9em;color:#57606a;border-bottom:1px solid #d0d7de;padding-bottom:.5rem}`;

/** The guides' titles (each file's first `# ` heading), for the reference page's list. */
export function guideTitles(dir = GUIDES_DIR): { name: GuideName; title: string; path: string }[] {
  if (!existsSync(dir)) return [];
  return GUIDES.filter((g) => existsSync(join(dir, `${g}.md`))).map((name) => {
    const first = /^# (.+)$/m.exec(readFileSync(join(dir, `${name}.md`), 'utf8'));
    return { name, title: first ? first[1].trim() : name, path: guidePath(name) };
  });
}

/** One guide as a self-contained HTML page, or null when the package holds no such guide. */
export function renderGuidePage(name: GuideName, dir = GUIDES_DIR): string | null {
  const file = join(dir, `${name}.md`);
  if (!existsSync(file)) return null;
  const md = readFileSync(file, 'utf8');
  const title = /^# (.+)$/m.exec(md)?.[1].trim() ?? name;
  // The guide's own navigation line (a Markdown link list under the title) is replaced by the page's.
  const body = md.replace(/^\[propintel\]\(\.\.\/README\.md\)[^\n]*\n/m, '');
  const nav = guideTitles(dir).map((g) => (g.name === name ? `<strong>${escapeHtml(g.title)}</strong>` : `<a href="${g.path}">${escapeHtml(g.title)}</a>`));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}: propintel</title>
<style>
${STYLE}
</style></head><body>
<nav><a href="/api/v1/docs">API reference</a> · ${nav.join(' · ')}</nav>
${renderer().parse(body, { async: false }) as string}
</body></html>
`;
}

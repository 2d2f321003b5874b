// The documentation's shape (issue 38): a README a newcomer reads first (under 300 lines: what it is, the two
// commands, a tour of the folders, links), the guides in docs/, every guide listed by the README, and every
// relative link of every page landing on a file and heading that exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOC_PAGES } from '../helpers/docs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pages = ['README.md', ...DOC_PAGES.map((p) => `docs/${p}`)];
const text = (p: string) => readFileSync(join(root, p), 'utf8');

/** GitHub's anchor of a heading. */
const slug = (h: string) => h.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
const anchors = (p: string) => new Set([...text(p).matchAll(/^#{1,4} (.+)$/gm)].map((m) => slug(m[1])));

describe('the documentation', () => {
  it('keeps the README under 300 lines and lists every guide in docs/', () => {
    const readme = text('README.md');
    expect(readme.split('\n').length).toBeLessThan(300);
    const onDisk = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort();
    expect(onDisk).toEqual([...DOC_PAGES].sort());
    for (const p of DOC_PAGES) expect(readme, `README links docs/${p}`).toContain(`](docs/${p})`);
  });

  it('has no relative link to a missing file or heading', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const p of pages) {
      for (const m of text(p).matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1];
        if (/^[a-z]+:/.test(link)) continue;
        const [path, anchor] = link.split('#');
        const target = path ? normalize(join(dirname(p), path)) : p;
        checked++;
        if (!existsSync(join(root, target))) broken.push(`${p}: ${link} (no such file)`);
        else if (anchor && target.endsWith('.md') && !anchors(target).has(anchor)) broken.push(`${p}: ${link} (no such heading)`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });
});

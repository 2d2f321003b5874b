/**
 * The user documentation as one text: README.md, then the guides in docs/ in reading order. Tests that run or
 * quote the documentation's examples read this, so a guide can move between pages without a test losing it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUIDES } from '../../server/openapi/guide-pages.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The guides in docs/, in reading order: the ones the server serves (README.md's table lists the same). */
export const DOC_PAGES = GUIDES.map((g) => `${g}.md`);

/** README.md and every guide, in order. */
export function readDocs(): string {
  return [readFileSync(join(root, 'README.md'), 'utf8'), ...DOC_PAGES.map((p) => readFileSync(join(root, 'docs', p), 'utf8'))].join('\n\n');
}

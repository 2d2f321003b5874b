/** Locates ../shared/realdata (or $PROPINTEL_REALDATA); tests that use it skip cleanly when it is absent. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const dir = process.env.PROPINTEL_REALDATA ?? fileURLToPath(new URL('../../../shared/realdata', import.meta.url));

/** Absolute path of a realdata file, or null when it is not present on this machine. */
export function realdata(relative: string): string | null {
  const p = join(dir, relative);
  return existsSync(p) ? p : null;
}

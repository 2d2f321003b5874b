/**
 * Headless Chromium for tests that look at a page as a user would: Debian's `chromium` driven by
 * `puppeteer-core`. `openBrowser()` answers why it cannot (for the test to skip naming it) instead of failing
 * where Chromium is not installed. `PROPINTEL_CHROMIUM` points at another binary.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';

/** The Chromium binary tests use. */
export const CHROMIUM = process.env.PROPINTEL_CHROMIUM ?? '/usr/bin/chromium';

/** A launched browser, or the reason there is none. */
export async function openBrowser(): Promise<{ browser: Browser } | { missing: string }> {
  if (!existsSync(CHROMIUM)) return { missing: `no Chromium at ${CHROMIUM} (apt-get install chromium, or set PROPINTEL_CHROMIUM)` };
  let launch: (typeof import('puppeteer-core'))['default']['launch'];
  try {
    const mod = await import('puppeteer-core');
    launch = mod.default.launch.bind(mod.default);
  } catch {
    return { missing: 'puppeteer-core is not installed (npm ci installs it as a dev dependency)' };
  }
  const browser = await launch({
    executablePath: CHROMIUM,
    headless: true,
    // --no-sandbox: CI and this machine run tests as root, where Chromium's sandbox cannot start.
    // --enable-unsafe-swiftshader: WebGL (the map) on the software renderer, opted into as Chromium asks
    // (it warns on every page otherwise); the pages are the tests' own.
    args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-extensions', '--no-first-run', '--mute-audio'],
  });
  return { browser };
}

/**
 * Registers hooks that open Chromium before the enclosing describe's tests and close it after; the returned
 * object holds the browser, or why there is none (for `ctx.skip(state.missing)`).
 */
export function useBrowser(): { browser?: Browser; missing: string } {
  const state: { browser?: Browser; missing: string } = { missing: '' };
  beforeAll(async () => {
    const b = await openBrowser();
    if ('missing' in b) state.missing = b.missing;
    else state.browser = b.browser;
  }, 60_000);
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}

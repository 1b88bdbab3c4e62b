import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// The browser the browser suites drive (the site's, test/support/site.ts, and browser.test.ts):
// Debian's build of Chromium, through playwright-core.
//
// By default its headless shell (`chromium-headless-shell`, Chromium's "old headless": the same
// Blink and V8 as the `chromium` package, without the desktop browser around them), as
// Playwright itself runs headless Chromium: the site's suites took half the browser's CPU there
// (site-account: 72 CPU-seconds against 140 in `chromium --headless`, docs/testing.md). Without it,
// the full `chromium`; CHROMIUM_PATH names another build.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_BROWSER = '/usr/bin/chromium';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) || !existsSync(FULL_BROWSER) ? HEADLESS_SHELL : FULL_BROWSER);
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM && process.env.CI) {
  throw new Error(`Chromium is not at ${CHROMIUM}: .ci/run installs it (apt-get install -y chromium-headless-shell), or set CHROMIUM_PATH.`);
}

// playwright-core adds --headless and a fresh --user-data-dir of its own to every launch.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless browser for one test file (closed by the file). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 30_000 });
}

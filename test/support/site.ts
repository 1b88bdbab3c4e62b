import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import type { TestUser } from './api.ts';
import { launchChromium } from './chromium.ts';
import { useApi, type ApiFixture, type ApiFixtureOptions } from './fixture.ts';

export { HAVE_CHROMIUM } from './chromium.ts';

// The site's end-to-end suites: one stack (the API and the built site on one origin, as `npm
// start` serves them) and one Debian Chromium per file (chromium.ts); each test opens a browser
// context of its own, so the tests of a file run side by side. Tests find things as a person does, by role and
// accessible name (the names are the site's contract, docs/site.md); nothing here knows how the
// app is built.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ARTIFACTS = `${ROOT}test-results/site/`;
/** Where the screenshots of docs/site.md (and the README's) live; the tests write them there with UPDATE_SCREENSHOTS=1. */
const DOC_SCREENSHOTS = `${ROOT}docs/screenshots/`;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 740 };

/** What went wrong in a page while a test used it: script errors and Content-Security-Policy violations. */
export interface Problems {
  errors: string[];
  csp: string[];
  dialogs: string[];
}

export interface SitePage {
  page: Page;
  context: BrowserContext;
  problems: Problems;
  /** An absolute URL of the site for a path (`/posts/x`). */
  url(path: string): string;
  /** The page's path and query, as a person reads it in the address bar. */
  path(): string;
}

export interface SiteFixture<Name extends string> {
  api: ApiFixture<Name>;
  /** The site's origin, `http://127.0.0.1:<port>`. */
  origin(): string;
  /** A fresh browser context (no token, no storage) with one page, closed after the test. */
  open(options?: { viewport?: { width: number; height: number }; bypassCSP?: boolean; colorScheme?: 'light' | 'dark' }): Promise<SitePage>;
  close(page: SitePage): Promise<void>;
}

/** Marks, in the page before any of its own scripts, every CSP violation; CDP's init scripts are not subject to the page's CSP. */
const WATCH_CSP = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(event.violatedDirective + ' ' + (event.blockedURI || '') + ' ' + (event.sample || ''));
  });
`;

/** A file's stack with the built site and its browser; settings as useApi takes them. */
export function useSite<const Name extends string = never>(options: ApiFixtureOptions<Name> = {}): SiteFixture<Name> {
  // A browser test walks through several pages beside the file's other tests (describe.concurrent)
  // and the other worker's file: on a loaded 2-core machine one took 55 s of the default 60. The
  // timeout is there to stop a hung test, not to measure one: the browser suites get three minutes
  // (set per file: a test process runs several files, and vitest resets the setting after each).
  vi.setConfig({ testTimeout: 180_000 });
  beforeAll(() => {
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  // The site as `npm start` serves it (the run's global setup built web/dist when it was stale).
  const api = useApi({ siteRoot: `${ROOT}web/dist`, ...options });
  let browser: Browser | undefined;
  const contexts = new Set<BrowserContext>();
  beforeAll(async () => {
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });
  const origin = () => new URL(api.url).origin;

  return {
    api,
    origin,
    async open({ viewport = DESKTOP, bypassCSP = false, colorScheme = 'light' } = {}) {
      if (!browser) throw new Error('the browser is not started');
      const context = await browser.newContext({ viewport, bypassCSP, colorScheme });
      contexts.add(context);
      context.setDefaultTimeout(15_000);
      const problems: Problems = { errors: [], csp: [], dialogs: [] };
      await context.addInitScript(WATCH_CSP);
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.errors.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        const text = message.text();
        if (/Content Security Policy/i.test(text)) problems.csp.push(text);
        else if (message.type() === 'error' && !isExpectedHttpError(text)) problems.errors.push(`console: ${text}`);
      });
      page.on('dialog', (dialog) => {
        problems.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss().catch(() => undefined);
      });
      return {
        page,
        context,
        problems,
        url: (path: string) => `${origin()}${path}`,
        path: () => {
          const url = new URL(page.url());
          return `${url.pathname}${url.search}`;
        },
      };
    },
    async close(site: SitePage) {
      contexts.delete(site.context);
      await site.context.close();
    },
  };
}

/**
 * Chromium logs every 4xx a fetch receives ("Failed to load resource: ... 404"): the site reads
 * 404s (an unknown post) and 400s (field errors) on purpose, so these lines are not faults.
 */
function isExpectedHttpError(text: string): boolean {
  return /Failed to load resource: the server responded with a status of 4\d\d/.test(text);
}

/** The CSP violations the page itself saw (the init script's record), with those the console reported. */
export async function cspViolations(site: SitePage): Promise<string[]> {
  const seen = await site.page.evaluate(() => (window.__cspViolations as string[] | undefined) ?? []).catch(() => []);
  return [...site.problems.csp, ...seen];
}

/** No script error, no CSP violation, no dialog while the test used the page. */
export async function expectNoProblems(site: SitePage): Promise<void> {
  expect(site.problems.errors, 'script errors').toEqual([]);
  expect(await cspViolations(site), 'CSP violations').toEqual([]);
  expect(site.problems.dialogs, 'dialogs').toEqual([]);
}

// Landmarks and controls, by the roles and names the site promises.
export const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main', exact: true });
export const main = (page: Page) => page.getByRole('main');
export const pagination = (page: Page) => page.getByRole('navigation', { name: 'Pagination', exact: true });
export const link = (scope: Page | Locator, name: string) => scope.getByRole('link', { name, exact: true });
export const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
export const field = (scope: Page | Locator, name: string) => scope.getByLabel(name, { exact: true });
export const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
/** The articles of a list of posts, in the page's main landmark. */
export const articles = (page: Page) => main(page).getByRole('article');

/** Waits until the page's main landmark shows its one h1 (the app has rendered the page). */
export async function ready(page: Page): Promise<void> {
  // The server's HTML shows the h1 before the app runs: wait for the app to have taken over.
  await page.locator('#app[data-app="running"]').waitFor({ state: 'attached' });
  await main(page).waitFor();
  await h1(page).first().waitFor();
}

/** Opens a path of the site and waits for its h1. */
export async function visit(site: SitePage, path: string): Promise<void> {
  await site.page.goto(site.url(path));
  await ready(site.page);
}

/** Polls a value until it matches (the app answers after its API calls). */
export async function eventually<T>(read: () => Promise<T>, matcher: (value: T) => boolean, message = 'condition', timeout = 15_000): Promise<T> {
  const until = Date.now() + timeout;
  let value = await read();
  while (!matcher(value)) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${message}; last value: ${JSON.stringify(value)}`);
    await new Promise((done) => setTimeout(done, 100));
    value = await read();
  }
  return value;
}

/** Waits until the address bar shows this path (and query), then for the new page's h1. */
export async function atPath(site: SitePage, expected: string | RegExp): Promise<void> {
  await eventually(
    async () => site.path(),
    (path) => (typeof expected === 'string' ? path === expected : expected.test(path)),
    `the path ${String(expected)}`,
  );
  await ready(site.page);
}

/** The text of a locator once it contains `text`. */
export async function shows(locator: Locator, text: string | RegExp): Promise<void> {
  await eventually(
    async () => (await locator.count()) > 0 && ((await locator.first().textContent()) ?? ''),
    (value) => typeof value === 'string' && (typeof text === 'string' ? value.includes(text) : text.test(value)),
    `text ${String(text)}`,
  );
}

/** Logs in through the login form (from wherever the page is) and waits for the header to show the user. */
export async function logIn(site: SitePage, user: Pick<TestUser, 'username' | 'password'>, from = '/login'): Promise<void> {
  if (from) await visit(site, from);
  const form = main(site.page);
  await field(form, 'Username').fill(user.username);
  await field(form, 'Password').fill(user.password);
  await button(form, 'Log in').click();
  // Attached, not necessarily visible: on a phone the header's links may sit behind a menu button.
  await site.page
    .getByRole('navigation', { name: 'Main', exact: true, includeHidden: true })
    .getByRole('link', { name: user.username, exact: true, includeHidden: true })
    .waitFor({ state: 'attached' });
}

/** The page's document title once the app has set one naming `subject`. */
export async function titleNames(page: Page, subject: string): Promise<string> {
  return eventually(
    () => page.title(),
    (title) => title.includes(subject),
    `a title naming ${subject}`,
  );
}

/**
 * One h1 on the page, with this text (or containing it). Polled: just after a link is followed, the
 * new page may still be loading what its h1 names (none yet, a "Loading…" status instead).
 */
export async function oneH1(page: Page, text?: string | RegExp): Promise<void> {
  await ready(page);
  if (text !== undefined) await shows(h1(page), text);
  await eventually(
    () => h1(page).count(),
    (count) => count === 1,
    'one h1 element',
  );
}

// The functions given to page.evaluate run in the page: the browser's globals, which this Node.js
// project has no types for.
declare const window: any;
declare const document: any;

let axeSource: string | undefined;

/**
 * axe-core's serious and critical violations on the page as it is. The page's CSP forbids inline
 * scripts, so axe is not added as a script tag: its source is evaluated through the DevTools
 * protocol (page.evaluate), which the CSP does not govern; the page keeps its real CSP.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(`${ROOT}node_modules/axe-core/axe.min.js`, 'utf8');
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    return (await window.axe.run(document, { resultTypes: ['violations'] })) as {
      violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
    };
  });
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/**
 * What a page owes every visitor, as a list of faults (empty when all is well), so one pass over
 * many pages reports them all: one h1, a document title naming `subject` (or any title), and no
 * serious or critical axe violation.
 */
export async function pageFaults(page: Page, path: string, subject: string): Promise<string[]> {
  const faults: string[] = [];
  await ready(page);
  const h1s = await h1(page).count();
  if (h1s !== 1) faults.push(`${path}: ${h1s} h1 elements (${(await h1(page).allTextContents()).join(' | ')})`);
  const title = await eventually(
    () => page.title(),
    (t) => (subject ? t.includes(subject) : t !== ''),
    'a title',
    5_000,
  ).catch(async () => `!${await page.title()}`);
  if (title.startsWith('!')) faults.push(`${path}: the title "${title.slice(1)}" does not name "${subject}"`);
  faults.push(...(await axeViolations(page)).map((fault) => `${path}: ${fault}`));
  return faults;
}

/** A screenshot of what the viewport shows: into test-results/site/, and into docs/screenshots/ with UPDATE_SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const image = await page.screenshot({ fullPage: false });
  writeFileSync(`${ARTIFACTS}${name}.png`, image);
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(DOC_SCREENSHOTS, { recursive: true });
    writeFileSync(`${DOC_SCREENSHOTS}${name}.png`, image);
  }
}

/** The page is no wider than its viewport (nothing to scroll sideways). */
export async function fitsWidth(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, 'page width').toBeLessThanOrEqual(client);
}

/** Presses Tab until the focused element is the one the locator finds (at most `limit` times). */
export async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  const handle = await target.elementHandle();
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((element) => document.activeElement === element, handle)) return;
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

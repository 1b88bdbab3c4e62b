import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '#lib/auth/create-account.ts';
import { openApiDocument } from '#lib/openapi/document.ts';
import { startServer } from '../../scripts/local/server.ts';
import { targetOptions, unique } from '../support/api.ts';
import { HAVE_CHROMIUM, launchChromium } from '../support/chromium.ts';
import { useApi } from '../support/fixture.ts';

// A real browser (Debian's Chromium, driven by playwright-core): a page served from another
// origin logs in and lists posts with fetch and the Authorization header, which only works if
// the API answers the CORS preflight and exposes its headers; and the docs page renders every
// operation, logs in and tries an authenticated call. Screenshots go to test-results/.

const ARTIFACTS = fileURLToPath(new URL('../../test-results/', import.meta.url));
/** In the page: its script has shown a result. */
const FINISHED = "!document.getElementById('status').textContent.startsWith('loading')";

/** The other origin's page: logs in, lists posts, shows what it got (or the error). */
function clientPage(config: { api: string; username: string; password: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another origin</title>
<style>body{font:16px system-ui;margin:2rem} #status{font-weight:bold} li{margin:.2rem 0} code{word-break:break-all}</style></head>
<body>
<h1>Posts, fetched from another origin</h1>
<p>API: <code id="api"></code></p>
<p id="status">loading…</p>
<p>Link header readable: <code id="link"></code></p>
<ol id="posts"></ol>
<script>
const config = ${JSON.stringify(config)};
document.getElementById('api').textContent = config.api;
(async () => {
  const status = document.getElementById('status');
  try {
    const login = await fetch(config.api + '/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: config.username, password: config.password }),
    });
    const { token } = await login.json();
    const list = await fetch(config.api + '/posts?sort=newest&page_size=3', { headers: { Authorization: 'Token ' + token } });
    const posts = await list.json();
    document.getElementById('link').textContent = list.headers.get('Link') || '(none)';
    for (const post of posts) {
      const item = document.createElement('li');
      item.textContent = post.title + ' by ' + post.author;
      document.getElementById('posts').append(item);
    }
    status.textContent = 'ok: ' + list.status + ', ' + posts.length + ' posts';
  } catch (error) {
    status.textContent = 'error: ' + error;
  }
})();
</script>
</body></html>`;
}

describe.skipIf(!HAVE_CHROMIUM)('in a real browser', () => {
  const api = useApi({ users: ['author'] });
  let browser: Browser;
  let origin: Server;
  let originUrl: string;
  let page: Page;
  const username = unique('browser');
  const password = 'correct horse battery';
  const titles: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await createUser(username, password);
    const { author } = api.users;
    for (let i = 1; i <= 4; i++) {
      const title = `Browser post ${i} ${unique('')}`;
      titles.push(title);
      const created = await author.api.post('/posts', { form: { title, description: `Post **${i}**`, publish: 'true' } });
      expect(created.status).toBe(201);
    }
    // The other origin: same machine, another port.
    // `?api=<url>` points the page at another gateway than the test's.
    origin = createServer((request, response) => {
      const target = new URL(request.url ?? '/', 'http://origin').searchParams.get('api') ?? api.url;
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(clientPage({ api: target, username, password }));
    });
    await new Promise<void>((done) => origin.listen(0, '127.0.0.1', done));
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => (origin ? origin.close(done) : done(undefined)));
  });

  const newPage = async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
    problems.length = 0;
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    return page;
  };
  afterEach(async () => {
    await page?.close();
  });

  /** The status of the response Swagger UI shows after "Execute". */
  const liveStatus = async (operation: ReturnType<Page['locator']>) => {
    const cell = operation.locator('.live-responses-table tbody .response-col_status').first();
    await cell.waitFor();
    return (await cell.textContent())?.trim().slice(0, 3);
  };

  it('logs in and lists posts from a page on another origin (CORS with the Authorization header)', async () => {
    await newPage();
    await page.goto(originUrl);
    await page.waitForFunction(FINISHED);
    expect(await page.textContent('#status')).toBe('ok: 200, 3 posts');
    const listed = await page.locator('#posts li').allTextContents();
    expect(listed).toEqual(
      titles
        .slice(1)
        .reverse()
        .map((title) => expect.stringContaining(title)),
    );
    // Link is readable by the page only because the API exposes it.
    expect(await page.textContent('#link')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/api\/v1\/posts\?.*cursor=.*>; rel="next"$/);
    await page.screenshot({ path: `${ARTIFACTS}browser-cors.png`, fullPage: true });
    expect(problems).toEqual([]);
  });

  it('is refused by the browser when the origin is not allowed (the headers make the difference)', async () => {
    // The same table behind a gateway whose CORS settings allow another origin only.
    const strict = await startServer({ port: 0, ...targetOptions(), allowedOrigins: ['https://somewhere-else.example'] });
    try {
      await newPage();
      await page.goto(`${originUrl}?api=${encodeURIComponent(strict.url)}`);
      await page.waitForFunction(FINISHED);
      expect(await page.textContent('#status')).toMatch(/^error: TypeError/);
      await page.screenshot({ path: `${ARTIFACTS}browser-cors-refused.png`, fullPage: true });
    } finally {
      await strict.close();
    }
  });

  it('renders every operation on the docs page, and logs in and calls the API from it', async () => {
    const operationCount = Object.values(openApiDocument().paths as Record<string, object>).reduce((sum, item) => sum + Object.keys(item).length, 0);
    await newPage();
    await page.goto(`${api.url}/docs`);
    await page.waitForSelector('.opblock');
    expect(await page.locator('.opblock').count()).toBe(operationCount);
    expect(await page.textContent('.info .title')).toContain('Community Posts API');
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    for (const path of ['/login', '/posts', '/posts/detail/{slug}', '/users/detail/{username}', '/openapi.json']) {
      expect(paths.map((p) => p.replace(/\u200b/g, ''))).toContain(path);
    }
    await expect(page.locator('.btn.authorize').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}docs-page.png`, fullPage: false });

    // POST /login, tried out on the page: the page authorizes itself with the new token.
    const login = page.locator('#operations-Authentication-login');
    await login.locator('.opblock-summary').first().click();
    await login.locator('button.try-out__btn').click();
    await login.locator('textarea.body-param__text').fill(JSON.stringify({ username, password }));
    await login.locator('button.execute').click();
    expect(await liveStatus(login)).toBe('200');

    // GET /auth, tried out next: it succeeds with the token from the login.
    const check = page.locator('#operations-Authentication-checkAuth');
    await check.locator('.opblock-summary').first().click();
    await check.locator('button.try-out__btn').click();
    await check.locator('button.execute').click();
    expect(await liveStatus(check)).toBe('200');
    expect(await check.locator('.live-responses-table tbody .response-col_description').first().textContent()).toContain(username);
    await check.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}docs-try-it-out.png`, fullPage: false });
    expect(problems).toEqual([]);
  });
});

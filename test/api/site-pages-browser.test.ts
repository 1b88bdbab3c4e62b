import { beforeAll, describe, expect, it } from 'vitest';
import { createPost, unique } from '../support/api.ts';
import { HAVE_CHROMIUM, expectNoProblems, link, logIn, main, ready, useSite, type SitePage } from '../support/site.ts';

// The app taking over a page the server rendered (docs/site.md, "Pages for crawlers and link
// previews"), in Chromium with the real CSP: a MutationObserver installed before any of the
// page's own scripts records every removal of main's h1 and every "Loading…" that appears, for
// a visitor and for a reader logged in; and the head follows the app's own navigation.

/** Installed before the page's scripts: what happens to `main h1` and any "Loading…" while the app takes over. */
const WATCH = `
  window.__takeover = { removedH1: 0, loading: 0 };
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.removedNodes) {
        if (node.nodeType === 1 && (node.matches('main h1') || node.querySelector?.('h1')) && record.target.closest?.('main')) window.__takeover.removedH1++;
        if (node.nodeType === 1 && node.tagName === 'MAIN') window.__takeover.removedH1++;
      }
      for (const node of record.addedNodes) {
        if ((node.textContent || '').includes('Loading')) window.__takeover.loading++;
      }
      if (record.type === 'characterData' && (record.target.data || '').includes('Loading')) window.__takeover.loading++;
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

const describeInBrowser = HAVE_CHROMIUM ? describe : describe.skip;

describeInBrowser('the app over the server-rendered pages', () => {
  const site = useSite({ users: ['alice'], apiEnvironment: { PUBLIC_READS: 'true' } });
  let post: { slug: string; title: string };
  let other: { slug: string; title: string };

  beforeAll(async () => {
    const { alice } = site.api.users;
    post = await createPost(alice.api, {
      title: unique('Server first '),
      description: '## Part\n\nText with a [link](/tags).',
      tags: 'Takeover',
      publish: 'true',
    });
    other = await createPost(alice.api, { title: unique('Another page '), description: 'More.', publish: 'true' });
  });

  async function takeover(page: SitePage, path: string) {
    await page.page.goto(page.url(path));
    await ready(page.page);
    // Whatever the app loads after it runs (the reader's view, related posts, comments) has come.
    await page.page.waitForLoadState('networkidle');
    return page.page.evaluate(() => (globalThis as unknown as { __takeover: { removedH1: number; loading: number } }).__takeover);
  }

  /** Puts a link in `main` that the app follows itself (a client-side navigation), as a link in a post's text would be. */
  const addLink = (page: SitePage, path: string, name: string) =>
    page.page.evaluate(`(() => {
      const anchor = document.createElement('a');
      anchor.href = ${JSON.stringify(path)};
      anchor.textContent = ${JSON.stringify(name)};
      document.querySelector('main').append(anchor);
    })()`);

  for (const loggedIn of [false, true]) {
    it(`keeps the server's content while the app takes over (${loggedIn ? 'logged in' : 'a visitor'})`, async () => {
      const page = await site.open();
      if (loggedIn) await logIn(page, site.api.users.alice);
      await page.context.addInitScript(WATCH);
      for (const path of [`/posts/${post.slug}`, '/', '/tags', '/tags/takeover', `/users/${site.api.users.alice.username}`]) {
        const seen = await takeover(page, path);
        expect(seen, path).toEqual({ removedH1: 0, loading: 0 });
      }
      // The reader's own parts came: logged in, the author sees Edit.
      await takeover(page, `/posts/${post.slug}`);
      if (loggedIn) await link(main(page.page), 'Edit').waitFor();
      await expectNoProblems(page);
      await site.close(page);
    });
  }

  it('follows client navigation in the head', async () => {
    const page = await site.open();
    await takeover(page, `/posts/${post.slug}`);
    await link(main(page.page), site.api.users.alice.username).first().click();
    await page.page.waitForURL(`**/users/${site.api.users.alice.username}`);
    await expect.poll(() => page.page.title()).toBe(`${site.api.users.alice.username} · Community Posts`);
    expect(await page.page.locator('link[rel="canonical"]').getAttribute('href')).toBe(page.url(`/users/${site.api.users.alice.username}`));
    await main(page.page).getByRole('link', { name: other.title, exact: true }).click();
    await expect.poll(() => page.page.title()).toBe(`${other.title} · Community Posts`);
    expect(await page.page.locator('meta[property="og:title"]').getAttribute('content')).toBe(other.title);
    expect(await page.page.locator('link[rel="canonical"]').getAttribute('href')).toBe(page.url(`/posts/${other.slug}`));
    await expectNoProblems(page);
    await site.close(page);
  });

  it("follows a link to a renamed post's old slug: the API's 404 makes the app load the address as a full page, the server's 301 ends on the post", async () => {
    const { alice } = site.api.users;
    const renamed = await createPost(alice.api, { title: unique('Before the rename '), description: 'Moved.', publish: 'true' });
    const now = (await alice.api.put(`/posts/detail/${renamed.slug}`, { form: { title: unique('After the rename ') } })).body as {
      slug: string;
      title: string;
    };
    const page = await site.open();
    await takeover(page, '/tags');
    await addLink(page, `/posts/${renamed.slug}`, 'the old address');
    await page.page.getByRole('link', { name: 'the old address' }).click();
    await page.page.waitForURL(`**/posts/${now.slug}`);
    await expect.poll(() => main(page.page).getByRole('heading', { level: 1 }).textContent()).toBe(now.title);
    // A post that is gone: the full load answers 404 once, and the app stays on "Page not found".
    await addLink(page, '/posts/no-such-post-at-all', 'a missing post');
    let loads = 0;
    page.page.on('load', () => (loads += 1));
    const loaded = page.page.waitForEvent('load');
    await page.page.getByRole('link', { name: 'a missing post' }).click();
    await loaded;
    await expect.poll(() => main(page.page).getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await ready(page.page);
    await page.page.waitForLoadState('networkidle');
    expect(loads).toBe(1);
    expect(page.page.url()).toBe(page.url('/posts/no-such-post-at-all'));
    await site.close(page);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { SITE_SECURITY_HEADERS } from '#lib/site/headers.ts';
import { createUser } from '#lib/auth/create-account.ts';
import { createPost, unique, type ApiClient } from '../support/api.ts';
import {
  HAVE_CHROMIUM,
  PHONE,
  articles,
  atPath,
  axeViolations,
  button,
  eventually,
  expectNoProblems,
  h1,
  field,
  fitsWidth,
  link,
  logIn,
  main,
  mainNav,
  oneH1,
  pageFaults,
  pagination,
  ready,
  screenshot,
  shows,
  tabTo,
  titleNames,
  useSite,
  visit,
  type SitePage,
} from '../support/site.ts';

// The site as a visitor without an account reads it when public reads are on (PUBLIC_READS=true):
// lists with sort tabs, pages and search, a post, tags, an author and their favorites, the pages
// that do not exist, and what every page owes (one h1, a title naming its subject, no serious
// accessibility fault, the real CSP unbroken). The world is seeded through the API; the tests
// only read it, side by side, each in a browser context of its own.

const PAGE_SIZE = 20;
const AUTHOR = 'ada';
const PASSWORD = 'correct horse battery';
/** The titles of the author's first 23 posts, oldest first. */
const TOPICS = [
  'Cold starts, measured',
  'Single-table design in practice',
  'Streams feeding a search index',
  'Paging with cursors',
  'Caching public reads',
  'Tokens in the browser',
  'Markdown, safely',
  'What Lambda costs us',
  'Slugs that never change',
  'Counting views once',
  'Rate limits for logins',
  'Tags as titles',
  'Drafts and publishing',
  'Votes without double counting',
  'Favorites at scale',
  'Related posts by shared tags',
  'Feeds for readers',
  'Deploying with CDK',
  'Alarms worth waking for',
  'Logs you can query',
  'Testing against DynamoDB Local',
  'A site on the same origin',
  'Keeping the bundle small',
];
const PAGED = TOPICS.length;

describe.skipIf(!HAVE_CHROMIUM)('the site to a visitor, public reads on', () => {
  const site = useSite({ users: ['bob', 'carol', 'dave'], apiEnvironment: { PUBLIC_READS: 'true' } });
  const mark = unique('').toLowerCase();
  // Each file has a table of its own: plain names and titles (docs/site.md's screenshots show them).
  const tagTitle = 'Tides';
  const word = 'quokkas';
  let alice = { username: AUTHOR, password: PASSWORD, api: undefined as unknown as ApiClient };
  const w = { tag: '', guide: { slug: '', title: '' }, sibling: { slug: '', title: '' }, voted: { slug: '', title: '' }, total: 0 };

  // After useSite's hooks: the stack and its users exist.
  beforeAll(async () => {
    const { bob } = site.api.users;
    await createUser(AUTHOR, PASSWORD);
    const login = await site.api.client().post('/login', { json: { username: AUTHOR, password: PASSWORD } });
    alice = { username: AUTHOR, password: PASSWORD, api: site.api.client(login.body.token) };
    const paged = [];
    for (let i = 1; i <= PAGED; i++) {
      const topic = TOPICS[i - 1] ?? `Note ${i}`;
      paged.push(
        await createPost(alice.api, {
          title: topic,
          description: `Notes on **${topic.toLowerCase()}**: what we measured, what we changed, what we would do again.`,
          publish: 'true',
        }),
      );
    }
    w.voted = paged[4];
    expect((await bob.api.post(`/posts/detail/${w.voted.slug}/vote`, { form: { vote: 'up' } })).status).toBe(200);
    w.sibling = await createPost(alice.api, {
      title: 'Reading the tide tables',
      description: 'Low and high water, twice a day.',
      tags: tagTitle,
      publish: 'true',
    });
    w.guide = await createPost(alice.api, {
      title: "A visitor's guide to the harbour",
      description: `# Welcome\n\nA **bold** start, \`code\`, a [link](https://example.com/) and the word ${word}.\n\n- one\n- two\n`,
      tags: `${tagTitle}, Harbour`,
      keywords: 'guide',
      publish: 'true',
    });
    await createPost(alice.api, { title: 'Secret draft', description: 'not for visitors' });
    expect((await alice.api.post(`/posts/detail/${w.sibling.slug}/favorite`)).status).toBe(200);
    w.tag = (await alice.api.get('/tags', { query: { q: tagTitle } })).body[0].slug;
    w.total = PAGED + 2;
    // The search index follows the table's stream: wait until the guide is found.
    await eventually(
      async () => (await site.api.client().get('/posts', { query: { q: word } })).body?.length ?? 0,
      (n) => n === 1,
      'the search index',
    );
  }, 120_000);

  /** A page of its own for the test, closed (and checked for problems) after `run`. */
  const withPage = async (run: (page: SitePage) => Promise<void>, options?: Parameters<typeof site.open>[0]) => {
    const page = await site.open(options);
    try {
      await run(page);
      await expectNoProblems(page);
    } finally {
      await site.close(page);
    }
  };

  const headingLinks = (s: SitePage) => articles(s.page).getByRole('heading').getByRole('link');

  describe.concurrent('pages', () => {
    it('lists the published posts newest first, 20 a page, with "Page N of M", Next and Previous', () =>
      withPage(async (s) => {
        await visit(s, '/');
        await eventually(
          () => articles(s.page).count(),
          (n) => n === PAGE_SIZE,
          '20 articles',
        );
        expect(await headingLinks(s).first().textContent()).toBe(w.guide.title);
        expect(await headingLinks(s).first().getAttribute('href')).toBe(`/posts/${w.guide.slug}`);
        // Every article: its heading links to the post; the draft is nowhere.
        for (const href of await headingLinks(s).evaluateAll((links) => links.map((a) => a.getAttribute('href'))))
          expect(href).toMatch(/^\/posts\/[a-z0-9-]+$/);
        expect(await main(s.page).textContent()).not.toContain('Secret draft');
        expect(await articles(s.page).first().textContent()).toContain(alice.username);

        const paging = pagination(s.page);
        await shows(paging, 'Page 1 of 2');
        expect(await link(paging, 'Previous').count()).toBe(0);
        expect(await paging.getByRole('link', { name: /^(Page )?2$/ }).count()).toBe(1);
        await link(paging, 'Next').click();
        await atPath(s, '/?page=2');
        await eventually(
          () => articles(s.page).count(),
          (n) => n === w.total - PAGE_SIZE,
          'the last page',
        );
        await shows(pagination(s.page), 'Page 2 of 2');
        expect(await link(pagination(s.page), 'Next').count()).toBe(0);
        expect(await headingLinks(s).last().textContent()).toBe(TOPICS[0]);
        await link(pagination(s.page), 'Previous').click();
        await atPath(s, /^\/(\?page=1)?$/);
        await eventually(
          () => articles(s.page).count(),
          (n) => n === PAGE_SIZE,
          'the first page again',
        );
        // An article shows its excerpt (the description made plain, view=summary).
        await shows(articles(s.page).first(), `Welcome A bold start, code, a link and the word ${word}.`);
      }));

    it('switches sort tabs, the current one with aria-current="page"', () =>
      withPage(async (s) => {
        await visit(s, '/');
        const tabs = ['Newest', 'Featured', 'Views', 'Votes', 'Active'];
        const current = async () => {
          const names = [];
          for (const tab of tabs) if ((await link(main(s.page), tab).getAttribute('aria-current')) === 'page') names.push(tab);
          return names;
        };
        await eventually(current, (names) => names.join() === 'Newest', 'Newest current');
        for (const tab of tabs.slice(1)) {
          await link(main(s.page), tab).click();
          await atPath(s, `/?sort=${tab.toLowerCase()}`);
          await eventually(current, (names) => names.join() === tab, `${tab} current`);
        }
        // Votes: the post bob voted up comes first.
        await link(main(s.page), 'Votes').click();
        await atPath(s, '/?sort=votes');
        await eventually(
          async () => (await headingLinks(s).count()) > 0 && (await headingLinks(s).first().textContent()),
          (t) => t === w.voted.title,
          'the voted post first',
        );
      }));

    it('searches from the header of any page and lists the matches at /?q=...', () =>
      withPage(async (s) => {
        await visit(s, `/tags/${w.tag}`);
        const search = s.page.getByRole('search').first();
        await field(search, 'Search').fill(word);
        await button(search, 'Search').click();
        await atPath(s, new RegExp(`^/\\?(.*&)?q=${word}(&.*)?$`));
        await eventually(
          () => articles(s.page).count(),
          (n) => n === 1,
          'one match',
        );
        expect(await headingLinks(s).first().textContent()).toBe(w.guide.title);
      }));

    it("lists tags, and one tag's posts on its page", () =>
      withPage(async (s) => {
        await visit(s, '/');
        await link(mainNav(s.page), 'Tags').click();
        await atPath(s, '/tags');
        await oneH1(s.page);
        // A tag's link may also show its count of posts.
        await main(s.page).getByRole('link', { name: tagTitle }).first().click();
        await atPath(s, `/tags/${w.tag}`);
        await oneH1(s.page, tagTitle);
        await titleNames(s.page, tagTitle);
        await eventually(
          async () => (await headingLinks(s).allTextContents()).sort().join('|'),
          (t) => t === [w.guide.title, w.sibling.title].sort().join('|'),
          "the tag's two posts",
        );
      }));

    it("shows an author's page from a post, and their favorites", () =>
      withPage(async (s) => {
        await visit(s, `/posts/${w.guide.slug}`);
        await link(main(s.page), alice.username).first().click();
        await atPath(s, `/users/${alice.username}`);
        await oneH1(s.page, alice.username);
        await titleNames(s.page, alice.username);
        await eventually(
          () => articles(s.page).count(),
          (n) => n === PAGE_SIZE,
          'her posts, one page of them',
        );
        await link(main(s.page), 'Favorites').click();
        await atPath(s, `/users/${alice.username}/favorites`);
        await oneH1(s.page, `Favorites of ${alice.username}`);
        await eventually(
          () => headingLinks(s).allTextContents(),
          (t) => t.join() === w.sibling.title,
          'her favorite',
        );
      }));

    it('shows a post: title, author, tags, rendered Markdown, counts and related posts', () =>
      withPage(async (s) => {
        await visit(s, `/posts/${w.guide.slug}`);
        await shows(h1(s.page), w.guide.title);
        await titleNames(s.page, w.guide.title);
        const body = main(s.page);
        await link(body, alice.username).first().waitFor();
        expect(await body.getByRole('link', { name: tagTitle }).first().getAttribute('href')).toBe(`/tags/${w.tag}`);
        // The Markdown, rendered: strong text, inline code, a list, a link; not its source.
        await body.locator('strong', { hasText: 'bold' }).waitFor();
        expect(await body.locator('code', { hasText: 'code' }).count()).toBeGreaterThan(0);
        expect(await body.getByRole('listitem').filter({ hasText: 'two' }).count()).toBeGreaterThan(0);
        expect(await link(body, 'link').getAttribute('href')).toBe('https://example.com/');
        expect(await body.textContent()).not.toContain('**bold**');
        for (const name of ['Vote up', 'Vote down', 'Favorite']) expect(await button(body, name).getAttribute('aria-pressed'), name).toBe('false');
        // No Edit or Delete for a visitor.
        expect(await link(body, 'Edit').count()).toBe(0);
        expect(await button(body, 'Delete').count()).toBe(0);
        const related = s.page.getByRole('region', { name: 'Related posts', exact: true });
        await link(related, w.sibling.title).waitFor();
        // The description's own "# Welcome" must not make a second h1.
        await oneH1(s.page, w.guide.title);
      }));

    it('says "No related posts" when there are none', () =>
      withPage(async (s) => {
        await visit(s, `/posts/${w.voted.slug}`);
        await shows(s.page.getByRole('region', { name: 'Related posts', exact: true }), 'No related posts');
      }));

    it('shows a failed load of the related posts as an error with "Retry", never as "No related posts"', () =>
      withPage(async (s) => {
        // The connection drops for the first read of the related posts only.
        let dropped = 0;
        await s.page.route(
          (url) => url.pathname.endsWith('/related'),
          async (route) => {
            if (dropped++ === 0) await route.abort('internetdisconnected');
            else await route.continue();
          },
        );
        await visit(s, `/posts/${w.guide.slug}`);
        const related = s.page.getByRole('region', { name: 'Related posts', exact: true });
        await shows(related.getByRole('alert'), /cannot reach the server/);
        expect(await related.textContent()).not.toContain('No related posts');
        expect(await related.getByRole('link').count()).toBe(0);
        expect(await axeViolations(s.page)).toEqual([]);
        // Chromium logs the dropped request; that line is this test's doing.
        s.problems.errors = s.problems.errors.filter((line) => !/ERR_INTERNET_DISCONNECTED/.test(line));
        await button(related, 'Retry').click();
        await link(related, w.sibling.title).waitFor();
        expect(await related.getByRole('alert').count()).toBe(0);
        expect(dropped).toBe(2);
      }));

    it('shows a failed load of the Markdown renderer as an error with "Retry" that loads it again', () =>
      withPage(async (s) => {
        // The renderer's chunk fails to load once; the browser keeps a failed import, so the retry is a request of its own.
        const asked: string[] = [];
        await s.page.route(
          (url) => /^\/assets\/markdown-[\w-]+\.js$/.test(url.pathname),
          async (route) => {
            asked.push(new URL(route.request().url()).pathname);
            if (asked.length === 1) await route.abort('internetdisconnected');
            else await route.continue();
          },
        );
        await visit(s, `/posts/${w.guide.slug}`);
        const body = main(s.page);
        await shows(body.getByRole('alert'), 'This text cannot be shown');
        // The rest of the page is there (the comments, loaded after the post, too); the body is
        // an error, not an empty busy block.
        await button(body, 'Vote up').waitFor();
        await body.locator('.comments-loading').waitFor({ state: 'detached' });
        expect(await body.locator('[aria-busy="true"]').count()).toBe(0);
        expect(await body.locator('strong', { hasText: 'bold' }).count()).toBe(0);
        expect(await axeViolations(s.page)).toEqual([]);
        expect(asked).toHaveLength(1);
        s.problems.errors = s.problems.errors.filter((line) => !/ERR_INTERNET_DISCONNECTED|dynamically imported module/.test(line));
        await button(body, 'Retry').click();
        await body.locator('strong', { hasText: 'bold' }).waitFor();
        expect(await body.getByRole('alert').count()).toBe(0);
        expect(asked).toHaveLength(2);
        await oneH1(s.page, w.guide.title);
      }));

    it('sends a visitor who presses Vote up to /login, and back to the post after logging in', () =>
      withPage(async (s) => {
        const { bob } = site.api.users;
        await visit(s, `/posts/${w.sibling.slug}`);
        await button(main(s.page), 'Vote up').click();
        await atPath(s, /^\/login(\?.*)?$/);
        await logIn(s, bob, '');
        await atPath(s, `/posts/${w.sibling.slug}`);
        await oneH1(s.page, w.sibling.title);
      }));

    it('logs in from the header\'s "Log in" and comes back to the page', () =>
      withPage(async (s) => {
        const { carol } = site.api.users;
        await visit(s, `/tags/${w.tag}`);
        await link(mainNav(s.page), 'Log in').click();
        await atPath(s, /^\/login(\?.*)?$/);
        await logIn(s, carol, '');
        await atPath(s, `/tags/${w.tag}`);
        for (const name of ['My posts', 'Settings']) await link(mainNav(s.page), name).waitFor();
      }));

    it('signs up from the header\'s "Sign up" and comes back to the page', () =>
      withPage(async (s) => {
        const username = unique('reader');
        await visit(s, `/users/${alice.username}`);
        await link(mainNav(s.page), 'Sign up').click();
        await atPath(s, /^\/signup(\?.*)?$/);
        const form = main(s.page);
        await field(form, 'Username').fill(username);
        await field(form, 'Password').fill('a reader of tides 9');
        await button(form, 'Sign up').click();
        await link(mainNav(s.page), username).waitFor();
        await atPath(s, `/users/${alice.username}`);
      }));

    it('forgets a token that died elsewhere and shows the page as to a visitor', () =>
      withPage(async (s) => {
        const { dave } = site.api.users;
        await logIn(s, dave);
        // A password change elsewhere ends every other token, this browser's too.
        const changed = await dave.api.post(`/users/detail/${dave.username}/password`, {
          json: { old_password: dave.password, new_password: 'another fine secret 7' },
        });
        expect(changed.status).toBe(200);
        await visit(s, `/posts/${w.sibling.slug}`);
        await oneH1(s.page, w.sibling.title);
        await link(mainNav(s.page), 'Log in').waitFor();
        expect(await link(mainNav(s.page), dave.username).count()).toBe(0);
        await s.page.reload();
        await ready(s.page);
        await link(mainNav(s.page), 'Log in').waitFor();
      }));

    it('shows "Page not found" for unknown paths and for an unknown post, tag or user', () =>
      withPage(async (s) => {
        for (const path of [
          '/no/such/page',
          '/posts/no-such-post-' + mark,
          '/tags/no-such-tag-' + mark,
          '/users/nosuchuser' + mark,
          '/users/nosuchuser' + mark + '/favorites',
        ]) {
          const response = await s.page.goto(s.url(path));
          // The server knows these are not pages (404); a user's favorites are the app's to find out.
          expect(response?.status(), path).toBe(path.endsWith('/favorites') ? 200 : 404);
          await ready(s.page);
          await shows(s.page.getByRole('heading', { level: 1 }), 'Page not found');
          expect(await s.page.getByRole('heading', { level: 1 }).count(), path).toBe(1);
          await titleNames(s.page, 'Page not found');
        }
      }));

    it('works at 360 px: the lists and a post fit the width; screenshots of both widths', () =>
      withPage(
        async (s) => {
          await visit(s, '/');
          await eventually(
            () => articles(s.page).count(),
            (n) => n === PAGE_SIZE,
            'the list',
          );
          await fitsWidth(s.page);
          await screenshot(s.page, 'home-360');
          await headingLinks(s).first().click();
          await atPath(s, `/posts/${w.guide.slug}`);
          await main(s.page).locator('strong', { hasText: 'bold' }).waitFor();
          await fitsWidth(s.page);
          await screenshot(s.page, 'post-360');
        },
        { viewport: PHONE },
      ));

    it('screenshots the home page and a post at 1280 px', () =>
      withPage(async (s) => {
        await visit(s, '/');
        await eventually(
          () => articles(s.page).count(),
          (n) => n === PAGE_SIZE,
          'the list',
        );
        await fitsWidth(s.page);
        await screenshot(s.page, 'home-1280');
        await visit(s, `/posts/${w.guide.slug}`);
        await s.page.getByRole('region', { name: 'Related posts', exact: true }).getByRole('link').first().waitFor();
        await screenshot(s.page, 'post-1280');
      }));

    it('is usable with the keyboard alone: a post from the list, then the tags', () =>
      withPage(async (s) => {
        await visit(s, '/');
        await eventually(
          () => articles(s.page).count(),
          (n) => n === PAGE_SIZE,
          'the list',
        );
        await tabTo(s.page, headingLinks(s).first());
        await s.page.keyboard.press('Enter');
        await atPath(s, `/posts/${w.guide.slug}`);
        await tabTo(s.page, link(mainNav(s.page), 'Tags'));
        await s.page.keyboard.press('Enter');
        await atPath(s, '/tags');
      }));
  });

  describe.concurrent('every page', () => {
    // Every page a visitor can open, and what its title must name.
    const pages = () => [
      { path: '/', names: '' },
      { path: '/?page=2', names: '' },
      { path: '/?sort=votes', names: '' },
      { path: `/?q=${word}`, names: word },
      { path: `/posts/${w.guide.slug}`, names: w.guide.title },
      { path: '/tags', names: 'Tags' },
      { path: `/tags/${w.tag}`, names: tagTitle },
      { path: `/users/${alice.username}`, names: alice.username },
      { path: `/users/${alice.username}/favorites`, names: alice.username },
      { path: '/login', names: 'Log in' },
      { path: '/signup', names: 'Sign up' },
      { path: '/no/such/page', names: 'Page not found' },
    ];

    it('has one h1, a title naming its subject, and no serious or critical axe violation', () =>
      withPage(async (s) => {
        const faults: string[] = [];
        for (const { path, names } of pages()) {
          await visit(s, path);
          // Lists: wait for their posts, so axe sees the page a person sees.
          if (path.startsWith('/?') || path === '/')
            await eventually(
              () => articles(s.page).count(),
              (n) => n > 0,
              `posts on ${path}`,
            );
          faults.push(...(await pageFaults(s.page, path, names)));
        }
        expect(faults).toEqual([]);
      }));

    it('at 360 px too: no serious or critical axe violation', () =>
      withPage(
        async (s) => {
          const faults: string[] = [];
          for (const path of ['/', `/posts/${w.guide.slug}`, '/tags', '/login']) {
            await visit(s, path);
            faults.push(...(await axeViolations(s.page)).map((fault) => `${path}: ${fault}`));
          }
          expect(faults).toEqual([]);
        },
        { viewport: PHONE },
      ));

    it("answers deep links with 200 and the app, and unknown API paths with the API's JSON 404", async () => {
      const origin = site.origin();
      for (const path of [
        '/',
        `/posts/${w.guide.slug}`,
        `/posts/${w.guide.slug}/edit`,
        '/write',
        '/tags',
        `/tags/${w.tag}`,
        `/users/${alice.username}`,
        '/me/posts',
        '/login',
        '/signup',
        '/settings/profile',
        '/settings/password',
        '/no/such/page',
      ]) {
        const response = await fetch(`${origin}${path}`);
        expect(response.status, path).toBe(path === '/no/such/page' ? 404 : 200);
        expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
        const html = await response.text();
        expect(html, path).toMatch(/<html[^>]* lang="en"/);
      }
      const api = await fetch(`${origin}/api/v1/no-such-route`);
      expect(api.status).toBe(404);
      expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('is served with the security headers (the CSP without inline script or eval)', async () => {
      const response = await fetch(`${site.origin()}/posts/${w.guide.slug}`);
      for (const [name, value] of Object.entries(SITE_SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    });

    it('serves robots.txt, a favicon and announces the RSS feed', () =>
      withPage(async (s) => {
        const robots = await fetch(s.url('/robots.txt'));
        expect(robots.status).toBe(200);
        expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await robots.text()).toMatch(/User-agent:/i);

        await visit(s, '/');
        const icon = await s.page.locator('link[rel~="icon"]').first().getAttribute('href');
        const favicon = await fetch(new URL(icon ?? '/favicon.ico', s.url('/')));
        expect(favicon.status).toBe(200);
        expect(favicon.headers.get('content-type')).toMatch(/^image\//);

        const feed = s.page.locator('link[rel="alternate"][type="application/rss+xml"]');
        expect(await feed.count()).toBeGreaterThan(0);
        const rss = await fetch(new URL((await feed.first().getAttribute('href')) ?? '', s.url('/')));
        expect(rss.status).toBe(200);
        expect(await rss.text()).toContain('guide to the harbour');
      }));

    it('honours prefers-color-scheme: dark pages for a dark preference, without axe violations', async () => {
      const colors = async (colorScheme: 'light' | 'dark') => {
        let seen = { background: '', color: '', faults: [] as string[] };
        await withPage(
          async (s) => {
            await visit(s, `/posts/${w.guide.slug}`);
            const style = await s.page.evaluate(
              '(() => { const s = getComputedStyle(document.body); return { background: s.backgroundColor, color: s.color }; })()',
            );
            seen = { ...(style as { background: string; color: string }), faults: await axeViolations(s.page) };
          },
          { colorScheme },
        );
        return seen;
      };
      const [light, dark] = [await colors('light'), await colors('dark')];
      expect(dark.background).not.toBe(light.background);
      expect(dark.color).not.toBe(light.color);
      expect(dark.faults).toEqual([]);
    });

    it('keeps the header navigation of a visitor: Posts, Tags, Write, Log in, Sign up', () =>
      withPage(async (s) => {
        await visit(s, '/');
        for (const name of ['Posts', 'Tags', 'Write', 'Log in', 'Sign up']) await link(mainNav(s.page), name).waitFor();
        for (const name of ['My posts', 'Settings']) expect(await link(mainNav(s.page), name).count(), name).toBe(0);
        expect(await button(mainNav(s.page), 'Log out').count()).toBe(0);
      }));
  });
});

import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPost, unique } from '../support/api.ts';
import {
  DESKTOP,
  HAVE_CHROMIUM,
  PHONE,
  articles,
  atPath,
  axeViolations,
  button,
  eventually,
  expectNoProblems,
  field,
  fitsWidth,
  link,
  logIn,
  main,
  mainNav,
  oneH1,
  pageFaults,
  ready,
  screenshot,
  shows,
  tabTo,
  titleNames,
  useSite,
  visit,
  type SitePage,
} from '../support/site.ts';

// The site for people with an account, public reads off (the default): signing up, logging in
// (back to the page they came from) and out, writing with a preview, publishing, drafts, editing
// and deleting, voting and favoriting another's post, the settings forms, the API's own words for
// every refusal, and the keyboard alone. Each test uses users of its own, so they run side by side.

const PASSWORD = 'correct horse battery';

describe.skipIf(!HAVE_CHROMIUM)('the site with an account, public reads off', () => {
  const site = useSite({ users: ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'kate'] });
  const mark = unique('').toLowerCase();
  const w = { published: { slug: '', title: '' }, draft: { slug: '', title: '' }, voted: { slug: '', title: '' } };

  beforeAll(async () => {
    const { alice, carol } = site.api.users;
    w.published = await createPost(alice.api, { title: `Published ${mark}`, description: 'Out in the **open**.', tags: `Open ${mark}`, publish: 'true' });
    w.draft = await createPost(alice.api, { title: `Draft ${mark}`, description: 'Not yet.' });
    w.voted = await createPost(alice.api, { title: `Vote on me ${mark}`, description: 'Votes welcome.', publish: 'true' });
    expect((await carol.api.post(`/posts/detail/${w.voted.slug}/vote`, { form: { vote: 'up' } })).status).toBe(200);
  }, 120_000);

  const withPage = async (run: (page: SitePage) => Promise<void>, options?: Parameters<typeof site.open>[0]) => {
    const page = await site.open(options);
    try {
      await run(page);
      await expectNoProblems(page);
    } finally {
      await site.close(page);
    }
  };

  /** The text around a control (its parent), where its count is shown. */
  const besides = async (s: SitePage, name: string) => (await button(main(s.page), name).locator('xpath=..').textContent()) ?? '';
  const countBeside = async (s: SitePage, name: string) => Number(/(\d+)/.exec((await besides(s, name)).replace(name, ''))?.[1] ?? NaN);

  describe.concurrent('flows', () => {
    it('asks a visitor to log in or sign up, and after logging in shows the deep link they opened', () =>
      withPage(async (s) => {
        const { bob } = site.api.users;
        await s.page.goto(s.url('/'));
        await ready(s.page);
        for (const name of ['Log in', 'Sign up']) await link(mainNav(s.page), name).waitFor();
        const asks = main(s.page)
          .getByRole('link', { name: /^(Log in|Sign up)$/ })
          .or(main(s.page).getByRole('button', { name: 'Log in', exact: true }));
        await asks.first().waitFor();
        expect(await articles(s.page).count()).toBe(0);
        expect(await main(s.page).textContent()).not.toContain(w.published.title);

        // The deep link either leads to /login at once or asks to log in where it is.
        await s.page.goto(s.url(`/posts/${w.published.slug}`));
        await eventually(
          async () => /^\/login(\?.*)?$/.test(s.path()) || (await main(s.page).getByRole('link', { name: 'Log in', exact: true }).count()) > 0,
          (v) => v,
          'a way to log in',
        );
        if (!s.path().startsWith('/login')) await main(s.page).getByRole('link', { name: 'Log in', exact: true }).click();
        await atPath(s, /^\/login(\?.*)?$/);
        await logIn(s, bob, '');
        await atPath(s, `/posts/${w.published.slug}`);
        await oneH1(s.page, w.published.title);
      }));

    it("signs up (the API's words for a weak password first), shows the header of a logged-in person, and logs out", () =>
      withPage(async (s) => {
        const username = unique('newbie');
        await visit(s, '/');
        await link(mainNav(s.page), 'Sign up').click();
        await atPath(s, /^\/signup(\?.*)?$/);
        await oneH1(s.page);
        const form = main(s.page);
        await field(form, 'Username').fill(username);
        await field(form, 'Password').fill('123');
        await button(form, 'Sign up').click();
        await shows(form, 'This password is too short. It must contain at least 8 characters.');
        await shows(form, 'This password is entirely numeric.');
        await field(form, 'Password').fill(PASSWORD);
        await button(form, 'Sign up').click();
        const nav = mainNav(s.page);
        await link(nav, username).waitFor();
        await atPath(s, '/');
        for (const name of ['Posts', 'Tags', 'Write', 'My posts', 'Settings']) await link(nav, name).waitFor();
        await button(nav, 'Log out').waitFor();
        expect(await link(nav, 'Log in').count()).toBe(0);
        expect(await link(nav, 'Sign up').count()).toBe(0);
        expect(await link(nav, username).getAttribute('href')).toBe(`/users/${username}`);
        // Public reads off: the list is there for the new account.
        await eventually(
          () => articles(s.page).count(),
          (n) => n >= 2,
          'the published posts',
        );

        await button(nav, 'Log out').click();
        await link(nav, 'Log in').waitFor();
        await link(nav, 'Sign up').waitFor();
        expect(await link(nav, username).count()).toBe(0);
        expect(await button(nav, 'Log out').count()).toBe(0);
        // Logged out for good: a reload does not bring the session back.
        await s.page.reload();
        await ready(s.page);
        await link(mainNav(s.page), 'Log in').waitFor();
        expect(await link(mainNav(s.page), username).count()).toBe(0);
      }));

    it("shows the API's words: blank fields next to them, wrong credentials in an alert", () =>
      withPage(async (s) => {
        const { bob } = site.api.users;
        await visit(s, '/login');
        await oneH1(s.page);
        const form = main(s.page);
        // The browser's own validation never stops the submission: the API's words are shown.
        await button(form, 'Log in').click();
        await shows(form, 'This field may not be blank.');
        await field(form, 'Username').fill(bob.username);
        await field(form, 'Password').fill('not the password');
        await button(form, 'Log in').click();
        await shows(s.page.getByRole('alert'), 'Unable to log in with provided credentials.');
        expect(await link(mainNav(s.page), bob.username).count()).toBe(0);
        expect((await axeViolations(s.page)).join('\n')).toBe('');
      }));

    it('logs in from /login itself to the home page', () =>
      withPage(async (s) => {
        const { bob } = site.api.users;
        await logIn(s, bob);
        await atPath(s, '/');
        await eventually(
          () => articles(s.page).count(),
          (n) => n >= 2,
          'the published posts',
        );
      }));

    it('writes a post with Markdown: Preview, Save to its page, a new title to a new slug, then Delete after the dialog', () =>
      withPage(async (s) => {
        const { alice } = site.api.users;
        const title = `Written in the browser ${mark}`;
        await logIn(s, alice);
        await link(mainNav(s.page), 'Write').click();
        await atPath(s, '/write');
        await oneH1(s.page);
        const form = main(s.page);
        // Save with nothing filled in: the API's words, next to the fields.
        await button(form, 'Save').click();
        await shows(form, 'This field may not be blank.');

        await field(form, 'Title').fill(title);
        await field(form, 'Description').fill('## Steps\n\n1. **Write**\n2. _Preview_\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode block\n```\n');
        await field(form, 'Tags').fill(`Browser ${mark}, Markdown`);
        await field(form, 'Keywords').fill('browser, markdown');
        await field(form, 'Meta description').fill('A post written in Chromium.');
        await field(form, 'Publish').check();
        await button(form, 'Preview').click();
        await form.locator('strong', { hasText: 'Write' }).waitFor();
        await form.locator('em', { hasText: 'Preview' }).waitFor();
        await form.getByRole('table').waitFor();
        await form.locator('pre code', { hasText: 'code block' }).waitFor();
        await button(form, 'Save').click();

        await atPath(s, /^\/posts\/written-in-the-browser-/);
        const slug = s.path().slice('/posts/'.length);
        await oneH1(s.page, title);
        await main(s.page).locator('strong', { hasText: 'Write' }).waitFor();
        await main(s.page)
          .getByRole('link', { name: `Browser ${mark}` })
          .first()
          .waitFor();
        const stored = await alice.api.get(`/posts/detail/${slug}`);
        expect(stored.body).toMatchObject({
          title,
          publish: true,
          keywords: 'browser, markdown',
          meta_description: 'A post written in Chromium.',
          tags: [`Browser ${mark}`, 'Markdown'],
        });

        // Editing: the form holds the post; a new title moves it to a new slug.
        await link(main(s.page), 'Edit').click();
        await atPath(s, `/posts/${slug}/edit`);
        await oneH1(s.page);
        const edit = main(s.page);
        await eventually(
          () => field(edit, 'Title').inputValue(),
          (v) => v === title,
          'the title in the form',
        );
        expect(await field(edit, 'Publish').isChecked()).toBe(true);
        await field(edit, 'Title').fill(`Renamed in the browser ${mark}`);
        await button(edit, 'Save').click();
        await atPath(s, /^\/posts\/renamed-in-the-browser-/);
        const renamed = s.path().slice('/posts/'.length);
        await oneH1(s.page, `Renamed in the browser ${mark}`);
        await titleNames(s.page, `Renamed in the browser ${mark}`);

        // Delete asks first; Cancel keeps the post.
        await button(main(s.page), 'Delete').click();
        const dialog = s.page.getByRole('dialog', { name: 'Delete this post?', exact: true });
        await dialog.waitFor();
        expect((await axeViolations(s.page)).join('\n')).toBe('');
        await button(dialog, 'Cancel').click();
        await dialog.waitFor({ state: 'hidden' });
        expect((await alice.api.get(`/posts/detail/${renamed}`)).status).toBe(200);
        await button(main(s.page), 'Delete').click();
        await button(dialog, 'Delete').click();
        await eventually(
          async () => s.path(),
          (path) => !path.startsWith('/posts/'),
          'leaving the deleted post',
        );
        await ready(s.page);
        expect((await alice.api.get(`/posts/detail/${renamed}`)).status).toBe(404);
      }));

    it('keeps a draft out of the lists, and shows it in /me/posts under All and Drafts, not Published', () =>
      withPage(async (s) => {
        const { alice } = site.api.users;
        const title = `Browser draft ${mark}`;
        await logIn(s, alice);
        await visit(s, '/write');
        const form = main(s.page);
        await field(form, 'Title').fill(title);
        await field(form, 'Description').fill('Unfinished.');
        expect(await field(form, 'Publish').isChecked()).toBe(false);
        await button(form, 'Save').click();
        await atPath(s, /^\/posts\/browser-draft-/);
        await oneH1(s.page, title);

        await link(mainNav(s.page), 'My posts').click();
        await atPath(s, /^\/me\/posts/);
        await oneH1(s.page);
        const listed = async () => articles(s.page).getByRole('heading').allTextContents();
        const tab = (name: string) =>
          main(s.page)
            .getByRole('link', { name, exact: true })
            .or(main(s.page).getByRole('tab', { name, exact: true }));
        await tab('All').click();
        await eventually(listed, (t) => [title, w.draft.title, w.published.title].every((x) => t.includes(x)), 'All');
        await tab('Drafts').click();
        await eventually(listed, (t) => t.includes(title) && t.includes(w.draft.title) && !t.includes(w.published.title), 'Drafts');
        await tab('Published').click();
        await eventually(listed, (t) => t.includes(w.published.title) && !t.includes(title) && !t.includes(w.draft.title), 'Published');

        await link(mainNav(s.page), 'Posts').click();
        await atPath(s, '/');
        await eventually(
          async () => (await articles(s.page).count()) > 0 && (await listed()),
          (t) => t !== false && t.includes(w.published.title) && !t.includes(title),
          'the home list without the draft',
        );
      }));

    it("votes and favorites another's post: aria-pressed and the counts change at once, and stay", () =>
      withPage(async (s) => {
        const { bob } = site.api.users;
        await logIn(s, bob);
        await visit(s, `/posts/${w.voted.slug}`);
        const body = main(s.page);
        const pressed = (name: string) => button(body, name).getAttribute('aria-pressed');
        await eventually(
          () => pressed('Vote up'),
          (v) => v === 'false',
          'Vote up not pressed',
        );
        // No Edit or Delete on another's post.
        expect(await link(body, 'Edit').count()).toBe(0);
        expect(await button(body, 'Delete').count()).toBe(0);
        expect(await countBeside(s, 'Vote up')).toBe(1);
        expect(await countBeside(s, 'Favorite')).toBe(0);

        await button(body, 'Vote up').click();
        await eventually(
          () => pressed('Vote up'),
          (v) => v === 'true',
          'Vote up pressed',
          3_000,
        );
        await eventually(
          () => countBeside(s, 'Vote up'),
          (n) => n === 2,
          'two votes up',
          3_000,
        );
        await button(body, 'Vote down').click();
        await eventually(
          async () => [await pressed('Vote up'), await pressed('Vote down')].join(),
          (v) => v === 'false,true',
          'down replaces up',
          3_000,
        );
        await eventually(
          () => countBeside(s, 'Vote up'),
          (n) => n === 1,
          'one vote up',
          3_000,
        );
        await eventually(
          () => countBeside(s, 'Vote down'),
          (n) => n === 1,
          'one vote down',
          3_000,
        );
        await button(body, 'Favorite').click();
        await eventually(
          () => pressed('Favorite'),
          (v) => v === 'true',
          'Favorite pressed',
          3_000,
        );
        await eventually(
          () => countBeside(s, 'Favorite'),
          (n) => n === 1,
          'one favorite',
          3_000,
        );

        // What the API stored, and what a reload shows.
        await eventually(
          async () => (await bob.api.get(`/posts/detail/${w.voted.slug}/vote`)).body,
          (b) => JSON.stringify(b).includes('down'),
          'the stored vote',
        );
        await s.page.reload();
        await ready(s.page);
        await eventually(
          async () => [await pressed('Vote up'), await pressed('Vote down'), await pressed('Favorite')].join(),
          (v) => v === 'false,true,true',
          'the state after a reload',
        );
        await button(body, 'Favorite').click();
        await eventually(
          () => pressed('Favorite'),
          (v) => v === 'false',
          'Favorite released',
          3_000,
        );
        await eventually(
          () => countBeside(s, 'Favorite'),
          (n) => n === 0,
          'no favorite',
          3_000,
        );
      }));

    it('takes one click at a time on Vote up and Favorite, keeping the focus, and shows the counts the API answers', () =>
      withPage(async (s) => {
        const { alice, carol, heidi } = site.api.users;
        const post = await createPost(alice.api, { title: `Clicked twice ${mark}`, description: 'Once is enough.', publish: 'true' });
        await logIn(s, heidi);
        await visit(s, `/posts/${post.slug}`);
        const body = main(s.page);
        const pressed = (name: string) => button(body, name).getAttribute('aria-pressed');
        const focused = (name: string) => button(body, name).evaluate((element) => element === element.ownerDocument.activeElement);
        await eventually(
          () => pressed('Favorite'),
          (v) => v === 'false',
          'Favorite not pressed',
        );
        // Another reader votes and favorites after the page was read: the counts it shows are old.
        expect((await carol.api.post(`/posts/detail/${post.slug}/vote`, { form: { vote: 'up' } })).status).toBe(200);
        expect((await carol.api.post(`/posts/detail/${post.slug}/favorite`)).status).toBe(200);
        // Each change answered a moment late, so that the second click comes while the first is under way.
        const sent: string[] = [];
        await s.page.route(
          (url) => /\/(vote|favorite)$/.test(url.pathname),
          async (route) => {
            const request = route.request();
            if (request.method() !== 'GET') {
              sent.push(`${request.method()} ${new URL(request.url()).pathname.split('/').pop()}`);
              await new Promise((done) => setTimeout(done, 500));
            }
            await route.continue();
          },
        );

        await button(body, 'Vote up').dblclick();
        await eventually(
          () => button(body, 'Vote up').getAttribute('aria-disabled'),
          (v) => v === 'true',
          'Vote up busy',
        );
        expect(await focused('Vote up')).toBe(true);
        await eventually(
          async () => `${await pressed('Vote up')} ${await button(body, 'Vote up').getAttribute('aria-disabled')}`,
          (v) => v === 'true null',
          'Vote up pressed, and free again',
        );
        expect(sent).toEqual(['POST vote']);
        const votes = (await heidi.api.get(`/posts/detail/${post.slug}/vote`)).body;
        expect(votes).toMatchObject({ vote: 'up', rating_likes: 2 });
        expect(await countBeside(s, 'Vote up')).toBe(votes.rating_likes);
        expect(await focused('Vote up')).toBe(true);

        // The keyboard: Enter twice on Favorite.
        await button(body, 'Favorite').focus();
        await s.page.keyboard.press('Enter');
        await s.page.keyboard.press('Enter');
        await eventually(
          () => button(body, 'Favorite').getAttribute('aria-busy'),
          (v) => v === 'true',
          'Favorite busy',
        );
        await eventually(
          async () => `${await pressed('Favorite')} ${await button(body, 'Favorite').getAttribute('aria-disabled')}`,
          (v) => v === 'true null',
          'Favorite pressed, and free again',
        );
        expect(sent).toEqual(['POST vote', 'POST favorite']);
        const favorite = (await heidi.api.get(`/posts/detail/${post.slug}/favorite`)).body;
        expect(favorite).toMatchObject({ favorited: true, total_favorites: 2 });
        expect(await countBeside(s, 'Favorite')).toBe(favorite.total_favorites);
        expect(await focused('Favorite')).toBe(true);
        expect((await axeViolations(s.page)).join('\n')).toBe('');
      }));

    it("links a post's tags with a request or two per tag, whatever the number of the site's tags", () =>
      withPage(async (s) => {
        const { grace } = site.api.users;
        // Many tags on the site; one whose slug was chosen at its creation, and one whose slug got a suffix.
        for (let i = 0; i < 40; i += 8) {
          const created = await Promise.all([...Array(8).keys()].map((j) => grace.api.post('/tags', { form: { title: `Filler ${mark} ${i + j}` } })));
          expect(created.map((answer) => answer.status)).toEqual(Array(8).fill(201));
        }
        expect((await grace.api.post('/tags', { form: { title: 'AWS Lambda', slug: 'lambda' } })).status).toBe(201);
        expect((await grace.api.post('/tags', { form: { title: 'C' } })).body.slug).toBe('c');
        const post = await createPost(grace.api, { title: `Tagged three ways ${mark}`, description: 'Tags.', tags: 'Tides, C++, AWS Lambda', publish: 'true' });
        expect(post.tags).toEqual(['Tides', 'C++', 'AWS Lambda']);
        expect((await grace.api.get('/tags', { query: { q: 'C++' } })).body.map((tag: { slug: string }) => tag.slug)).toEqual(['c-1']);

        await logIn(s, grace);
        const asked: string[] = [];
        s.page.on('request', (request) => {
          const url = new URL(request.url());
          // A search by its words; any other query as sent (a list of tags would show its page_size).
          const query = url.searchParams.has('q') ? ` q=${url.searchParams.get('q')}` : url.search;
          if (url.pathname.startsWith('/api/v1/tags')) asked.push(`${url.pathname.slice('/api/v1'.length)}${query}`);
        });
        await visit(s, `/posts/${post.slug}`);
        const tags = main(s.page).getByRole('list', { name: 'Tags', exact: true });
        await eventually(
          () => tags.getByRole('link').evaluateAll((links) => links.map((a) => `${a.textContent} ${a.getAttribute('href')}`)),
          (seen) => seen.join() === 'Tides /tags/tides,C++ /tags/c-1,AWS Lambda /tags/lambda',
          'the three tag links',
        );
        // The slug each title derives to, then a search by title where that slug is not the tag's: never the site's list of tags.
        expect(asked.sort()).toEqual(['/tags/detail/aws-lambda', '/tags/detail/c', '/tags/detail/tides', '/tags q=AWS Lambda', '/tags q=C++'].sort());
      }));

    it("edits the profile: the API's words for a bad website, then the saved fields on the profile", () =>
      withPage(async (s) => {
        const { dave } = site.api.users;
        await logIn(s, dave);
        await link(mainNav(s.page), 'Settings').click();
        await atPath(s, /^\/settings/);
        if (s.path() !== '/settings/profile') await visit(s, '/settings/profile');
        await oneH1(s.page);
        const form = main(s.page);
        for (const name of ['Display name', 'Location', 'About me', 'Website', 'Twitter', 'LinkedIn', 'GitHub', 'Birth date'])
          await field(form, name).waitFor();
        await field(form, 'Display name').fill('Dave D.');
        await field(form, 'Website').fill('not a url');
        await button(form, 'Save').click();
        await shows(form, 'Enter a valid URL.');
        expect((await dave.api.get(`/users/detail/${dave.username}`)).body.display_name).toBeNull();
        await field(form, 'Website').fill('https://dave.example.com');
        await field(form, 'Location').fill('Lisbon');
        await field(form, 'Birth date').fill('1990-04-01');
        await button(form, 'Save').click();
        await eventually(
          async () => (await dave.api.get(`/users/detail/${dave.username}`)).body,
          (b) => b.display_name === 'Dave D.' && b.website === 'https://dave.example.com' && b.location === 'Lisbon' && b.birth_date === '1990-04-01',
          'the stored profile',
        );
        await link(mainNav(s.page), dave.username).click();
        await atPath(s, `/users/${dave.username}`);
        await shows(main(s.page), 'Dave D.');
      }));

    it('changes the password: "Wrong password." first, then the new one logs in', () =>
      withPage(async (s) => {
        const { erin } = site.api.users;
        const newPassword = 'a much better secret 42';
        await logIn(s, erin);
        await visit(s, '/settings/password');
        await oneH1(s.page);
        const form = main(s.page);
        await field(form, 'Current password').fill('not my password');
        await field(form, 'New password').fill(newPassword);
        await button(form, 'Change password').click();
        await shows(form, 'Wrong password.');
        await field(form, 'Current password').fill(erin.password);
        await field(form, 'New password').fill(newPassword);
        await button(form, 'Change password').click();
        await eventually(
          async () => (await site.api.client().post('/login', { json: { username: erin.username, password: newPassword } })).status,
          (status) => status === 200,
          'the new password',
        );
        // This tab's session goes on; log out and in again with the new password.
        await button(mainNav(s.page), 'Log out').click();
        await logIn(s, { username: erin.username, password: newPassword });
      }));

    it('sends a person whose token died to /login, and back to the page afterwards', () =>
      withPage(async (s) => {
        const { frank } = site.api.users;
        await logIn(s, frank);
        // The page's own reads done first: one answered 401 after the change would log out before the click.
        await link(mainNav(s.page), 'My posts').waitFor();
        await s.page.waitForLoadState('networkidle');
        // A password change elsewhere ends every other token, this browser's too.
        const changed = await frank.api.post(`/users/detail/${frank.username}/password`, {
          json: { old_password: frank.password, new_password: 'another fine secret 7' },
        });
        expect(changed.status).toBe(200);
        await link(mainNav(s.page), 'My posts').click();
        await atPath(s, /^\/login/);
        await logIn(s, { username: frank.username, password: 'another fine secret 7' }, '');
        await atPath(s, /^\/me\/posts/);
      }));

    it('works with the keyboard alone: log in, write and save a post', () =>
      withPage(async (s) => {
        const { grace } = site.api.users;
        const title = `Keyboard post ${mark}`;
        await visit(s, '/');
        await tabTo(s.page, link(mainNav(s.page), 'Log in'));
        await s.page.keyboard.press('Enter');
        await atPath(s, /^\/login/);
        await tabTo(s.page, field(main(s.page), 'Username'));
        await s.page.keyboard.type(grace.username);
        await tabTo(s.page, field(main(s.page), 'Password'));
        await s.page.keyboard.type(grace.password);
        await s.page.keyboard.press('Enter');
        await link(mainNav(s.page), grace.username).waitFor();
        await tabTo(s.page, link(mainNav(s.page), 'Write'));
        await s.page.keyboard.press('Enter');
        await atPath(s, '/write');
        await tabTo(s.page, field(main(s.page), 'Title'));
        await s.page.keyboard.type(title);
        await tabTo(s.page, field(main(s.page), 'Description'));
        await s.page.keyboard.type('Typed, not clicked.');
        await tabTo(s.page, field(main(s.page), 'Publish'));
        await s.page.keyboard.press('Space');
        await tabTo(s.page, button(main(s.page), 'Save'));
        await s.page.keyboard.press('Enter');
        await atPath(s, /^\/posts\/keyboard-post-/);
        await oneH1(s.page, title);
        expect((await grace.api.get(`/posts/detail/${s.path().slice('/posts/'.length)}`)).body.publish).toBe(true);
      }));

    it('logs out every tab when one tab logs out', () =>
      withPage(async (s) => {
        const { kate } = site.api.users;
        await logIn(s, kate);
        // A second tab of the same browser: the login is shared.
        const other = await s.context.newPage();
        other.on('pageerror', (error) => s.problems.errors.push(`other tab: ${error.message}`));
        await other.goto(s.url('/me/posts'));
        await link(mainNav(other), kate.username).waitFor();
        await button(mainNav(s.page), 'Log out').click();
        await link(mainNav(s.page), 'Log in').waitFor();
        // The other tab follows without being touched.
        await link(mainNav(other), 'Log in').waitFor({ timeout: 5_000 });
        expect(await link(mainNav(other), kate.username).count()).toBe(0);
      }));

    it('says when to try again after too many failed logins (429, from Retry-After)', () =>
      withPage(async (s) => {
        const { ivan } = site.api.users;
        // Ten wrong passwords for this username from this address (the browser's too) close its logins for a while.
        for (let i = 0; i < 10; i++)
          expect((await site.api.client().post('/login', { json: { username: ivan.username, password: 'wrong' } })).status).toBe(400);
        await visit(s, '/login');
        const form = main(s.page);
        await field(form, 'Username').fill(ivan.username);
        await field(form, 'Password').fill(ivan.password);
        await button(form, 'Log in').click();
        await shows(s.page.getByRole('alert'), /\d+ (second|minute)/);
        expect(await link(mainNav(s.page), ivan.username).count()).toBe(0);
      }));

    it('says a post was changed elsewhere (409) and offers to reload it', () =>
      withPage(async (s) => {
        const { judy } = site.api.users;
        const post = await createPost(judy.api, { title: `Edited twice ${mark}`, description: 'First version.', publish: 'true' });
        await logIn(s, judy);
        await visit(s, `/posts/${post.slug}/edit`);
        const form = main(s.page);
        await eventually(
          () => field(form, 'Title').inputValue(),
          (v) => v === post.title,
          'the form filled in',
        );
        // Meanwhile, another tab saves the post.
        expect((await judy.api.put(`/posts/detail/${post.slug}`, { form: { title: post.title, description: 'Changed elsewhere.' } })).status).toBe(200);
        await field(form, 'Description').fill('My version.');
        await button(form, 'Save').click();
        await shows(s.page.getByRole('alert'), /changed/i);
        const reload = s.page.getByRole('button', { name: /reload/i }).or(s.page.getByRole('link', { name: /reload/i }));
        await reload.first().click();
        await eventually(
          () => field(main(s.page), 'Description').inputValue(),
          (v) => v === 'Changed elsewhere.',
          'the post as saved elsewhere',
        );
      }));

    it('offers "Retry" when the network fails, keeping what was typed', () =>
      withPage(async (s) => {
        const { judy } = site.api.users;
        const title = `Saved on retry ${mark}`;
        await logIn(s, judy);
        await visit(s, '/write');
        const form = main(s.page);
        await field(form, 'Title').fill(title);
        await field(form, 'Description').fill('Typed before the connection dropped.');
        // The connection drops for the next POST /posts only.
        let dropped = false;
        await s.page.route('**/api/v1/posts', async (route) => {
          if (!dropped && route.request().method() === 'POST') {
            dropped = true;
            await route.abort('internetdisconnected');
          } else await route.continue();
        });
        await button(form, 'Save').click();
        await button(s.page, 'Retry').waitFor();
        expect(await field(form, 'Title').inputValue()).toBe(title);
        expect(await field(form, 'Description').inputValue()).toBe('Typed before the connection dropped.');
        // Chromium logs the dropped request; that line is this test's doing.
        s.problems.errors = s.problems.errors.filter((line) => !/ERR_INTERNET_DISCONNECTED/.test(line));
        await button(s.page, 'Retry').click();
        await atPath(s, /^\/posts\/saved-on-retry-/);
        await oneH1(s.page, title);
      }));

    it('shows the editor at 1280 px and 360 px (screenshots), fitting the width', () =>
      withPage(async (s) => {
        const { heidi } = site.api.users;
        await logIn(s, heidi);
        for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
          await s.page.setViewportSize(viewport);
          await visit(s, '/write');
          const form = main(s.page);
          await field(form, 'Title').fill('Notes on cold starts');
          await field(form, 'Description').fill('Cold starts are **rare** with provisioned concurrency.\n\n- measure first\n- then tune');
          await field(form, 'Tags').fill('Lambda, Performance');
          await button(form, 'Preview').click();
          await form.locator('strong', { hasText: 'rare' }).waitFor();
          await fitsWidth(s.page);
          // The form's top: what a person sees first (the preview follows it).
          await s.page.evaluate('window.scrollTo(0, 0)');
          await screenshot(s.page, `editor-${viewport.width}`);
        }
      }));
  });

  describe.concurrent('the header', () => {
    /** The links of a logged-in reader's header. */
    const linksOf = (username: string) => ['Posts', 'Tags', 'Write', username, 'My posts', 'Settings'];
    const focusedText = (s: SitePage) => s.page.evaluate('document.activeElement?.textContent?.trim()');
    const expanded = (menu: Locator, value: string) =>
      eventually(
        () => menu.getAttribute('aria-expanded'),
        (v) => v === value,
        `aria-expanded=${value}`,
      );

    for (const colorScheme of ['light', 'dark'] as const) {
      it(`at 360 px leaves the first screen to the content: "Menu" opens the navigation "Main", by keyboard (${colorScheme})`, () =>
        withPage(
          async (s) => {
            const { bob } = site.api.users;
            await logIn(s, bob);
            await visit(s, '/');
            await articles(s.page).first().waitFor();
            const header = s.page.getByRole('banner');
            expect((await header.boundingBox())?.height).toBeLessThanOrEqual(120);
            await field(s.page.getByRole('search'), 'Search').waitFor({ state: 'visible' });
            const nav = mainNav(s.page);
            const menu = button(nav, 'Menu');
            expect(await menu.getAttribute('aria-expanded')).toBe('false');
            expect(await s.page.locator(`#${await menu.getAttribute('aria-controls')}`).count()).toBe(1);
            for (const name of linksOf(bob.username)) expect(await link(nav, name).isVisible(), name).toBe(false);
            await fitsWidth(s.page);
            expect((await axeViolations(s.page)).join('\n')).toBe('');

            await tabTo(s.page, menu);
            await s.page.keyboard.press('Enter');
            await expanded(menu, 'true');
            for (const name of linksOf(bob.username)) await link(nav, name).waitFor({ state: 'visible' });
            await button(nav, 'Log out').waitFor({ state: 'visible' });
            await fitsWidth(s.page);
            expect((await axeViolations(s.page)).join('\n')).toBe('');
            if (colorScheme === 'light') await screenshot(s.page, 'menu-360');
            // Every link in turn, then Escape: closed, the focus back on "Menu".
            for (const name of [...linksOf(bob.username), 'Log out']) {
              await s.page.keyboard.press('Tab');
              expect(await focusedText(s)).toBe(name);
            }
            await s.page.keyboard.press('Escape');
            await expanded(menu, 'false');
            expect(await focusedText(s)).toBe('Menu');
            expect(await link(nav, 'Posts').isVisible()).toBe(false);

            // Open again and follow a link: the next page has the menu closed.
            await s.page.keyboard.press('Enter');
            await tabTo(s.page, link(nav, 'My posts'));
            await s.page.keyboard.press('Enter');
            await atPath(s, /^\/me\/posts/);
            await expanded(menu, 'false');
            expect(await link(nav, 'My posts').isVisible()).toBe(false);
          },
          { viewport: PHONE, colorScheme },
        ));

      it(`at 1280 px shows every link, and no "Menu" (${colorScheme})`, () =>
        withPage(
          async (s) => {
            const { bob } = site.api.users;
            await logIn(s, bob);
            await visit(s, '/');
            const nav = mainNav(s.page);
            for (const name of linksOf(bob.username)) expect(await link(nav, name).isVisible(), name).toBe(true);
            expect(await button(nav, 'Log out').isVisible()).toBe(true);
            expect(await s.page.getByRole('button', { name: 'Menu' }).count()).toBe(0);
            await field(s.page.getByRole('search'), 'Search').waitFor({ state: 'visible' });
            expect((await axeViolations(s.page)).join('\n')).toBe('');
          },
          { viewport: DESKTOP, colorScheme },
        ));
    }
  });

  describe.concurrent('every page with an account', () => {
    // Two halves, each in its own browser page: eleven pages with axe in one test came close to
    // the test timeout on a loaded machine.
    const pages = (alice: { username: string }) => [
      { path: '/', names: '' },
      { path: '/write', names: '' },
      { path: '/me/posts', names: '' },
      { path: `/posts/${w.published.slug}`, names: w.published.title },
      { path: `/posts/${w.published.slug}/edit`, names: w.published.title },
      { path: `/posts/${w.draft.slug}`, names: w.draft.title },
      { path: `/users/${alice.username}`, names: alice.username },
      { path: '/settings/profile', names: '' },
      { path: '/settings/password', names: '' },
      { path: '/tags', names: 'Tags' },
      { path: '/no/such/page', names: 'Page not found' },
    ];
    for (const [half, range] of [
      ['home, writing and posts', [0, 6]],
      ['profile, settings, tags and not found', [6, 11]],
    ] as const) {
      it(`has one h1, a title naming its subject and no serious or critical axe violation: ${half}`, () =>
        withPage(async (s) => {
          const { alice } = site.api.users;
          await logIn(s, alice);
          const faults: string[] = [];
          for (const { path, names } of pages(alice).slice(...range)) {
            await visit(s, path);
            faults.push(...(await pageFaults(s.page, path, names)));
          }
          expect(faults).toEqual([]);
        }));
    }

    it('at 360 px: the header, a post and the forms fit the width, without axe violations', () =>
      withPage(
        async (s) => {
          const { alice } = site.api.users;
          await logIn(s, alice);
          const faults: string[] = [];
          for (const path of ['/', `/posts/${w.published.slug}`, '/me/posts', '/settings/profile']) {
            await visit(s, path);
            await fitsWidth(s.page);
            faults.push(...(await axeViolations(s.page)).map((fault) => `${path}: ${fault}`));
          }
          expect(faults).toEqual([]);
        },
        { viewport: PHONE },
      ));
  });
});

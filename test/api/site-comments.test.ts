import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../support/api.ts';
import { comment, commentPath, makeModerator, publishedPost, suspensionPath } from '../support/comments.ts';
import { ALL_HOSTILE_MARKDOWN, ALL_HOSTILE_MARKDOWN_REVERSED, HOSTILE_MARKDOWN, INERT_PARSE, dangers } from '../support/hostile-markdown.ts';
import {
  HAVE_CHROMIUM,
  PHONE,
  articles,
  atPath,
  axeViolations,
  button,
  cspViolations,
  eventually,
  expectNoProblems,
  field,
  fitsWidth,
  link,
  logIn,
  main,
  mainNav,
  oneH1,
  screenshot,
  shows,
  tabTo,
  useSite,
  visit,
  type SitePage,
} from '../support/site.ts';

// Comments and moderation in the site (v1.3 §8), in Chromium, by the roles and names the spec
// gives: the region "Comments" of a post page (comment, reply, "Show N more replies", edit with a
// 409, delete and report in their dialogs, hide, lock), a moderator's feature, /moderation and
// suspension, the visitor's way to log in, a 429, a failed load and its "Retry", the space kept
// while comments arrive (layout shift), hostile Markdown in comments, the keyboard alone, 360 px
// and dark. axe on each new state. Each test uses posts (and mostly users) of its own, so they run
// side by side; public reads are on, so a visitor reads the comments.

const HOSTILE_AUTHORS = ['h1', 'h2', 'h3', 'h4', 'h5'] as const;

describe.skipIf(!HAVE_CHROMIUM)('comments and moderation in the site', () => {
  const site = useSite({
    // Ten comments a minute for each user: each test's comments are by users of their own, mostly.
    users: ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'kate', 'leo', 'mod', ...HOSTILE_AUTHORS],
    apiEnvironment: { PUBLIC_READS: 'true' },
  });

  beforeAll(async () => {
    await makeModerator(site.api.users.mod);
  });

  const withPage = async (run: (page: SitePage) => Promise<void>, options?: Parameters<typeof site.open>[0]) => {
    const page = await site.open(options);
    try {
      await run(page);
      await expectNoProblems(page);
    } finally {
      await site.close(page);
    }
  };

  const region = (page: Page) => page.getByRole('region', { name: 'Comments', exact: true });
  /** The comment (an article of the region) holding this text, case included. */
  const commentWith = (page: Page, text: string) =>
    region(page)
      .getByRole('article')
      .filter({ hasText: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
  const heading = (page: Page, count: number) => region(page).getByRole('heading', { name: `Comments (${count})`, exact: true });
  const dialog = (page: Page, name: string) => page.getByRole('dialog', { name, exact: true });
  const noAxe = async (page: Page, state: string) => expect((await axeViolations(page)).join('\n'), state).toBe('');
  /** Opens a post and waits for its comments (or for the words saying there are none). */
  const openPost = async (s: SitePage, slug: string) => {
    await visit(s, `/posts/${slug}`);
    await region(s.page)
      .getByRole('heading', { name: /^Comments \(\d+\)$/ })
      .waitFor();
    await region(s.page)
      .getByRole('article')
      .first()
      .or(region(s.page).getByText('No comments yet.', { exact: true }))
      .waitFor();
  };
  /** A mark in the page that a reload would lose: the change showed without one. */
  const markPage = (s: SitePage) => s.page.evaluate('window.__notReloaded = true');
  const notReloaded = async (s: SitePage) => expect(await s.page.evaluate('window.__notReloaded === true')).toBe(true);

  describe.concurrent('a reader', () => {
    it('comments, replies, shows more replies, edits (a 409 shows the current text) and deletes in the dialog, without a reload', () =>
      withPage(async (s) => {
        const { alice, bob, carol, dave } = site.api.users;
        const post = await publishedPost(alice);
        const first = await comment(alice.api, post.slug, 'The **first** thread.');
        for (let i = 1; i <= 5; i++) await comment((i % 2 ? carol : dave).api, post.slug, `Answer ${i} to the first thread.`, first.id);
        await logIn(s, bob);
        await openPost(s, post.slug);
        await markPage(s);
        await heading(s.page, 6).waitFor();
        const thread = commentWith(s.page, 'The first thread.');
        await thread.locator('strong', { hasText: 'first' }).waitFor();
        await link(thread, alice.username).waitFor();
        expect(await thread.locator('time').count()).toBe(1);
        const replies = region(s.page).getByRole('list', { name: 'Replies', exact: true });
        expect(await replies.getByRole('article').count()).toBe(3);
        await noAxe(s.page, 'the comments');

        await button(region(s.page), 'Show 2 more replies').click();
        await eventually(
          () => replies.getByRole('article').count(),
          (n) => n === 5,
          'five replies',
        );
        expect(await button(region(s.page), 'Show 2 more replies').count()).toBe(0);
        expect(await replies.getByRole('article').allTextContents()).toEqual(
          expect.arrayContaining([1, 2, 3, 4, 5].map((i) => expect.stringContaining(`Answer ${i} to the first thread.`))),
        );

        // A comment: the API's words for a blank one, then the comment, at the end, counted.
        await button(region(s.page), 'Post comment').click();
        await shows(region(s.page), 'This field may not be blank.');
        await field(region(s.page), 'Add a comment').fill('Bob says _hello_.');
        await button(region(s.page), 'Post comment').click();
        const mine = commentWith(s.page, 'Bob says hello.');
        await mine.locator('em', { hasText: 'hello' }).waitFor();
        await heading(s.page, 7).waitFor();
        expect(await field(region(s.page), 'Add a comment').inputValue()).toBe('');

        // A reply to Alice's comment, in her article.
        await button(thread, 'Reply').click();
        await field(thread, `Reply to ${alice.username}`).fill('Bob answers Alice.');
        await noAxe(s.page, 'the reply form');
        await button(thread, 'Post reply').click();
        await replies.getByRole('article').filter({ hasText: 'Bob answers Alice.' }).waitFor();
        await heading(s.page, 8).waitFor();
        expect(await field(thread, `Reply to ${alice.username}`).count()).toBe(0);

        // Edit: the form holds the text; saved, it shows "(edited)". Bob's one comment here is his article.
        const bobs = region(s.page).getByRole('article', { name: `Comment by ${bob.username}`, exact: true });
        const id = (await bobs.getAttribute('id'))!.slice('comment-'.length);
        await button(bobs, 'Edit').click();
        const editor = field(bobs, 'Edit comment');
        expect(await editor.inputValue()).toBe('Bob says _hello_.');
        await editor.fill('Bob says **hello** again.');
        await noAxe(s.page, 'the edit form');
        await button(bobs, 'Save').click();
        await bobs.locator('strong', { hasText: 'hello' }).waitFor();
        await shows(bobs, 'Bob says hello again.');
        await shows(bobs, '(edited)');

        // Changed elsewhere meanwhile: the API's words and the text as it is now; saving again replaces it.
        await button(bobs, 'Edit').click();
        const stored = (await bob.api.get(commentPath(id))).body;
        expect((await bob.api.put(commentPath(id), { json: { body: 'Changed in another tab.', modified: stored.modified } })).status).toBe(200);
        await field(bobs, 'Edit comment').fill('My own words.');
        await button(bobs, 'Save').click();
        const alert = bobs.getByRole('alert');
        await shows(alert, 'The comment was changed since you read it.');
        await shows(alert, 'Changed in another tab.');
        expect(await field(bobs, 'Edit comment').inputValue()).toBe('My own words.');
        await noAxe(s.page, 'the edit conflict');
        await button(bobs, 'Save').click();
        await shows(bobs, 'My own words.');
        expect((await bob.api.get(commentPath(id))).body.body).toBe('My own words.');

        // Delete asks first; Cancel keeps it.
        await button(bobs, 'Delete').click();
        await dialog(s.page, 'Delete this comment?').waitFor();
        await noAxe(s.page, 'the delete dialog');
        await button(dialog(s.page, 'Delete this comment?'), 'Cancel').click();
        await dialog(s.page, 'Delete this comment?').waitFor({ state: 'hidden' });
        expect((await bob.api.get(commentPath(id))).status).toBe(200);
        await button(bobs, 'Delete').click();
        await button(dialog(s.page, 'Delete this comment?'), 'Delete').click();
        await bobs.waitFor({ state: 'detached' });
        await heading(s.page, 7).waitFor();
        expect((await bob.api.get(commentPath(id))).status).toBe(404);
        // Others' comments: no Edit, no Delete; Report instead.
        expect(await button(thread, 'Edit').count()).toBe(0);
        expect(await button(thread, 'Delete').count()).toBe(0);
        await button(thread, 'Report').waitFor();
        await notReloaded(s);
      }));

    it('says when to try again after too many comments (429, from Retry-After)', () =>
      withPage(async (s) => {
        const { alice, grace } = site.api.users;
        const post = await publishedPost(alice);
        await logIn(s, grace);
        await openPost(s, post.slug);
        // The limit's window is the UTC minute: start early in one, so the browser's comment falls in it too.
        const second = new Date().getUTCSeconds();
        if (second > 40) await new Promise((done) => setTimeout(done, (61 - second) * 1000));
        for (let i = 0; i < 10; i++) await comment(grace.api, post.slug, `Comment ${i}`);
        await field(region(s.page), 'Add a comment').fill('One too many.');
        await button(region(s.page), 'Post comment').click();
        await shows(region(s.page).getByRole('alert'), /Try again in \d+ seconds?\./);
        expect(await field(region(s.page), 'Add a comment').inputValue()).toBe('One too many.');
      }));

    it('shows a failed load of the comments with "Retry", never as no comments', () =>
      withPage(async (s) => {
        const { alice, erin } = site.api.users;
        const post = await publishedPost(alice);
        await comment(erin.api, post.slug, 'There all along.');
        let dropped = false;
        await s.page.route(`**/api/v1/posts/detail/${post.slug}/comments`, async (route) => {
          if (!dropped && route.request().method() === 'GET') {
            dropped = true;
            await route.abort('internetdisconnected');
          } else await route.continue();
        });
        await visit(s, `/posts/${post.slug}`);
        await button(region(s.page), 'Retry').waitFor();
        await region(s.page).getByRole('alert').waitFor();
        expect(await region(s.page).getByText('No comments yet.').count()).toBe(0);
        await noAxe(s.page, 'the failed load');
        s.problems.errors = s.problems.errors.filter((line) => !/ERR_INTERNET_DISCONNECTED/.test(line));
        await button(region(s.page), 'Retry').click();
        await commentWith(s.page, 'There all along.').waitFor();
        // The post itself never waited for its comments.
        await oneH1(s.page, post.title as string);
      }));

    it('keeps the page still while the comments arrive (cumulative layout shift at most 0.1)', () =>
      withPage(
        async (s) => {
          const { alice, judy } = site.api.users;
          const post = await publishedPost(alice, { description: 'A short post, so that its comments start in the first screen.' });
          for (let i = 0; i < 4; i++) await comment(judy.api, post.slug, `A comment of some length, number ${i}, to fill the space.`);
          await s.context.addInitScript(`
            window.__shift = 0;
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
            }).observe({ type: 'layout-shift', buffered: true });
          `);
          // The comments answer a second late: the post is shown whole before them.
          await s.page.route(`**/api/v1/posts/detail/${post.slug}/comments`, async (route) => {
            await new Promise((done) => setTimeout(done, 1_000));
            await route.continue();
          });
          await visit(s, `/posts/${post.slug}`);
          expect(await region(s.page).getByRole('article').count()).toBe(0);
          await commentWith(s.page, 'number 3').waitFor();
          await s.page.waitForTimeout(300);
          const shift = Number(await s.page.evaluate('window.__shift'));
          console.log(`layout shift while the comments arrived: ${shift.toFixed(4)}`);
          expect(shift).toBeLessThanOrEqual(0.1);
        },
        { viewport: PHONE },
      ));

    it('asks a visitor to log in to comment, and back; post cards count comments', () =>
      withPage(async (s) => {
        const { alice, kate, ivan } = site.api.users;
        const post = await publishedPost(alice, { title: unique('Counted ') });
        await comment(kate.api, post.slug, 'The only comment.');
        await openPost(s, post.slug);
        await commentWith(s.page, 'The only comment.').waitFor();
        await heading(s.page, 1).waitFor();
        expect(await field(region(s.page), 'Add a comment').count()).toBe(0);
        expect(await button(region(s.page), 'Reply').count()).toBe(0);
        expect(await button(region(s.page), 'Report').count()).toBe(0);
        await noAxe(s.page, 'the comments to a visitor');
        await link(region(s.page), 'Log in to comment').click();
        await atPath(s, `/login?next=${encodeURIComponent(`/posts/${post.slug}`)}`);
        await logIn(s, ivan, '');
        await atPath(s, `/posts/${post.slug}`);
        await field(region(s.page), 'Add a comment').waitFor();

        await visit(s, '/');
        const card = articles(s.page).filter({ has: s.page.getByRole('link', { name: post.title as string, exact: true }) });
        await shows(card, '1 comment');
        expect(await card.textContent()).not.toContain('1 comments');
      }));

    it('hostile Markdown in comments never runs, with the CSP and with it bypassed (the sanitizer alone)', async () => {
      const { alice } = site.api.users;
      const post = await publishedPost(alice);
      // One case per comment, nine per author (the limit is ten a minute), then every case in one comment, both ways.
      for (const [i, c] of HOSTILE_MARKDOWN.entries()) {
        await comment(site.api.users[HOSTILE_AUTHORS[Math.floor(i / 9)]!].api, post.slug, `Case ${c.name}\n\n${c.markdown}`);
      }
      await comment(alice.api, post.slug, ALL_HOSTILE_MARKDOWN);
      await comment(alice.api, post.slug, ALL_HOSTILE_MARKDOWN_REVERSED);
      const total = HOSTILE_MARKDOWN.length + 2;
      for (const bypassCSP of [false, true]) {
        const s = await site.open({ bypassCSP });
        try {
          await openPost(s, post.slug);
          const shown = () => region(s.page).getByRole('article').count();
          for (let count = await shown(); count < total;) {
            await button(region(s.page), 'Load more comments').click();
            count = await eventually(shown, (n) => n > count, 'the next page of comments');
          }
          expect(await button(region(s.page), 'Load more comments').count()).toBe(0);
          await region(s.page).getByRole('heading', { name: 'mutation xss', exact: true }).first().waitFor();
          await s.page.waitForTimeout(200);
          expect(await dangers(s.page)).toEqual([]);
          expect(s.problems.dialogs).toEqual([]);
          expect(s.problems.errors).toEqual([]);
          if (!bypassCSP) expect((await cspViolations(s)).filter((violation) => !INERT_PARSE.test(violation))).toEqual([]);
        } finally {
          await site.close(s);
        }
      }
    });

    it('works with the keyboard alone: comment, reply, and the delete dialog', () =>
      withPage(async (s) => {
        const { alice, heidi } = site.api.users;
        const post = await publishedPost(alice);
        await comment(alice.api, post.slug, 'Answer me by keyboard.');
        await logIn(s, heidi);
        await openPost(s, post.slug);
        await tabTo(s.page, field(region(s.page), 'Add a comment'));
        await s.page.keyboard.type('Typed, not clicked.');
        await tabTo(s.page, button(region(s.page), 'Post comment'));
        await s.page.keyboard.press('Enter');
        const mine = commentWith(s.page, 'Typed, not clicked.');
        await mine.waitFor();

        const theirs = commentWith(s.page, 'Answer me by keyboard.');
        await tabTo(s.page, button(theirs, 'Reply'));
        await s.page.keyboard.press('Enter');
        // The reply's field takes the focus.
        await eventually(
          () => s.page.evaluate('document.activeElement?.labels?.[0]?.textContent'),
          (label) => label === `Reply to ${alice.username}`,
          'the focus in the reply field',
        );
        await s.page.keyboard.type('A reply by keyboard.');
        await tabTo(s.page, button(theirs, 'Post reply'));
        await s.page.keyboard.press('Enter');
        await region(s.page).getByRole('list', { name: 'Replies', exact: true }).getByText('A reply by keyboard.').waitFor();

        await tabTo(s.page, button(mine, 'Delete'));
        await s.page.keyboard.press('Enter');
        await dialog(s.page, 'Delete this comment?').waitFor();
        await s.page.keyboard.press('Escape');
        await dialog(s.page, 'Delete this comment?').waitFor({ state: 'hidden' });
        // The focus is back on the button that opened it.
        expect(await s.page.evaluate('document.activeElement?.textContent')).toBe('Delete');
        // Open again: the focus starts on Cancel, the harmless choice; Shift+Tab reaches Delete.
        await s.page.keyboard.press('Enter');
        await dialog(s.page, 'Delete this comment?').waitFor();
        expect(await s.page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
        await s.page.keyboard.press('Shift+Tab');
        expect(await s.page.evaluate('document.activeElement?.textContent')).toBe('Delete');
        // Escape, and Delete again before the next frame (a fast hand, a loaded machine): the
        // dialog opens again each time, not shut by the first one's late 'close' event.
        for (let round = 0; round < 5; round += 1) {
          await s.page.keyboard.down('Escape');
          await s.page.evaluate('document.activeElement.click()');
          await s.page.keyboard.up('Escape');
          await dialog(s.page, 'Delete this comment?').waitFor();
          expect(await s.page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
        }
        await s.page.keyboard.press('Shift+Tab');
        await s.page.keyboard.press('Enter');
        await mine.waitFor({ state: 'detached' });
      }));
  });

  describe.concurrent("a post's author and the moderators", () => {
    it('the author locks and unlocks comments, and hides and unhides a comment on their post', () =>
      withPage(async (s) => {
        const { alice, bob } = site.api.users;
        const post = await publishedPost(alice);
        await comment(bob.api, post.slug, 'Hide me for a while.');
        await logIn(s, alice);
        await openPost(s, post.slug);
        const lock = field(region(s.page), 'Lock comments');
        expect(await lock.isChecked()).toBe(false);
        await lock.check();
        await shows(region(s.page), 'Comments are locked.');
        await eventually(
          () => lock.isChecked(),
          (checked) => checked,
          'checked',
        );
        expect(await field(region(s.page), 'Add a comment').count()).toBe(0);
        expect(await button(region(s.page), 'Reply').count()).toBe(0);
        expect((await alice.api.get(`/posts/detail/${post.slug}`)).body.comments_locked).toBe(true);
        await noAxe(s.page, 'locked');
        // Hiding works on a locked post.
        const theirs = commentWith(s.page, 'Hide me for a while.');
        await button(theirs, 'Hide').click();
        await shows(theirs, 'Hidden from other readers.');
        await heading(s.page, 0).waitFor();
        await noAxe(s.page, 'a hidden comment');
        expect((await bob.api.get(commentPath((await theirs.getAttribute('id'))!.slice(8)))).body.hidden_by).toBe('post_author');
        await button(theirs, 'Unhide').click();
        await heading(s.page, 1).waitFor();
        expect(await theirs.textContent()).not.toContain('Hidden from other readers.');

        await lock.uncheck();
        await field(region(s.page), 'Add a comment').waitFor();
        await button(theirs, 'Reply').waitFor();
        expect((await alice.api.get(`/posts/detail/${post.slug}`)).body.comments_locked).toBe(false);
      }));

    it('a moderator features a post from its page, hides and unhides, deletes a comment with replies (a placeholder stays), and locks', () =>
      withPage(async (s) => {
        const { alice, bob, carol, mod } = site.api.users;
        const post = await publishedPost(alice);
        const top = await comment(bob.api, post.slug, 'A thread to delete.');
        await comment(carol.api, post.slug, 'A reply that stays.', top.id);
        await comment(carol.api, post.slug, 'Moderate me.');
        await logIn(s, mod);
        await link(mainNav(s.page), 'Moderation').waitFor();
        await openPost(s, post.slug);
        const featured = field(main(s.page), 'Featured');
        expect(await featured.isChecked()).toBe(false);
        await featured.check();
        await eventually(
          async () => (await alice.api.get(`/posts/detail/${post.slug}`)).body.is_featured,
          (value) => value === true,
          'featured',
        );
        await eventually(
          () => featured.isChecked(),
          (checked) => checked,
          'Featured checked',
        );
        await noAxe(s.page, 'a moderator on a post');
        await featured.uncheck();
        await eventually(
          async () => (await alice.api.get(`/posts/detail/${post.slug}`)).body.is_featured,
          (value) => value === false,
          'not featured',
        );

        const moderated = commentWith(s.page, 'Moderate me.');
        await button(moderated, 'Hide').click();
        await shows(moderated, 'Hidden from other readers.');
        await button(moderated, 'Unhide').click();
        await button(moderated, 'Hide').waitFor();

        const thread = commentWith(s.page, 'A thread to delete.');
        await button(thread, 'Delete').click();
        await button(dialog(s.page, 'Delete this comment?'), 'Delete').click();
        await region(s.page).getByText('This comment was deleted.', { exact: true }).waitFor();
        await commentWith(s.page, 'A reply that stays.').waitFor();
        await noAxe(s.page, 'a placeholder');

        await field(region(s.page), 'Lock comments').check();
        await shows(region(s.page), 'Comments are locked.');
        expect((await alice.api.get(`/posts/detail/${post.slug}`)).body.comments_locked).toBe(true);
      }));

    it('three readers report a comment in the dialog and it is hidden; a moderator dismisses and removes in /moderation', () =>
      withPage(async (s) => {
        const { alice, bob, carol, dave, erin, mod } = site.api.users;
        const post = await publishedPost(alice, { title: unique('Reported post ') });
        const reported = await comment(bob.api, post.slug, 'Three readers object to this.');
        const removed = await comment(bob.api, post.slug, 'A moderator removes this.');
        expect((await carol.api.post(`/comments/detail/${removed.id}/report`, { json: { reason: 'spam' } })).status).toBe(201);

        for (const [i, reader] of [carol, dave, erin].entries()) {
          const r = await site.open();
          try {
            await logIn(r, reader);
            await openPost(r, post.slug);
            const target = commentWith(r.page, 'Three readers object to this.');
            await button(target, 'Report').click();
            const report = dialog(r.page, 'Report this comment');
            await report.waitFor();
            for (const name of ['Spam', 'Abuse', 'Off-topic', 'Other']) await report.getByRole('radio', { name, exact: true }).waitFor();
            if (i === 0) {
              // No reason: the API's words.
              await button(report, 'Send report').click();
              await shows(report, 'This field is required.');
              await noAxe(r.page, 'the report dialog');
            }
            await report.getByRole('radio', { name: i === 2 ? 'Abuse' : 'Off-topic', exact: true }).check();
            await field(report, 'Note').fill(i === 2 ? 'Rude to everyone.' : 'Not about the post.');
            await button(report, 'Send report').click();
            await report.waitFor({ state: 'hidden' });
            if (i < 2) await shows(target, 'Thank you');
            await expectNoProblems(r);
          } finally {
            await site.close(r);
          }
        }
        // The third report hid it: a reader sees a placeholder.
        const hidden = (await site.api.client().get(commentPath(reported.id))).body;
        expect(hidden).toMatchObject({ status: 'hidden', hidden_by: 'reports', author: null });

        // A post reported from its page: "Report post", its dialog closes on sending.
        const p = await site.open();
        try {
          await logIn(p, carol);
          await openPost(p, post.slug);
          await region(p.page).getByText('This comment was hidden.', { exact: true }).waitFor();
          await button(main(p.page), 'Report post').click();
          const report = dialog(p.page, 'Report this post');
          await report.getByRole('radio', { name: 'Spam', exact: true }).check();
          await button(report, 'Send report').click();
          await report.waitFor({ state: 'hidden' });
          await shows(main(p.page).getByRole('status').filter({ hasText: 'Thank you' }), 'Thank you');
          await expectNoProblems(p);
        } finally {
          await site.close(p);
        }

        await logIn(s, mod);
        await link(mainNav(s.page), 'Moderation').click();
        await atPath(s, '/moderation');
        await oneH1(s.page, 'Moderation');
        const card = (text: string) => articles(s.page).filter({ hasText: text });
        const objected = card('Three readers object to this.');
        await link(objected, `Comment by ${bob.username}`).waitFor();
        await shows(objected, '3 reports');
        await shows(objected, 'Abuse');
        await shows(objected, 'Rude to everyone.');
        await shows(card('A moderator removes this.'), '1 report');
        const postCard = articles(s.page).filter({ has: s.page.getByRole('link', { name: post.title as string, exact: true }) });
        await shows(postCard, '1 report');
        await noAxe(s.page, '/moderation');
        for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
          await s.page.setViewportSize(viewport);
          await fitsWidth(s.page);
          await screenshot(s.page, `moderation-${viewport.width}`);
        }
        await s.page.setViewportSize({ width: 1280, height: 800 });

        // The comment's link opens its post at the comment.
        await link(objected, `Comment by ${bob.username}`).click();
        await atPath(s, `/posts/${post.slug}`);
        await eventually(
          () => s.page.evaluate('document.activeElement?.id'),
          (id) => id === `comment-${reported.id}`,
          'the focus on the linked comment',
        );
        await s.page.goBack();
        await atPath(s, '/moderation');

        await button(card('Three readers object to this.'), 'Dismiss').click();
        await card('Three readers object to this.').waitFor({ state: 'detached' });
        expect((await site.api.client().get(commentPath(reported.id))).body).toMatchObject({ status: 'published', hidden_by: null });
        await button(card('A moderator removes this.'), 'Remove').click();
        await card('A moderator removes this.').waitFor({ state: 'detached' });
        expect((await mod.api.get(commentPath(removed.id))).body).toMatchObject({ status: 'hidden', hidden_by: 'moderator' });
        await button(postCard, 'Dismiss').click();
        await shows(main(s.page), 'No open reports.');
        await noAxe(s.page, '/moderation, empty');
      }));

    it('/moderation is for moderators only, and its link is theirs', () =>
      withPage(async (s) => {
        const { judy } = site.api.users;
        await logIn(s, judy);
        expect(await link(mainNav(s.page), 'Moderation').count()).toBe(0);
        await visit(s, '/moderation');
        await oneH1(s.page, 'Moderation');
        await shows(main(s.page), 'This page is for moderators.');
        await noAxe(s.page, '/moderation to others');
      }));

    it('a moderator suspends (in the dialog) and reinstates from a profile; a moderator is shown as one', () =>
      withPage(async (s) => {
        const { frank, mod } = site.api.users;
        await logIn(s, mod);
        await visit(s, `/users/${mod.username}`);
        await shows(main(s.page), 'Moderator');
        expect(await button(main(s.page), 'Suspend').count()).toBe(0);

        await visit(s, `/users/${frank.username}`);
        await button(main(s.page), 'Suspend').click();
        const ask = dialog(s.page, 'Suspend this user?');
        await ask.waitFor();
        await noAxe(s.page, 'the suspend dialog');
        await button(ask, 'Cancel').click();
        await ask.waitFor({ state: 'hidden' });
        expect((await mod.api.get(suspensionPath(frank.username))).body).toEqual({ suspended: false });
        await button(main(s.page), 'Suspend').click();
        await button(ask, 'Suspend').click();
        await button(main(s.page), 'Reinstate').waitFor();
        expect((await mod.api.get(suspensionPath(frank.username))).body).toEqual({ suspended: true });
        await noAxe(s.page, 'a suspended profile');
        await button(main(s.page), 'Reinstate').click();
        await button(main(s.page), 'Suspend').waitFor();
        expect((await mod.api.get(suspensionPath(frank.username))).body).toEqual({ suspended: false });
      }));
  });

  describe.concurrent('at 360 px and 1280 px, light and dark', () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`the comments region fits the width, without axe violations (${colorScheme}; screenshots)`, () =>
        withPage(
          async (s) => {
            const { alice, bob, carol, dave, leo } = site.api.users;
            const post = await publishedPost(alice, {
              title: unique('Notes on cold starts '),
              description: 'Cold starts are **rare** with provisioned concurrency.',
            });
            const first = await comment(bob.api, post.slug, 'Provisioned concurrency costs money, though. Did you measure the **difference**?');
            await comment(alice.api, post.slug, 'Yes: about 40 ms at p99 against 900 ms without.', first.id);
            for (let i = 0; i < 3; i++) await comment(leo.api, post.slug, `Another data point (${i + 1}).`, first.id);
            await comment(dave.api, post.slug, 'SnapStart helps too, for Java.');
            await logIn(s, carol);
            for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
              await s.page.setViewportSize(viewport);
              await openPost(s, post.slug);
              await button(region(s.page), 'Show 1 more reply').waitFor();
              await fitsWidth(s.page);
              await noAxe(s.page, `the comments at ${viewport.width} px`);
              await region(s.page).evaluate((element) => element.scrollIntoView({ block: 'start' }));
              if (colorScheme === 'light') await screenshot(s.page, `comments-${viewport.width}`);
            }
          },
          { colorScheme },
        ));
    }
  });
});

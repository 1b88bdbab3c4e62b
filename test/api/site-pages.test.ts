import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it } from 'vitest';
import { SITE_SECURITY_HEADERS } from '#lib/site/headers.ts';
import { createPost, unique, type ApiClient } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { countDynamoDbCalls } from '../support/dynamodb-calls.ts';
import { functionName } from '#lib/routes.ts';
import { PAGE_HANDLER } from '../../infra/pages.ts';
import { deniedPermission } from '../../scripts/local/iam-policy.ts';

// The pages as crawlers and link previews read them (docs/site.md, "Pages for crawlers and link
// previews"): fetched without JavaScript from `npm start`'s server, which answers through the same
// page function as the deployed stack. Each page type's status, exact head and body text; the
// status codes of the paths and of renamed posts; injection through titles, tags and profiles;
// the same bytes for every crawler; an edit reaching the HTML; and the site with public reads off.

const SITE = 'Harbour Notes';
const ROOT = `${import.meta.dirname}/../../web/dist`;
const HOSTILE = `</script><script>alert(1)</script> "quoted" & more`;

/** The part of a jsdom document the tests read (the project's types have no DOM library). */
interface Node {
  readonly textContent: string | null;
  readonly children: { length: number };
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): Node | null;
  querySelectorAll(selector: string): Node[] & { length: number };
}

interface Document extends Node {
  readonly title: string;
  readonly head: Node;
  readonly documentElement: Node;
}

interface Page {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  document: Document;
}

const parse = (html: string) => (new JSDOM(html).window as { document: Document }).document;

/** A GET (or HEAD) of the site without JavaScript, as a crawler sends it. */
function fetchPage(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Page> {
  const { port } = new URL(origin);
  return new Promise((done, fail) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers: { 'user-agent': 'Googlebot/2.1', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        done({ status: response.statusCode!, headers: response.headers, text, document: parse(text) });
      });
    });
    request.on('error', fail);
    request.end();
  });
}

const metaOf = (document: Document, attribute: 'name' | 'property', key: string) =>
  [...document.head.querySelectorAll(`meta[${attribute}="${key}"]`)].map((meta) => meta.getAttribute('content'));

/** The head's tags §3 names, by key, each key's values in order. */
function headOf(document: Document) {
  return {
    title: document.title,
    description: metaOf(document, 'name', 'description'),
    applicationName: metaOf(document, 'name', 'application-name'),
    robots: metaOf(document, 'name', 'robots'),
    canonical: [...document.head.querySelectorAll('link[rel="canonical"]')].map((link) => link.getAttribute('href')),
    feeds: [...document.head.querySelectorAll('link[rel="alternate"][type="application/rss+xml"]')].map((link) => link.getAttribute('href')),
    og: Object.fromEntries(['og:site_name', 'og:type', 'og:title', 'og:description', 'og:url'].map((key) => [key, metaOf(document, 'property', key)])),
    twitter: Object.fromEntries(['twitter:card', 'twitter:title', 'twitter:description'].map((key) => [key, metaOf(document, 'name', key)])),
  };
}

/** The head §3 asks of every page, for a page with these values. */
function expectedHead(origin: string, path: string, title: string, ogTitle: string, description: string, ogType: string, robots: string[] = []) {
  return {
    title,
    description: [description],
    applicationName: [SITE],
    robots,
    canonical: [`${origin}${path}`],
    og: { 'og:site_name': [SITE], 'og:type': [ogType], 'og:title': [ogTitle], 'og:description': [description], 'og:url': [`${origin}${path}`] },
    twitter: { 'twitter:card': ['summary'], 'twitter:title': [ogTitle], 'twitter:description': [description] },
  };
}

/** What every page owes (§3): English, one h1, no script that runs inline, no style attribute. */
function expectWellFormed(page: Page): void {
  const { document } = page;
  expect(document.documentElement.getAttribute('lang')).toBe('en');
  expect(document.querySelectorAll('h1')).toHaveLength(1);
  for (const script of document.querySelectorAll('script')) {
    const type = script.getAttribute('type');
    if (script.hasAttribute('src')) expect(type).toBe('module');
    else expect(['application/ld+json', 'application/json']).toContain(type);
  }
  expect(document.querySelectorAll('[style]')).toHaveLength(0);
  expect(document.querySelectorAll('style')).toHaveLength(0);
}

const h1 = (page: Page) => page.document.querySelector('main h1')?.textContent;
const mainText = (page: Page) => page.document.querySelector('main')?.textContent ?? '';

describe('pages with public reads on', () => {
  const api = useApi({ users: ['alice', 'bob'], siteRoot: ROOT, apiEnvironment: { PUBLIC_READS: 'true', SITE_NAME: SITE } });
  let origin: string;
  let client: ApiClient;
  let post: { slug: string; created: string; modified: string; title: string };
  let tagSlug: string;
  const tagTitle = unique('Harbours ');

  beforeAll(async () => {
    origin = new URL(api.url).origin;
    client = api.client();
    const { alice } = api.users;
    await alice.api.put(`/users/detail/${alice.username}`, { form: { display_name: 'Alice Quay', about_me: 'I write   about\nboats and tides.' } });
    post = await createPost(alice.api, {
      title: unique('Tides and harbours '),
      description: '# Why tides\n\nThe **moon** pulls the sea.',
      tags: `${tagTitle}, Moon`,
      keywords: ' sea, moon ,, Tides ',
      publish: 'true',
    });
    tagSlug = (await client.get(`/tags/detail/${encodeURIComponent(tagTitle.toLowerCase().replace(/ /g, '-'))}`)).body?.slug;
    if (!tagSlug) tagSlug = (await client.get('/tags', { query: { q: tagTitle } })).body[0].slug;
  });

  it('renders a post: status, exact head, JSON-LD and the text, for a crawler without JavaScript', async () => {
    const page = await fetchPage(origin, `/posts/${post.slug}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(page.headers['cache-control']).toBe('public, max-age=0, s-maxage=10');
    for (const [name, value] of Object.entries(SITE_SECURITY_HEADERS)) expect(page.headers[name], name).toBe(value);
    expect(page.headers['x-robots-tag']).toBeUndefined();
    const path = `/posts/${post.slug}`;
    const description = 'Why tides The moon pulls the sea.';
    expect(headOf(page.document)).toEqual({
      ...expectedHead(origin, path, `${post.title} · ${SITE}`, post.title, description, 'article'),
      feeds: ['/api/v1/feed'],
    });
    expect(metaOf(page.document, 'property', 'article:published_time')).toEqual([post.created]);
    expect(metaOf(page.document, 'property', 'article:modified_time')).toEqual([post.modified]);
    expect(metaOf(page.document, 'property', 'article:author')).toEqual([`${origin}/users/${api.users.alice.username}`]);
    expect(metaOf(page.document, 'property', 'article:tag')).toEqual([tagTitle, 'Moon']);
    const blocks = page.document.querySelectorAll('script[type="application/ld+json"]');
    expect(blocks).toHaveLength(1);
    expect(JSON.parse(blocks[0]!.textContent!)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: post.title,
      description,
      author: { '@type': 'Person', name: api.users.alice.username, url: `${origin}/users/${api.users.alice.username}` },
      datePublished: post.created,
      dateModified: post.modified,
      keywords: [tagTitle, 'Moon', 'sea', 'Tides'],
      mainEntityOfPage: { '@type': 'WebPage', '@id': `${origin}${path}` },
      publisher: { '@type': 'Organization', name: SITE },
    });
    expectWellFormed(page);
    expect(h1(page)).toBe(post.title);
    const article = page.document.querySelector('main article')!;
    expect(article.querySelector(`a[href="/users/${api.users.alice.username}"]`)?.textContent).toBe(api.users.alice.username);
    expect(article.querySelector('.prose strong')?.textContent).toBe('moon');
    expect([...article.querySelectorAll('time')].map((time) => time.getAttribute('datetime'))).toContain(new Date(post.created).toISOString());
    expect(article.querySelector(`a[href="/tags/${tagSlug}"]`)?.textContent).toBe(tagTitle);
    expect(page.document.querySelector('#related-title')?.textContent).toBe('Related posts');
    expect(mainText(page)).not.toMatch(/Loading/);
    expect(page.document.querySelector('.site-header .brand')?.textContent).toBe(SITE);
  });

  it('renders the home page, /tags, a tag and a profile with their heads and content', async () => {
    const home = await fetchPage(origin, '/');
    expect(home.status).toBe(200);
    const homeDescription = `${SITE}: read, write, vote on and discuss the community's posts.`;
    expect(headOf(home.document)).toEqual({ ...expectedHead(origin, '/', SITE, SITE, homeDescription, 'website'), feeds: ['/api/v1/feed'] });
    expectWellFormed(home);
    expect(h1(home)).toBe('Posts');
    expect(home.document.querySelector(`main a[href="/posts/${post.slug}"]`)?.textContent).toBe(post.title);
    expect(home.document.querySelector('nav[aria-label="Pagination"]')).not.toBeNull();

    const tags = await fetchPage(origin, '/tags');
    expect(tags.status).toBe(200);
    expect(headOf(tags.document)).toEqual({
      ...expectedHead(origin, '/tags', `Tags · ${SITE}`, 'Tags', `All tags on ${SITE}.`, 'website'),
      feeds: ['/api/v1/feed'],
    });
    expectWellFormed(tags);
    expect(tags.document.querySelector(`main a[href="/tags/${tagSlug}"]`)).not.toBeNull();

    const tag = await fetchPage(origin, `/tags/${tagSlug}`);
    expect(tag.status).toBe(200);
    const tagHeading = `Posts tagged “${tagTitle}”`;
    expect(headOf(tag.document)).toEqual({
      ...expectedHead(origin, `/tags/${tagSlug}`, `${tagHeading} · ${SITE}`, tagHeading, `${tagHeading} on ${SITE}.`, 'website'),
      feeds: ['/api/v1/feed', `/api/v1/feed?tag=${tagSlug}`],
    });
    expectWellFormed(tag);
    expect(h1(tag)).toBe(tagHeading);
    expect(tag.document.querySelector(`main a[href="/posts/${post.slug}"]`)).not.toBeNull();

    const { alice } = api.users;
    const profile = await fetchPage(origin, `/users/${alice.username}`);
    expect(profile.status).toBe(200);
    expect(headOf(profile.document)).toEqual({
      ...expectedHead(origin, `/users/${alice.username}`, `Alice Quay · ${SITE}`, 'Alice Quay', 'I write about boats and tides.', 'profile'),
      feeds: ['/api/v1/feed'],
    });
    expect(metaOf(profile.document, 'property', 'profile:username')).toEqual([alice.username]);
    expectWellFormed(profile);
    expect(h1(profile)).toBe('Alice Quay');
    expect(profile.document.querySelector(`main a[href="/posts/${post.slug}"]`)).not.toBeNull();
  });

  it('answers every path of §2 with its status', async () => {
    const { bob } = api.users;
    const draft = await createPost(bob.api, { title: unique('Draft '), description: 'not yet', publish: 'false' });
    const gone = await createPost(bob.api, { title: unique('Gone '), description: 'soon deleted', publish: 'true' });
    expect((await bob.api.delete(`/posts/detail/${gone.slug}`)).status).toBe(204);

    for (const path of [
      '/nowhere',
      '/posts',
      `/posts/${draft.slug}`,
      `/posts/${gone.slug}`,
      '/posts/no-such-post-here',
      '/posts/%ZZ',
      '/posts/Not%20A%20Slug',
      '/tags/no-such-tag-here',
      `/users/${unique('nobody')}`,
      '/index.html',
      '/sitemaps/none.xml',
    ]) {
      const page = await fetchPage(origin, path);
      expect(page.status, path).toBe(404);
      expect(page.document.title, path).toBe(`Page not found · ${SITE}`);
      expect(metaOf(page.document, 'name', 'robots'), path).toEqual(['noindex']);
      expect(h1(page), path).toBe('Page not found');
      expect(page.headers['cache-control'], path).toBe('public, max-age=0, s-maxage=10');
    }
    // The 404's h1 is in the first bytes: no script is needed to read it.
    expect((await fetchPage(origin, '/nowhere')).text).toMatch(/<h1>Page not found<\/h1>/);

    for (const path of [
      `/posts/${post.slug}/edit`,
      '/write',
      `/users/${bob.username}/favorites`,
      '/me/posts',
      '/moderation',
      '/login',
      '/signup',
      '/settings/profile',
      '/settings/password',
      '/?page=2',
      '/?sort=votes',
      '/?q=tides',
      `/tags/${tagSlug}?page=2`,
      '/tags?q=x',
    ]) {
      const page = await fetchPage(origin, path);
      expect(page.status, path).toBe(200);
      expect(metaOf(page.document, 'name', 'robots'), path).toEqual(['noindex']);
      expect(page.document.querySelector('#app')?.children, path).toHaveLength(0);
      expect(page.document.title, path).toBe(SITE);
    }

    for (const path of ['/tags/', `/posts/${post.slug}/`, `/users/${bob.username}/`]) {
      const page = await fetchPage(origin, path);
      expect(page.status, path).toBe(301);
      expect(page.headers.location, path).toBe(`${origin}${path.slice(0, -1)}`);
    }

    // A profile without a published post: a page, not indexed.
    const quiet = await fetchPage(origin, `/users/${bob.username}`);
    expect(quiet.status).toBe(200);
    expect(metaOf(quiet.document, 'name', 'robots')).toEqual(['noindex']);
  });

  it('ignores other query parameters, validates with its ETag, and answers HEAD without a body', async () => {
    const path = `/posts/${post.slug}`;
    const plain = await fetchPage(origin, path);
    const tracked = await fetchPage(origin, `${path}?utm_source=newsletter&utm_medium=email`);
    expect(tracked.status).toBe(200);
    expect(tracked.text).toBe(plain.text);
    const again = await fetchPage(origin, path, { 'if-none-match': plain.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const head = await fetchPage(origin, path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.etag).toBe(plain.headers.etag);
  });

  it('sends the same bytes to every browser and crawler', async () => {
    const agents = [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Twitterbot/1.0',
      'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    ];
    for (const path of ['/', `/posts/${post.slug}`, `/tags/${tagSlug}`, `/users/${api.users.alice.username}`, '/nowhere']) {
      const pages = await Promise.all(agents.map((agent) => fetchPage(origin, path, { 'user-agent': agent })));
      for (const page of pages) expect(page.text, path).toBe(pages[0]!.text);
    }
  });

  it('keeps titles, tags and profiles inert in the HTML and the JSON blocks', async () => {
    const { bob } = api.users;
    await bob.api.put(`/users/detail/${bob.username}`, { form: { display_name: HOSTILE, about_me: HOSTILE } });
    const hostile = await createPost(bob.api, {
      title: `Hostile ${HOSTILE}`,
      description: `Text ${HOSTILE}`,
      tags: 'Quoted "tag" & <b>more</b>',
      keywords: HOSTILE,
      publish: 'true',
    });
    const tag = (await client.get('/tags', { query: { q: 'Quoted' } })).body[0];
    for (const path of [`/posts/${hostile.slug}`, `/users/${bob.username}`, `/tags/${tag.slug}`, '/']) {
      const page = await fetchPage(origin, path);
      expect(page.status, path).toBe(200);
      expectWellFormed(page);
      for (const script of page.document.querySelectorAll('script:not([src])')) expect(() => JSON.parse(script.textContent!), path).not.toThrow();
      expect(page.text, path).not.toContain('<script>alert(1)');
    }
    const post = await fetchPage(origin, `/posts/${hostile.slug}`);
    expect(h1(post)).toBe(`Hostile ${HOSTILE}`);
    expect(JSON.parse(post.document.querySelector('script[type="application/ld+json"]')!.textContent!).headline).toBe(`Hostile ${HOSTILE}`);
    expect(metaOf(post.document, 'property', 'og:title')).toEqual([`Hostile ${HOSTILE}`]);
    expect(metaOf(post.document, 'property', 'article:tag')).toEqual(['Quoted "tag" & <b>more</b>']);
    const profile = await fetchPage(origin, `/users/${bob.username}`);
    expect(profile.document.title).toBe(`${HOSTILE} · ${SITE}`);
  });

  it('sends a renamed post on to its new address, one hop, while it is published', async () => {
    const { alice } = api.users;
    const first = await createPost(alice.api, { title: unique('First name '), description: 'moves', publish: 'true' });
    const second = (await alice.api.put(`/posts/detail/${first.slug}`, { form: { title: unique('Second name ') } })).body;
    const third = (await alice.api.put(`/posts/detail/${second.slug}`, { form: { title: unique('Third name ') } })).body;
    expect(new Set([first.slug, second.slug, third.slug]).size).toBe(3);
    for (const old of [first.slug, second.slug]) {
      const page = await fetchPage(origin, `/posts/${old}?utm_source=x`);
      expect(page.status, old).toBe(301);
      expect(page.headers.location, old).toBe(`${origin}/posts/${third.slug}`);
    }
    expect((await fetchPage(origin, `/posts/${third.slug}`)).status).toBe(200);

    // The old slug taken by a new post: that post's page.
    const taker = await createPost(alice.api, { title: first.title, description: 'takes the name', publish: 'true' });
    expect(taker.slug).toBe(first.slug);
    expect(h1(await fetchPage(origin, `/posts/${first.slug}`))).toBe(first.title);
    // ... or a draft: 404, the slug is its holder's.
    expect((await alice.api.put(`/posts/detail/${taker.slug}`, { form: { publish: 'false' } })).status).toBe(200);
    expect((await fetchPage(origin, `/posts/${first.slug}`)).status).toBe(404);

    // Unpublished, the post's old addresses are 404; deleted too.
    expect((await alice.api.put(`/posts/detail/${third.slug}`, { form: { publish: 'false' } })).status).toBe(200);
    expect((await fetchPage(origin, `/posts/${second.slug}`)).status).toBe(404);
    expect((await alice.api.put(`/posts/detail/${third.slug}`, { form: { publish: 'true' } })).status).toBe(200);
    expect((await fetchPage(origin, `/posts/${second.slug}`)).status).toBe(301);
    expect((await alice.api.delete(`/posts/detail/${third.slug}`)).status).toBe(204);
    expect((await fetchPage(origin, `/posts/${second.slug}`)).status).toBe(404);
  });

  it('shows an edit in the HTML within 10 seconds of the API’s answer', async () => {
    const { alice } = api.users;
    const edited = await createPost(alice.api, { title: unique('Before '), description: 'first words', publish: 'true' });
    expect((await fetchPage(origin, `/posts/${edited.slug}`)).status).toBe(200);
    const words = unique('later words ');
    expect((await alice.api.put(`/posts/detail/${edited.slug}`, { json: { description: words } })).status).toBe(200);
    const answered = Date.now();
    let seen: number | undefined;
    while (Date.now() - answered < 10_000) {
      const page = await fetchPage(origin, `/posts/${edited.slug}`);
      if (page.document.querySelector('main .prose')?.textContent?.includes(words) && metaOf(page.document, 'name', 'description')[0] === words) {
        seen = Date.now() - answered;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(seen, 'the new title within 10 s').toBeDefined();
  });

  it('serves robots.txt byte for byte, and the sitemap index', async () => {
    const robots = await fetchPage(origin, '/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.text).toBe(`User-agent: *\nAllow: /api/v1/feed\nDisallow: /api/\nSitemap: ${origin}/sitemap.xml\n`);
    const index = await fetchPage(origin, '/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('application/xml');
    expect(index.text).toContain('<sitemapindex');
    for (const answer of [robots, index, await fetchPage(origin, '/favicon.svg')]) expect(answer.headers['x-robots-tag']).toBeUndefined();
  });

  it('costs a miss a fixed number of round trips, printed with its read units (docs/site.md, "Freshness and cost")', async () => {
    const { alice } = api.users;
    const renamed = await createPost(alice.api, { title: unique('Was called '), description: 'moves', publish: 'true' });
    const now = (await alice.api.put(`/posts/detail/${renamed.slug}`, { form: { title: unique('Now called ') } })).body as { slug: string };
    const calls = countDynamoDbCalls();
    try {
      const cost = async (path: string, status = 200) => {
        let answered = 0;
        const usage = await calls.usage(async () => {
          answered = (await fetchPage(origin, path)).status;
        });
        expect(answered, path).toBe(status);
        console.info(`page miss ${path}: ${usage.rounds} round trips, ${JSON.stringify(usage.calls)}, ${usage.rcu} RCU`);
        return usage;
      };
      expect((await cost(`/posts/${post.slug}`)).rounds).toBe(2);
      expect((await cost(`/posts/${renamed.slug}`, 301)).rounds).toBe(3);
      expect((await cost(`/posts/${now.slug}`)).rounds).toBeLessThanOrEqual(2);
      for (const path of ['/', '/tags', `/tags/${tagSlug}`, `/users/${alice.username}`]) expect((await cost(path)).rounds, path).toBeLessThanOrEqual(2);
      expect((await cost('/posts/no-such-post', 404)).rounds).toBeLessThanOrEqual(2);
      expect((await cost('/sitemap.xml')).rounds).toBeLessThanOrEqual(3);
    } finally {
      calls.detach();
    }
  });

  it("uses every permission of the page function's role, and needs no other, over every page type", async () => {
    const { alice } = api.users;
    const renamed = await createPost(alice.api, { title: unique('Old name '), description: 'moves', publish: 'true' });
    const now = (await alice.api.put(`/posts/detail/${renamed.slug}`, { form: { title: unique('New name ') } })).body as { slug: string };
    const paths = ['/', '/tags', `/posts/${post.slug}`, `/tags/${tagSlug}`, `/users/${alice.username}`, `/posts/${now.slug}`, '/nowhere'];
    for (const path of paths) expect((await fetchPage(origin, path)).status, path).toBe(path === '/nowhere' ? 404 : 200);
    expect((await fetchPage(origin, `/posts/${renamed.slug}`)).status).toBe(301);
    const index = await fetchPage(origin, '/sitemap.xml');
    for (const child of index.document.querySelectorAll('sitemap > loc')) {
      expect((await fetchPage(origin, new URL(child.textContent!).pathname)).status).toBe(200);
    }
    const page = api.server.deployment.functions.get(functionName(PAGE_HANDLER))!;
    const used = [...(api.server.guard.used.get(page.name) ?? [])].map((use) => use.split(' ') as [string, string]);
    const granted = page.policy.flatMap((statement) => statement.actions.flatMap((action) => statement.resources.map((resource) => ({ action, resource }))));
    expect(granted.length).toBeGreaterThan(0);
    const allows = (grant: { action: string; resource: string }, [action, resource]: [string, string]) =>
      deniedPermission([{ actions: [grant.action], resources: [grant.resource] }], [{ action, resource }]) === undefined;
    const unused = granted.filter((grant) => !used.some((use) => allows(grant, use)));
    expect(unused.map((grant) => `${grant.action} ${grant.resource}`)).toEqual([]);
    expect(api.server.guard.denials).toEqual([]);
  });
});

describe('pages with public reads off', () => {
  const api = useApi({ siteRoot: ROOT });

  it('gives every page path the shell, noindex, and no sitemap', async () => {
    const origin = new URL(api.url).origin;
    for (const path of ['/', '/posts/anything', '/tags', '/nowhere', '/login', '/users/x']) {
      const page = await fetchPage(origin, path);
      expect(page.status, path).toBe(200);
      expect(page.headers['x-robots-tag'], path).toBe('noindex');
      expect(metaOf(page.document, 'name', 'robots'), path).toEqual(['noindex']);
      expect(page.document.querySelector('#app')?.children, path).toHaveLength(0);
      expect(page.document.title, path).toBe('Community Posts');
    }
    const sitemap = await fetchPage(origin, '/sitemap.xml');
    expect(sitemap.status).toBe(404);
    expect(sitemap.headers['x-robots-tag']).toBe('noindex');
    const robots = await fetchPage(origin, '/robots.txt');
    expect(robots.text).toBe('User-agent: *\nAllow: /api/v1/feed\nDisallow: /api/\n');
    expect(robots.headers['x-robots-tag']).toBe('noindex');
    // The build's files as well, as CloudFront's headers policy adds it; the API's answers keep their own.
    const shell = await fetchPage(origin, '/');
    const script = shell.document.querySelector('script[src]')!.getAttribute('src')!;
    for (const path of [script, '/favicon.svg']) {
      const file = await fetchPage(origin, path);
      expect(file.status, path).toBe(200);
      expect(file.headers['x-robots-tag'], path).toBe('noindex');
    }
    const feed = await fetchPage(origin, '/api/v1/feed');
    expect(feed.headers['x-robots-tag']).toBeUndefined();
  });
});

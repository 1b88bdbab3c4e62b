import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { robotsTxt } from '#lib/pages/robots.ts';
import { sitemapIndexXml, sitemapXml } from '#lib/pages/sitemap.ts';
import { renamedTarget, slugLeftBy } from '#lib/posts/renamed.ts';
import { BUNDLES, unique, type ApiClient } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// Spec site-pages §4 (renamed posts) and §6 (sitemap, robots.txt), against DynamoDB Local: posts
// are written through the API (its functions, with their IAM), and the lib functions the page
// renderer calls read the same table (this file's, TABLE_NAME). The sitemap is validated against
// the official sitemaps.org schemas (test/fixtures/sitemaps/), offline, with Java's validator.

const api = useApi({ users: ['alice', 'bob', 'carol'] });
const { alice, bob, carol } = api.users;

const ORIGIN = 'https://posts.example';
const FIXTURES = fileURLToPath(new URL('../fixtures/sitemaps/', import.meta.url));
const run = promisify(execFile);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

type Url = { loc: string; lastmod?: string };

/** The document's children (index) or URLs (child), parsed. */
function parseIndex(xml: string): string[] {
  const document = parser.parse(xml);
  expect(document.sitemapindex['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  return (document.sitemapindex.sitemap as { loc: string }[]).map((sitemap) => sitemap.loc);
}

function parseUrlset(xml: string): Url[] {
  const document = parser.parse(xml);
  expect(document.urlset['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  return document.urlset.url as Url[];
}

/** Validates each document against the schema (sitemap.xsd or siteindex.xsd): `valid` for each, or the validator's error. */
async function validate(schema: 'sitemap.xsd' | 'siteindex.xsd', documents: string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sitemap-'));
  try {
    const files = documents.map((xml, at) => {
      const file = join(dir, `${at}.xml`);
      writeFileSync(file, xml);
      return file;
    });
    const result = await run('java', [join(FIXTURES, 'Validate.java'), join(FIXTURES, schema), ...files]).catch((error: { stdout?: string }) => ({
      stdout: error.stdout ?? String(error),
    }));
    return result.stdout.trim().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `modified` as the API gives it (`2026-01-05T14:12:15.258987+00:00`), to the second in the sitemap's form. */
function toSecond(modified: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d+\+00:00$/.exec(modified);
  expect(match, modified).not.toBeNull();
  return `${match![1]}+00:00`;
}

interface Written {
  slug: string;
  modified: string;
}

async function write(client: ApiClient, fields: Record<string, unknown>): Promise<Written> {
  const response = await client.post('/posts', { json: { description: 'Body text that no sitemap reads.', ...fields } });
  expect(response.status, response.text).toBe(201);
  return response.body as Written;
}

async function update(client: ApiClient, slug: string, fields: Record<string, unknown>): Promise<Written> {
  const response = await client.put(`/posts/detail/${slug}`, { json: fields });
  expect(response.status, response.text).toBe(200);
  return response.body as Written;
}

async function remove(client: ApiClient, slug: string): Promise<void> {
  const response = await client.delete(`/posts/detail/${slug}`);
  expect(response.status, response.text).toBe(204);
}

/** The post as GET /posts/detail/{slug} shows it to a reader who is not its author (public reads are off here), or its status. */
async function detail(slug: string): Promise<Written | number> {
  const response = await carol.api.get(`/posts/detail/${slug}`);
  return response.status === 200 ? (response.body as Written) : response.status;
}

/** The month of now (UTC), as the sitemap's children name it. */
const monthOf = (iso: string) => iso.slice(0, 7);

describe('robots.txt', () => {
  it('is exactly the four lines of §6 with public reads on, each ending with a newline', () => {
    expect(robotsTxt(ORIGIN, true)).toBe(`User-agent: *\nAllow: /api/v1/feed\nDisallow: /api/\nSitemap: ${ORIGIN}/sitemap.xml\n`);
  });

  it('has no Sitemap line with public reads off', () => {
    expect(robotsTxt(ORIGIN, false)).toBe('User-agent: *\nAllow: /api/v1/feed\nDisallow: /api/\n');
  });
});

describe('sitemap', () => {
  const tag = { shown: unique('Shown'), draftOnly: unique('DraftOnly'), deletedOnly: unique('DeletedOnly') };
  let published: Written[] = [];
  let draft: Written;
  let deleted: Written;
  let renamedFrom: string;
  let renamedTo: Written;
  let index: string;
  let children: string[];

  beforeAll(async () => {
    const first = await write(alice.api, { title: unique('Sitemap first '), publish: true, tags: [tag.shown] });
    const second = await write(alice.api, { title: unique('Sitemap second '), publish: true });
    draft = await write(alice.api, { title: unique('Sitemap draft '), publish: false, tags: [tag.draftOnly] });
    await write(bob.api, { title: unique('Sitemap bob draft '), publish: false });
    const toDelete = await write(alice.api, { title: unique('Sitemap deleted '), publish: true, tags: [tag.deletedOnly] });
    await remove(alice.api, toDelete.slug);
    deleted = toDelete;
    const toRename = await write(alice.api, { title: unique('Sitemap old name '), publish: true });
    renamedFrom = toRename.slug;
    renamedTo = await update(alice.api, toRename.slug, { title: unique('Sitemap new name ') });
    // Read back as the API shows them: `modified` is the post's last change.
    published = [];
    for (const post of [first, second, renamedTo]) published.push((await detail(post.slug)) as Written);
    index = await sitemapIndexXml(ORIGIN);
    children = parseIndex(index);
  });

  it('is an index naming pages.xml and the children of this month under {origin}/sitemaps/', () => {
    const month = monthOf(published[0]!.modified);
    expect(children).toEqual([
      `${ORIGIN}/sitemaps/pages.xml`,
      `${ORIGIN}/sitemaps/posts-${month}.xml`,
      `${ORIGIN}/sitemaps/tags-${month}.xml`,
      `${ORIGIN}/sitemaps/profiles-${month}.xml`,
    ]);
    expect(index.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')).toBe(true);
  });

  it('pages.xml lists / and /tags, nothing else', async () => {
    expect(parseUrlset((await sitemapXml('pages.xml', `${ORIGIN}/`))!)).toEqual([{ loc: `${ORIGIN}/` }, { loc: `${ORIGIN}/tags` }]);
  });

  it("the posts' child lists exactly the published posts, renamed ones under their new slug, each with `modified` to the second", async () => {
    const urls = parseUrlset((await sitemapXml(`posts-${monthOf(published[0]!.modified)}.xml`, ORIGIN))!);
    const expected = published.map((post) => ({ loc: `${ORIGIN}/posts/${post.slug}`, lastmod: toSecond(post.modified) }));
    expect(urls).toEqual(expected);
    for (const url of urls) expect(url.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    const locs = urls.map((url) => url.loc);
    for (const absent of [draft.slug, deleted.slug, renamedFrom]) expect(locs).not.toContain(`${ORIGIN}/posts/${absent}`);
  });

  it('an edit moves a post’s lastmod; unpublishing takes it out', async () => {
    const [first] = published;
    // The bundles run on their own clocks: there the edit may fall in the same second.
    if (!BUNDLES) api.clock.nextSecond();
    const edited = await update(alice.api, first!.slug, { description: 'Edited body.' });
    if (!BUNDLES) expect(toSecond(edited.modified)).not.toBe(toSecond(first!.modified));
    const child = `posts-${monthOf(first!.modified)}.xml`;
    const urls = parseUrlset((await sitemapXml(child, ORIGIN))!);
    expect(urls.find((url) => url.loc === `${ORIGIN}/posts/${first!.slug}`)?.lastmod).toBe(toSecond(edited.modified));
    await update(alice.api, first!.slug, { publish: false });
    const after = parseUrlset((await sitemapXml(child, ORIGIN))!).map((url) => url.loc);
    expect(after).not.toContain(`${ORIGIN}/posts/${first!.slug}`);
    await update(alice.api, first!.slug, { publish: true });
    published[0] = (await detail(first!.slug)) as Written;
  });

  it('lists the tags and profiles with a published post, and not those without', async () => {
    const month = monthOf(published[0]!.modified);
    const tags = parseUrlset((await sitemapXml(`tags-${month}.xml`, ORIGIN))!).map((url) => url.loc);
    const shown = (await carol.api.get('/tags', { query: { q: tag.shown } })).body as { slug: string; title: string }[];
    expect(tags).toEqual([`${ORIGIN}/tags/${shown.find((t) => t.title === tag.shown)!.slug}`]);
    const profiles = parseUrlset((await sitemapXml(`profiles-${month}.xml`, ORIGIN))!).map((url) => url.loc);
    expect(profiles).toEqual([`${ORIGIN}/users/${encodeURIComponent(alice.username)}`]);
    for (const user of [bob, carol]) expect(profiles).not.toContain(`${ORIGIN}/users/${encodeURIComponent(user.username)}`);
  });

  it('answers undefined (404) for a name that is not a child now', async () => {
    for (const name of ['posts-1999-01.xml', 'posts-2026-13.xml', 'tags.xml', 'sitemap.xml', '../pages.xml', 'pages.xml.gz', 'profiles-2026-1.xml', '']) {
      expect(await sitemapXml(name, ORIGIN), name).toBeUndefined();
    }
  });

  it('is valid against the sitemaps.org schemas: the index against siteindex.xsd, every child against sitemap.xsd', async () => {
    const documents = await Promise.all(children.map((loc) => sitemapXml(loc.slice(`${ORIGIN}/sitemaps/`.length), ORIGIN)));
    expect(documents.every((xml) => xml !== undefined)).toBe(true);
    expect(await validate('siteindex.xsd', [index])).toEqual([expect.stringMatching(/^valid /)]);
    const results = await validate('sitemap.xsd', documents as string[]);
    expect(results).toHaveLength(documents.length);
    for (const result of results) expect(result).toMatch(/^valid /);
  });

  it('escapes what it writes as XML, and drops the C0 controls', async () => {
    const xml = (await sitemapXml('pages.xml', `https://posts.example/a&b<c>"d"'e'\u0001`))!;
    expect(xml).toContain('<loc>https://posts.example/a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;/</loc>');
    expect(xml).not.toContain('\u0001');
  });
});

describe('renamed posts (§4)', () => {
  it('a→b: a sends to b', async () => {
    const post = await write(alice.api, { title: unique('Rename once '), publish: true });
    const renamed = await update(alice.api, post.slug, { title: unique('Renamed once ') });
    expect(await detail(post.slug)).toBe(404);
    expect(await renamedTarget(post.slug)).toEqual({ kind: 'moved', slug: renamed.slug });
  });

  it('a→b→c: a and b both send to c (one hop)', async () => {
    const a = await write(alice.api, { title: unique('Rename twice a '), publish: true });
    const b = await update(alice.api, a.slug, { title: unique('Rename twice b ') });
    const c = await update(alice.api, b.slug, { title: unique('Rename twice c ') });
    expect(await renamedTarget(a.slug)).toEqual({ kind: 'moved', slug: c.slug });
    expect(await renamedTarget(b.slug)).toEqual({ kind: 'moved', slug: c.slug });
  });

  it('a renamed post unpublished: gone (a draft is 404), and sent to again once published', async () => {
    const a = await write(alice.api, { title: unique('Rename draft '), publish: true });
    const b = await update(alice.api, a.slug, { title: unique('Renamed draft ') });
    await update(alice.api, b.slug, { publish: false });
    expect(await renamedTarget(a.slug)).toEqual({ kind: 'gone' });
    await update(alice.api, b.slug, { publish: true });
    expect(await renamedTarget(a.slug)).toEqual({ kind: 'moved', slug: b.slug });
  });

  it('a draft renamed: gone', async () => {
    const a = await write(alice.api, { title: unique('Draft renamed '), publish: false });
    await update(alice.api, a.slug, { title: unique('Draft renamed again ') });
    expect(await renamedTarget(a.slug)).toEqual({ kind: 'gone' });
  });

  it('a renamed post deleted: gone', async () => {
    const a = await write(alice.api, { title: unique('Rename deleted '), publish: true });
    const b = await update(alice.api, a.slug, { title: unique('Renamed deleted ') });
    await remove(alice.api, b.slug);
    expect(await slugLeftBy(a.slug)).toEqual(expect.any(String));
    expect(await renamedTarget(a.slug)).toEqual({ kind: 'gone' });
  });

  it('an unknown slug, and a value that cannot be a slug: gone', async () => {
    expect(await renamedTarget(unique('never-written-').toLowerCase())).toEqual({ kind: 'gone' });
    expect(await renamedTarget('Not A Slug/..')).toEqual({ kind: 'gone' });
    expect(await slugLeftBy('')).toBeUndefined();
  });

  it('a slug taken again by a new post is that post’s (the caller finds it and never asks); once that post is deleted, the slug is gone', async () => {
    const title = unique('Taken again ');
    const a = await write(alice.api, { title, publish: true });
    const b = await update(alice.api, a.slug, { title: unique('Moved away ') });
    const taker = await write(bob.api, { title, publish: true });
    expect(taker.slug).toBe(a.slug);
    expect(await detail(a.slug)).toMatchObject({ slug: a.slug, author: bob.username });
    // The record still names the post that left: only the caller's own read decides (§4 rule 1).
    expect(await renamedTarget(a.slug)).toEqual({ kind: 'moved', slug: b.slug });
    await remove(bob.api, taker.slug);
    // Freed by a delete (§4 rule 4): the delete cleared the record of the slug it freed.
    expect(await slugLeftBy(a.slug)).toBeUndefined();
    expect(await renamedTarget(a.slug)).toEqual({ kind: 'gone' });
  });

  it('a→b→a: the post holds a again, and b sends to a', async () => {
    const title = unique('Round trip ');
    const a = await write(alice.api, { title, publish: true });
    const b = await update(alice.api, a.slug, { title: unique('Round trip away ') });
    const back = await update(alice.api, b.slug, { title });
    expect(back.slug).toBe(a.slug);
    expect(await renamedTarget(b.slug)).toEqual({ kind: 'moved', slug: a.slug });
  });
});

// Last: it moves the clock a month on, past the tokens of the users made before.
describe('sitemap months', () => {
  let firstMonthPost: Written;
  beforeAll(async () => {
    firstMonthPost = await write(carol.api, { title: unique('Sitemap this month '), publish: true });
  });
  afterAll(() => api.clock.reset());

  it.skipIf(BUNDLES)('cuts posts, tags and profiles by month: a later month gets children of its own, and the earlier ones keep theirs', async () => {
    const before = monthOf(firstMonthPost.modified);
    // 32 days on is always another month; tokens of the users made before have expired then.
    api.clock.advance(32 * 86_400_000);
    const dave = await api.user('dave');
    const later = await write(dave.api, { title: unique('Sitemap later '), publish: true, tags: [unique('Later')] });
    const month = monthOf(later.modified);
    expect(month > before).toBe(true);
    const names = parseIndex(await sitemapIndexXml(ORIGIN)).map((loc) => loc.slice(`${ORIGIN}/sitemaps/`.length));
    expect(names).toEqual([
      'pages.xml',
      `posts-${before}.xml`,
      `posts-${month}.xml`,
      `tags-${before}.xml`,
      `tags-${month}.xml`,
      `profiles-${before}.xml`,
      `profiles-${month}.xml`,
    ]);
    expect(parseUrlset((await sitemapXml(`posts-${month}.xml`, ORIGIN))!)).toEqual([
      { loc: `${ORIGIN}/posts/${later.slug}`, lastmod: toSecond(later.modified) },
    ]);
    expect(parseUrlset((await sitemapXml(`posts-${before}.xml`, ORIGIN))!).map((url) => url.loc)).toContain(`${ORIGIN}/posts/${firstMonthPost.slug}`);
    expect(parseUrlset((await sitemapXml(`profiles-${month}.xml`, ORIGIN))!)).toEqual([{ loc: `${ORIGIN}/users/${encodeURIComponent(dave.username)}` }]);
  });
});

import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLES, createPost, unique, type ApiResponse } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// docs/api.md, endpoint 21, black-box over HTTP:
//   GET /feed            public RSS 2.0 of the 20 newest published posts, newest first
//   GET /feed?tag=<slug> the feed of one tag; unknown tag 404 {"detail": "Not found."}
// with ETag and Last-Modified, and 304 for If-None-Match (weak comparison, lists, *), or without
// it for If-Modified-Since not older than Last-Modified.
//
// Tests that need the whole contents of a feed read the feed of a tag of their own.

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

const RSS_TYPE = 'application/rss+xml; charset=utf-8';
const DUBLIN_CORE = 'http://purl.org/dc/elements/1.1/';
const ATOM = 'http://www.w3.org/2005/Atom';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => name === 'item' || name === 'category',
});

type Item = {
  title: string;
  link: string;
  guid: string;
  description: string;
  pubDate: string;
  'dc:creator': { '#text': string; '@xmlns:dc': string };
  category?: string[];
};

function parse(response: ApiResponse) {
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toBe(RSS_TYPE);
  const document = parser.parse(response.text);
  return { rss: document.rss, channel: document.rss.channel, items: (document.rss.channel.item ?? []) as Item[] };
}

/** GET (or HEAD) /feed without a token. */
const feed = (query: Record<string, string> = {}, headers: Record<string, string> = {}, method = 'GET') =>
  api.client().request(method, '/feed', { query, headers: { Accept: 'application/rss+xml', ...headers } });

/** A tag of its own (created by a first post, a draft) and its slug. */
async function newTag(prefix = 'Feed') {
  const title = unique(prefix);
  const draft = await createPost(alice.api, { title: unique('Tag holder '), description: 'x', tags: title });
  const tag = (await alice.api.get(`/tags`, { query: { q: title } })).body[0];
  expect(tag.title).toBe(title);
  return { title, slug: tag.slug as string, draft };
}

const publish = (fields: Record<string, string>, api_ = alice.api) =>
  createPost(api_, { description: 'body', publish: 'true', ...fields, title: fields.title ?? unique('Post ') });

/** An RFC 822 date of a post's `created`, as the feed writes it. */
const rfc822 = (iso: string) => new Date(iso).toUTCString().replace(/GMT$/, '+0000');
/** Just past the next whole second, on the clock the handlers read (not a sleep). */
const nextSecond = () => api.clock.nextSecond();

describe('GET /feed', () => {
  it('is public RSS 2.0 with every field of each post, the channel and its validators', async () => {
    const tag = await newTag();
    const other = unique('Other');
    const withMeta = await publish({ tags: `${tag.title}, ${other}`, meta_description: 'Short summary', description: 'Long body' }, bob.api);
    const plain = await publish({ tags: tag.title, description: 'd'.repeat(350) });
    const response = await feed({ tag: tag.slug });
    const { rss, channel, items } = parse(response);

    expect(response.text.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(rss['@version']).toBe('2.0');
    expect(rss['@xmlns:atom']).toBe(ATOM);
    expect(channel.title).toBe(`Community Posts: ${tag.title}`);
    expect(channel.link).toBe(`${api.url}/posts/tagged/${tag.slug}`);
    expect(channel.description).toBe(`The newest published posts tagged ${tag.title}.`);
    expect(channel['atom:link']).toMatchObject({ '@href': `${api.url}/feed?tag=${tag.slug}`, '@rel': 'self' });
    expect(channel.lastBuildDate).toBe(rfc822(plain.modified));
    expect(response.headers.get('last-modified')).toBe(new Date(plain.modified).toUTCString());
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const cors = await feed({ tag: tag.slug }, { Origin: 'https://reader.example' });
    expect(cors.headers.get('access-control-allow-origin')).toBe('*');

    expect(items).toEqual([
      {
        title: plain.title,
        link: `${api.url}/posts/detail/${plain.slug}`,
        description: 'd'.repeat(300),
        'dc:creator': { '#text': alice.username, '@xmlns:dc': DUBLIN_CORE },
        pubDate: rfc822(plain.created),
        guid: `${api.url}/posts/detail/${plain.slug}`,
        category: [tag.title],
      },
      {
        title: withMeta.title,
        link: `${api.url}/posts/detail/${withMeta.slug}`,
        description: 'Short summary',
        'dc:creator': { '#text': bob.username, '@xmlns:dc': DUBLIN_CORE },
        pubDate: rfc822(withMeta.created),
        guid: `${api.url}/posts/detail/${withMeta.slug}`,
        category: [tag.title, other],
      },
    ]);
    expect(response.text).toContain(`<dc:creator xmlns:dc="${DUBLIN_CORE}">${alice.username}</dc:creator>`);
  });

  it('escapes titles, descriptions and tags, keeps emoji, and cuts descriptions at 300 characters (code points)', async () => {
    const tagTitle = `${unique('Q')} <&> "x"`;
    const title = `<b>Tom & "Jerry"</b> 'it' 🎉 ]]> ${unique('')}`;
    const description = '😀'.repeat(299) + '<&>';
    const post = await publish({ title, description, tags: tagTitle });
    const tag = (await alice.api.get('/tags', { query: { q: tagTitle.split(' ')[0]! } })).body[0];
    const response = await feed({ tag: tag.slug });
    const { channel, items } = parse(response);
    expect(items).toHaveLength(1);
    expect(items[0]!.title).toBe(title);
    expect(items[0]!.description).toBe('😀'.repeat(299) + '<');
    expect(items[0]!.category).toEqual([tagTitle]);
    expect(channel.title).toBe(`Community Posts: ${tagTitle}`);
    expect(response.text).not.toContain('<b>');
    expect(response.text).toContain('&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;');
    expect(post.slug).toBeTruthy();
  });

  it('lists the 20 newest published posts of a tag, newest first, without drafts', async () => {
    const tag = await newTag();
    const published = [];
    for (let i = 0; i < 22; i++) published.push(await publish({ title: `${unique('Many ')} ${i}`, tags: tag.title }));
    const draft = await createPost(alice.api, { title: unique('Draft '), description: 'x', tags: tag.title });
    const { items } = parse(await feed({ tag: tag.slug }));
    expect(items.map((item) => item.title)).toEqual(
      published
        .reverse()
        .slice(0, 20)
        .map((post) => post.title),
    );
    expect(items.map((item) => item.title)).not.toContain(draft.title);
    expect(items.map((item) => item.title)).not.toContain(tag.draft.title);
  });

  it('lists every tag: the newest posts of the site first, drafts left out', async () => {
    const first = await publish({});
    const draft = await createPost(bob.api, { title: unique('Draft '), description: 'x' });
    const second = await publish({}, bob.api);
    const response = await feed();
    const { channel, items } = parse(response);
    expect(items.slice(0, 2).map((item) => item.title)).toEqual([second.title, first.title]);
    expect(items.map((item) => item.title)).not.toContain(draft.title);
    expect(items.length).toBeLessThanOrEqual(20);
    expect(channel.title).toBe('Community Posts');
    expect(channel.link).toBe(`${api.url}/posts`);
    expect(channel.description).toBe('The newest published posts.');
    expect(channel['atom:link']['@href']).toBe(`${api.url}/feed`);
    expect(items[0]!.category).toBeUndefined();
  });

  it('ignores other query parameters and an Authorization header, as /openapi.json does', async () => {
    await publish({});
    const plain = await feed();
    const withParams = await feed({ page: '99', page_size: '1', q: 'nothing-matches', sort: 'votes', cursor: 'x' });
    expect(withParams.status).toBe(200);
    expect(withParams.text).toBe(plain.text);
    for (const authorization of ['Token ' + 'f'.repeat(40), 'Token not-hex', 'Basic abc', `Token ${alice.token}`]) {
      const response = await feed({}, { Authorization: authorization });
      expect(response.status, authorization).toBe(200);
      expect(response.headers.get('etag')).toBe(plain.headers.get('etag'));
    }
  });

  it('answers an unknown tag with 404 JSON', async () => {
    for (const tag of ['no-such-tag', '', 'x'.repeat(300), '../posts']) {
      const response = await feed({ tag });
      expect(response.status, tag).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.body).toEqual({ detail: 'Not found.' });
    }
  });

  it('links posts from the API request host, not from a client header', async () => {
    const post = await publish({});
    const { items, channel } = parse(await feed({}, { 'X-Forwarded-Host': 'evil.example' }));
    expect(items[0]!.link).toBe(`${api.url}/posts/detail/${post.slug}`);
    expect(channel['atom:link']['@href']).toBe(`${api.url}/feed`);
  });

  describe('with SITE_URL', () => {
    const saved = process.env.SITE_URL;
    afterEach(() => {
      if (saved === undefined) delete process.env.SITE_URL;
      else process.env.SITE_URL = saved;
    });

    // The bundles take their environment from the template, where SITE_URL is a deploy setting.
    it.skipIf(BUNDLES)('links each post to the frontend: <SITE_URL>/posts/<slug>', async () => {
      const tag = await newTag();
      const post = await publish({ tags: tag.title });
      process.env.SITE_URL = 'https://site.example/';
      const { channel, items } = parse(await feed({ tag: tag.slug }));
      expect(items[0]).toMatchObject({ link: `https://site.example/posts/${post.slug}`, guid: `https://site.example/posts/${post.slug}` });
      expect(channel.link).toBe('https://site.example/');
      expect(channel['atom:link']['@href']).toBe(`${api.url}/feed?tag=${tag.slug}`);
      delete process.env.SITE_URL;
      expect(parse(await feed({ tag: tag.slug })).items[0]!.link).toBe(`${api.url}/posts/detail/${post.slug}`);
    });
  });
});

describe('HEAD and conditional requests', () => {
  it('HEAD answers the headers of GET without a body', async () => {
    const tag = await newTag();
    await publish({ tags: tag.title });
    const get = await feed({ tag: tag.slug });
    const head = await feed({ tag: tag.slug }, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const name of ['content-type', 'etag', 'last-modified']) expect(head.headers.get(name), name).toBe(get.headers.get(name));
    expect((await feed({ tag: 'no-such-tag' }, {}, 'HEAD')).status).toBe(404);
    const notModified = await feed({ tag: tag.slug }, { 'If-None-Match': get.headers.get('etag')! }, 'HEAD');
    expect(notModified.status).toBe(304);
  });

  it('If-None-Match: 304 with no body for a matching tag, weak, in a list, or *; 200 otherwise', async () => {
    const tag = await newTag();
    await publish({ tags: tag.title });
    const first = await feed({ tag: tag.slug });
    const etag = first.headers.get('etag')!;
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, `W/"a",W/${etag} , "b"`, '*']) {
      const response = await feed({ tag: tag.slug }, { 'If-None-Match': value });
      expect(response.status, value).toBe(304);
      expect(response.text).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('last-modified')).toBe(first.headers.get('last-modified'));
    }
    for (const value of ['"other"', etag.slice(1, -1), `W/"x", "y"`, '']) {
      expect((await feed({ tag: tag.slug }, { 'If-None-Match': value })).status, value).toBe(200);
    }
  });

  it('If-Modified-Since: 304 when not older than Last-Modified; an invalid date is ignored; If-None-Match decides', async () => {
    const tag = await newTag();
    await publish({ tags: tag.title });
    const first = await feed({ tag: tag.slug });
    const lastModified = first.headers.get('last-modified')!;
    const etag = first.headers.get('etag')!;
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const later = new Date(Date.parse(lastModified) + 86_400_000).toUTCString();
    expect((await feed({ tag: tag.slug }, { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await feed({ tag: tag.slug }, { 'If-Modified-Since': later })).status).toBe(304);
    expect((await feed({ tag: tag.slug }, { 'If-Modified-Since': earlier })).status).toBe(200);
    for (const invalid of ['yesterday', '2999-01-01', 'Sun, 99 Nov 2999 99:99:99 GMT', '']) {
      expect((await feed({ tag: tag.slug }, { 'If-Modified-Since': invalid })).status, invalid).toBe(200);
    }
    // Both sent: If-None-Match decides, whatever the date says.
    expect((await feed({ tag: tag.slug }, { 'If-None-Match': '"other"', 'If-Modified-Since': later })).status).toBe(200);
    expect((await feed({ tag: tag.slug }, { 'If-None-Match': etag, 'If-Modified-Since': earlier })).status).toBe(304);
  });

  it('a new post, an edit, an unpublish and a delete each change the ETag; If-Modified-Since then answers 200', async () => {
    const tag = await newTag();
    const kept = await publish({ tags: tag.title });
    const edited = await publish({ tags: tag.title });
    const state = async () => {
      const response = await feed({ tag: tag.slug });
      expect(response.status).toBe(200);
      return { etag: response.headers.get('etag')!, lastModified: response.headers.get('last-modified')!, items: parse(response).items };
    };
    const current = async (before: { etag: string; lastModified: string }) => ({
      byTag: (await feed({ tag: tag.slug }, { 'If-None-Match': before.etag })).status,
      byDate: (await feed({ tag: tag.slug }, { 'If-Modified-Since': before.lastModified })).status,
    });

    const start = await state();
    expect(await current(start)).toEqual({ byTag: 304, byDate: 304 });

    // Every change below comes a second later than the copy it is compared with, so that the
    // dates (whole seconds) can tell them apart.
    nextSecond();
    expect((await alice.api.put(`/posts/detail/${edited.slug}`, { form: { description: 'changed' } })).status).toBe(200);
    const afterEdit = await state();
    expect(afterEdit.etag).not.toBe(start.etag);
    expect(afterEdit.items.find((item) => item.title === edited.title)!.description).toBe('changed');
    expect(await current(start)).toEqual({ byTag: 200, byDate: 200 });

    // A delete of the post that is not the newest: no post left in the feed is newer than before.
    nextSecond();
    expect((await alice.api.delete(`/posts/detail/${kept.slug}`)).status).toBe(204);
    const afterDelete = await state();
    expect(afterDelete.etag).not.toBe(afterEdit.etag);
    expect(afterDelete.items.map((item) => item.title)).toEqual([edited.title]);
    expect(await current(afterEdit)).toEqual({ byTag: 200, byDate: 200 });

    const added = await publish({ tags: tag.title });
    const afterAdd = await state();
    expect(afterAdd.etag).not.toBe(afterDelete.etag);
    expect(afterAdd.items[0]!.title).toBe(added.title);
    expect((await feed({ tag: tag.slug }, { 'If-None-Match': afterDelete.etag })).status).toBe(200);

    // An unpublish refreshes the post's `modified`, but the post leaves the feed.
    nextSecond();
    expect((await alice.api.put(`/posts/detail/${edited.slug}`, { form: { publish: 'false' } })).status).toBe(200);
    const afterUnpublish = await state();
    expect(afterUnpublish.items.map((item) => item.title)).toEqual([added.title]);
    expect(afterUnpublish.etag).not.toBe(afterAdd.etag);
    expect(await current(afterAdd)).toEqual({ byTag: 200, byDate: 200 });

    // Once settled, the new copy is current again by either validator.
    nextSecond();
    nextSecond();
    const settled = await state();
    expect(settled.etag).toBe(afterUnpublish.etag);
    expect(await current(settled)).toEqual({ byTag: 304, byDate: 304 });
  });

  it('a delete in the same second as the copy a client holds still answers If-Modified-Since with 200', async () => {
    const tag = await newTag();
    const first = await publish({ tags: tag.title });
    await publish({ tags: tag.title });
    const before = await feed({ tag: tag.slug });
    expect((await alice.api.delete(`/posts/detail/${first.slug}`)).status).toBe(204);
    expect((await feed({ tag: tag.slug }, { 'If-Modified-Since': before.headers.get('last-modified')! })).status).toBe(200);
  });
});

import { describe, expect, it } from 'vitest';
import { INDEXES, POST_ENTRY_PROJECTION } from '#lib/db/table.ts';
import { postEntries } from '#lib/posts/entries.ts';
import { BatchResult } from '#lib/db/batch.ts';
import { postFromItems, postStatsItem, postTextItem, postToApi, postToChange, type PostRecord } from '#lib/posts/post.ts';
import { RetryableConflict } from '#lib/retry.ts';
import { newTagWrites, tagToApi } from '#lib/tags/tag.ts';
import { newProfileItem, PROFILE_FIELDS, profileKey, profileToApi } from '#lib/profiles/profile.ts';
import { isoTimestamp } from '#lib/time.ts';
import { EMPTY_PROFILE_FIELDS, POST_FIELDS, PROFILE_FIELDS as PROFILE_API_FIELDS, TAG_FIELDS } from '../support/contract.ts';
import { CREATED, MODIFIED, POST_ID as ID, postRecord as post, useTableName } from './records.ts';

// How the post, profile and tag entities become items and API bodies: keys, list entries, round
// trips and the contract's field order, on values made here (no database).

const TABLE = 'unit-items';
useTableName(TABLE);

const COUNTERS = ['rating_likes', 'rating_dislikes', 'total_visitors', 'total_favorites', 'total_comments'] as const;
/** v1.3: what comments and moderators change, kept on the stats item beside the counters (a lock never rewrites the text). */
const STATS_FIELDS = ['comments_locked', 'removed', 'last_thread'] as const;

/** The record without its counters, its stats' fields and version: what the text item holds besides its key. */
function textFields(record: PostRecord): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...record };
  for (const name of [...COUNTERS, ...STATS_FIELDS, 'version']) delete fields[name];
  return fields;
}

const RECORDS: [string, PostRecord][] = [
  ['published', post()],
  ['published and featured', post({ is_featured: true })],
  ['a draft', post({ publish: false, keywords: null, meta_description: 'About it' })],
  ['a featured draft', post({ publish: false, is_featured: true })],
  ['a draft without tags', post({ publish: false, tags: [], tag_slugs: [] })],
  [
    'published without tags, counters at 0',
    post({ tags: [], tag_slugs: [], rating_likes: 0, rating_dislikes: 0, total_visitors: 0, total_favorites: 0, version: 1 }),
  ],
];

describe('postTextItem', () => {
  it('stores every field but the counters and the version under POST#<slug> / POST', () => {
    expect(postTextItem(post())).toEqual({
      PK: 'POST#hello-world-2',
      SK: 'POST',
      id: ID,
      slug: 'hello-world-2',
      slug_base: 'hello-world',
      author: 'alice',
      author_id: 7,
      title: 'Hello World',
      description: 'Some **Markdown**.',
      created: CREATED,
      modified: MODIFIED,
      publish: true,
      is_featured: false,
      tags: ['Go', 'Rust'],
      tag_slugs: ['go', 'rust'],
      keywords: 'Go, Rust',
      meta_description: null,
      text_version: 2,
    });
  });

  it.each(RECORDS)('holds no counter, version or list key: %s', (_, record) => {
    expect(postTextItem(record)).toEqual({ PK: `POST#${record.slug}`, SK: 'POST', ...textFields(record) });
  });

  it('is the same item whatever the counters and the version are', () => {
    expect(postTextItem(post({ rating_likes: 99, rating_dislikes: 5, total_visitors: 1234, total_favorites: 7, version: 40 }))).toEqual(postTextItem(post()));
  });
});

describe('postStatsItem', () => {
  it("holds only the counters, the version and the post's id, under POST#<slug> / STATS", () => {
    expect(postStatsItem(post())).toEqual({
      PK: 'POST#hello-world-2',
      SK: 'STATS',
      post_id: ID,
      rating_likes: 3,
      rating_dislikes: 1,
      total_visitors: 12,
      total_favorites: 2,
      total_comments: 0,
      comments_locked: false,
      version: 4,
      text_version: 2,
    });
  });

  it('is the same item whatever the text, the tags, publish and is_featured are', () => {
    const edited = post({
      title: 'Other',
      description: 'Other.',
      modified: CREATED,
      publish: false,
      is_featured: true,
      tags: [],
      tag_slugs: [],
      keywords: null,
    });
    expect(postStatsItem(edited)).toEqual(postStatsItem(post()));
  });

  it('sits in the same partition as the text item, under another sort key', () => {
    const text = postTextItem(post());
    const stats = postStatsItem(post());
    expect(stats.PK).toBe(text.PK);
    expect(stats.SK).not.toBe(text.SK);
  });
});

describe('postFromItems', () => {
  it.each(RECORDS)('gives back the record its text and stats items store: %s', (_, record) => {
    expect(postFromItems(postTextItem(record), postStatsItem(record))).toEqual(record);
  });

  it('is undefined when the text or the stats item is missing', () => {
    expect(postFromItems(undefined, postStatsItem(post()))).toBeUndefined();
    expect(postFromItems(postTextItem(post()), undefined)).toBeUndefined();
    expect(postFromItems(undefined, undefined)).toBeUndefined();
  });

  it('is undefined when the stats belong to another post than the text (a slug reused after a rename or delete)', () => {
    const other = post({ id: 'b0c1e2f3-0000-4000-8000-000000000002' });
    expect(postFromItems(postTextItem(post()), postStatsItem(other))).toBeUndefined();
    expect(postFromItems(postTextItem(other), postStatsItem(post()))).toBeUndefined();
    const withoutId = postStatsItem(post());
    delete withoutId.post_id;
    expect(postFromItems(postTextItem(post()), withoutId)).toBeUndefined();
  });

  it('reads missing counters and version as 0, missing tags as none, missing publish and featured as false and missing optional texts as null', () => {
    const { PK, SK, id, slug, slug_base, author, author_id, title, description, created, modified } = postTextItem(post());
    const sparseText = { PK, SK, id, slug, slug_base, author, author_id, title, description, created, modified };
    const sparseStats = { PK, SK: 'STATS', post_id: id };
    expect(postFromItems(sparseText, sparseStats)).toEqual(
      post({
        publish: false,
        is_featured: false,
        tags: [],
        tag_slugs: [],
        keywords: null,
        meta_description: null,
        rating_likes: 0,
        rating_dislikes: 0,
        total_visitors: 0,
        total_favorites: 0,
        version: 0,
        text_version: 0,
      }),
    );
  });

  it('a change starts from a pair of one version; a pair torn by a commit between the two reads is a conflict to read again', () => {
    const read = (text: Record<string, unknown>, stats: Record<string, unknown>) => BatchResult.of([text, stats]);
    const record = post();
    expect(postToChange(read(postTextItem(record), postStatsItem(record)), record.slug)).toEqual(record);
    // The text read before a publish committed, the stats after it: stale fields at the new version.
    const published = post({ version: 5, text_version: 5 });
    expect(() => postToChange(read(postTextItem(record), postStatsItem(published)), record.slug)).toThrow(RetryableConflict);
    // Only counts changed in between: the text is that of both versions.
    const visited = post({ version: 5, total_visitors: 13 });
    expect(postToChange(read(postTextItem(record), postStatsItem(visited)), record.slug)).toEqual(visited);
    // The lenient read (lists, which show what they read) takes the pair as it is.
    expect(postFromItems(postTextItem(record), postStatsItem(published))).toMatchObject({ version: 5, text_version: 2 });
  });

  it('takes the counters and the version from the stats item only', () => {
    // A text item written by hand with stale counters: the stats item is what counts.
    const text = { ...postTextItem(post()), total_visitors: 999, version: 1 };
    expect(postFromItems(text, postStatsItem(post()))).toEqual(post());
  });
});

// The four post indexes share their partition key and projection; an entry carries all four sort keys.
const POST_INDEXES = [INDEXES.postsByCreated, INDEXES.postsByViews, INDEXES.postsByVotes, INDEXES.postsByActive];

/** The entries of a post by their sort key (the list they stand for). */
const byList = (record: PostRecord) => new Map(postEntries(record).map((entry) => [String(entry.SK), entry]));

describe('postEntries', () => {
  it('gives a draft, featured or not, only its MINE entry', () => {
    for (const record of [post({ publish: false }), post({ publish: false, is_featured: true })]) {
      expect([...byList(record).keys()]).toEqual(['MINE']);
    }
  });

  it('gives a published post MINE, AUTHORED, POSTS and one TAGGED#<slug> per tag', () => {
    expect([...byList(post()).keys()].sort()).toEqual(['AUTHORED', 'MINE', 'POSTS', 'TAGGED#go', 'TAGGED#rust']);
    expect([...byList(post({ tags: [], tag_slugs: [] })).keys()].sort()).toEqual(['AUTHORED', 'MINE', 'POSTS']);
  });

  it('adds FEATURED only to a published featured post', () => {
    expect([...byList(post({ is_featured: true })).keys()].sort()).toEqual(['AUTHORED', 'FEATURED', 'MINE', 'POSTS', 'TAGGED#go', 'TAGGED#rust']);
    expect(byList(post()).has('FEATURED')).toBe(false);
    expect(byList(post({ publish: false, is_featured: true })).has('FEATURED')).toBe(false);
  });

  it("keys every entry by the post's id, and puts it in its list's partition", () => {
    const entries = byList(post({ is_featured: true }));
    for (const [list, entry] of entries) expect(entry.PK, list).toBe(`ENTRY#${ID}`);
    expect(Object.fromEntries([...entries].map(([list, entry]) => [list, entry.ListPK]))).toEqual({
      // MINE by the author's id (what a token names), AUTHORED by the username (what the path names).
      MINE: 'MINE#000000000007',
      AUTHORED: 'AUTHORED#alice',
      POSTS: 'POSTS',
      FEATURED: 'FEATURED',
      'TAGGED#go': 'TAGGED#go',
      'TAGGED#rust': 'TAGGED#rust',
    });
  });

  it("partitions MINE by the author's id and AUTHORED by the username, whatever the other is", () => {
    const entries = byList(post({ author: 'bob', author_id: 123_456 }));
    expect(entries.get('MINE')!.ListPK).toBe('MINE#000000123456');
    expect(entries.get('AUTHORED')!.ListPK).toBe('AUTHORED#bob');
  });

  it('carries the four sort keys and what finds and filters the post, the same in every list', () => {
    const record = post({ is_featured: true });
    for (const [list, entry] of byList(record)) {
      expect(entry, list).toEqual({
        PK: `ENTRY#${ID}`,
        SK: list,
        ListPK: expect.any(String),
        CreatedSK: `${CREATED}#${ID}`,
        ViewsSK: `000000000012#${CREATED}#${ID}`,
        VotesSK: `000000000003#${CREATED}#${ID}`,
        ActiveSK: `${MODIFIED}#${CREATED}#${ID}`,
        slug: 'hello-world-2',
        post_id: ID,
        is_featured: true,
        publish: true,
        // v1.3: the MINE entry, which finds the post by its id, also says whether its comments are locked.
        ...(list === 'MINE' ? { comments_locked: false } : {}),
      });
    }
  });

  it("holds exactly the post indexes' keys and projection: nothing the index would not return", () => {
    for (const index of POST_INDEXES) expect(index.projection, index.name).toEqual(POST_ENTRY_PROJECTION);
    const indexKeys = POST_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey]);
    const expected = [...new Set(['PK', 'SK', ...indexKeys, ...POST_ENTRY_PROJECTION])].sort();
    for (const record of [post(), post({ is_featured: true }), post({ publish: false })]) {
      // v1.3: the MINE entry is also read by its key, for its comments_locked (never through an index).
      for (const [list, entry] of byList(record))
        expect(Object.keys(entry).sort(), list).toEqual(list === 'MINE' ? [...expected, 'comments_locked'].sort() : expected);
    }
  });

  it("a draft's MINE entry says it is unpublished (lists filter on it)", () => {
    expect(byList(post({ publish: false, is_featured: true })).get('MINE')).toMatchObject({ publish: false, is_featured: true, slug: 'hello-world-2' });
  });

  it('pads the counters of the sort keys so that they order as numbers', () => {
    const entryOf = (likes: number, visitors: number) => byList(post({ rating_likes: likes, total_visitors: visitors })).get('POSTS')!;
    const ordered = [0, 9, 10, 99, 100, 123_456];
    const views = ordered.map((n) => String(entryOf(0, n).ViewsSK));
    const votes = ordered.map((n) => String(entryOf(n, 0).VotesSK));
    expect([...views].sort()).toEqual(views);
    expect([...votes].sort()).toEqual(votes);
    expect(entryOf(0, 123_456).ViewsSK).toBe(`000000123456#${CREATED}#${ID}`);
    expect(entryOf(42, 0).VotesSK).toBe(`000000000042#${CREATED}#${ID}`);
  });

  it('moves ActiveSK with modified, and CreatedSK with nothing but created', () => {
    const later = '2026-03-01T00:00:00.000000+00:00';
    const entry = byList(post({ modified: later, total_visitors: 50, rating_likes: 8 })).get('POSTS')!;
    expect(entry.ActiveSK).toBe(`${later}#${CREATED}#${ID}`);
    expect(entry.CreatedSK).toBe(`${CREATED}#${ID}`);
  });
});

describe('postToApi', () => {
  it("has the contract's fields in the contract's order, and none of the stored ones", () => {
    const body = postToApi(post({ is_featured: true }));
    expect(Object.keys(body)).toEqual(POST_FIELDS);
    expect(body).toEqual({
      author: 'alice',
      title: 'Hello World',
      slug: 'hello-world-2',
      description: 'Some **Markdown**.',
      created: CREATED,
      modified: MODIFIED,
      publish: true,
      is_featured: true,
      tags: ['Go', 'Rust'],
      keywords: 'Go, Rust',
      meta_description: null,
      rating_likes: 3,
      rating_dislikes: 1,
      total_visitors: 12,
      total_favorites: 2,
      total_comments: 0,
      comments_locked: false,
    });
  });

  it('is the same for a post read back from its text and stats items', () => {
    const record = post({ publish: false });
    expect(JSON.stringify(postToApi(postFromItems(postTextItem(record), postStatsItem(record))!))).toBe(JSON.stringify(postToApi(record)));
  });
});

const JOINED = '2026-01-05T14:12:15.258987+00:00';

describe('newProfileItem', () => {
  it('is listed among the users (joined, then id), active, with no posts and every editable field null', () => {
    expect(newProfileItem({ id: 42, username: 'alice' }, JOINED)).toEqual({
      PK: 'USER#alice',
      SK: 'PROFILE',
      GSI1PK: 'USERS',
      GSI1SK: `${JOINED}#000000000042`,
      id: 42,
      username: 'alice',
      is_active: true,
      date_joined: JOINED,
      last_login: null,
      total_posts: 0,
      total_favorites: 0,
      total_featured_posts: 0,
      ...EMPTY_PROFILE_FIELDS,
    });
  });
});

describe('profileToApi', () => {
  it("shows a new profile in the contract's order, with Django's timestamp (a space, not a T)", () => {
    const body = profileToApi(newProfileItem({ id: 42, username: 'alice' }, JOINED));
    expect(Object.keys(body)).toEqual(PROFILE_API_FIELDS);
    expect(body).toEqual({
      user: 'alice',
      last_login: null,
      date_joined: '2026-01-05 14:12:15.258987+00:00',
      total_posts: 0,
      total_favorites: 0,
      total_featured_posts: 0,
      ...EMPTY_PROFILE_FIELDS,
      is_moderator: false,
    });
  });

  it('shows a used profile: last login, counters and edited fields, and nothing of storage', () => {
    const item = {
      ...newProfileItem({ id: 42, username: 'alice' }, JOINED),
      last_login: '2026-03-01T09:30:00.000500+00:00',
      total_posts: 5,
      total_featured_posts: 1,
      display_name: 'Alice',
      website: 'https://alice.example',
      about_me: '',
      birth_date: '1990-12-31',
    };
    const body = profileToApi(item);
    expect(Object.keys(body)).toEqual(PROFILE_API_FIELDS);
    expect(body).toMatchObject({
      user: 'alice',
      last_login: '2026-03-01 09:30:00.000500+00:00',
      date_joined: '2026-01-05 14:12:15.258987+00:00',
      total_posts: 5,
      total_favorites: 0,
      total_featured_posts: 1,
      display_name: 'Alice',
      location: null,
      about_me: '',
      website: 'https://alice.example',
      birth_date: '1990-12-31',
    });
  });

  it('reads missing editable fields and counters as null and 0', () => {
    const body: Record<string, unknown> = profileToApi({ PK: 'USER#bob', SK: 'PROFILE', username: 'bob', date_joined: JOINED });
    expect(body.total_posts).toBe(0);
    expect(body.total_favorites).toBe(0);
    expect(body.total_featured_posts).toBe(0);
    expect(body.last_login).toBeNull();
    for (const field of PROFILE_FIELDS) expect(body[field], field).toBeNull();
  });
});

describe('profileKey', () => {
  it('is the profile key for a username of 1 to 150 characters', () => {
    expect(profileKey('a')).toEqual({ PK: 'USER#a', SK: 'PROFILE' });
    expect(profileKey('x'.repeat(150))).toEqual({ PK: `USER#${'x'.repeat(150)}`, SK: 'PROFILE' });
    expect(profileKey('élodie.b@example+1')).toEqual({ PK: 'USER#élodie.b@example+1', SK: 'PROFILE' });
  });

  it('is null for a username that cannot exist: empty, or over 150 characters', () => {
    expect(profileKey('')).toBeNull();
    expect(profileKey('x'.repeat(151))).toBeNull();
  });
});

describe('tagToApi', () => {
  it('has title, slug and total_posts, in that order, and nothing of storage', () => {
    const item = {
      PK: 'TAG#go',
      SK: 'TAG',
      GSI1PK: 'TAGS',
      GSI1SK: `${CREATED}#go`,
      title: 'Go',
      title_lc: 'go',
      slug: 'go',
      total_posts: 3,
      created: CREATED,
    };
    const body = tagToApi(item);
    expect(Object.keys(body)).toEqual(TAG_FIELDS);
    expect(body).toEqual({ title: 'Go', slug: 'go', total_posts: 3 });
  });

  it('reads a missing total_posts as 0', () => {
    expect(tagToApi({ title: 'Go', slug: 'go' })).toEqual({ title: 'Go', slug: 'go', total_posts: 0 });
  });
});

describe('newTagWrites', () => {
  it('puts the tag under its slug (listed by creation time) and the claim on its lower-cased title, both only if absent', () => {
    const before = isoTimestamp();
    const writes = newTagWrites({ title: 'Rust Lang', slug: 'rust-lang' }, 1);
    const after = isoTimestamp();
    expect(writes).toHaveLength(2);
    const created = writes[0]!.write.Put!.Item!.created as string;
    expect(created > before && created < after, `${before} < ${created} < ${after}`).toBe(true);
    expect(writes).toEqual([
      {
        write: {
          Put: {
            TableName: TABLE,
            Item: {
              PK: 'TAG#rust-lang',
              SK: 'TAG',
              GSI1PK: 'TAGS',
              GSI1SK: `${created}#rust-lang`,
              title: 'Rust Lang',
              title_lc: 'rust lang',
              slug: 'rust-lang',
              total_posts: 1,
              featured_posts: 0,
              created,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      },
      {
        write: {
          Put: {
            TableName: TABLE,
            Item: { PK: 'TAGTITLE#rust lang', SK: 'TAGTITLE', title: 'Rust Lang', slug: 'rust-lang' },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      },
    ]);
  });

  it('gives each put the error for its taken claim, when one is given', () => {
    const slugTaken = () => new Error('slug taken');
    const titleTaken = () => new Error('title taken');
    const writes = newTagWrites({ title: 'Go', slug: 'go' }, 0, 0, { slug: slugTaken, title: titleTaken });
    expect(writes.map((write) => write.onConditionFailed)).toEqual([slugTaken, titleTaken]);
    expect(writes[0]!.write.Put!.Item!.total_posts).toBe(0);
    expect(newTagWrites({ title: 'Go', slug: 'go' }, 0).every((write) => !('onConditionFailed' in write))).toBe(true);
  });
});

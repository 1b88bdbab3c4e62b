import { describe, expect, it } from 'vitest';
import { postFromItem, postToApi, postToItem } from '#lib/posts/post.ts';
import { newTagWrites, tagToApi } from '#lib/tags/tag.ts';
import { newProfileItem, PROFILE_FIELDS, profileKey, profileToApi } from '#lib/users/profile.ts';
import { isoTimestamp } from '#lib/time.ts';
import { EMPTY_PROFILE_FIELDS, POST_FIELDS, PROFILE_FIELDS as PROFILE_API_FIELDS, TAG_FIELDS } from '../support/contract.ts';
import { CREATED, MODIFIED, POST_ID as ID, postRecord as post, useTableName } from './records.ts';

// How the post, profile and tag entities become items and API bodies: keys, list-index keys,
// round trips and the contract's field order, on values made here (no database).

const TABLE = 'unit-items';
useTableName(TABLE);

const LIST_INDEX_KEYS = ['GSI1PK', 'GSI1SK', 'ViewsSK', 'VotesSK', 'ActiveSK', 'FeaturedPK'];

describe('postToItem', () => {
  it('stores a published post under its slug with its fields, its search text and the list-index keys', () => {
    const record = post();
    expect(postToItem(record)).toEqual({
      PK: 'POST#hello-world-2',
      SK: 'POST',
      ...record,
      search: 'hello world\u0000some **markdown**.\u0000go, rust\u0000',
      GSI1PK: 'POSTS',
      GSI1SK: `${CREATED}#${ID}`,
      ViewsSK: `000000000012#${CREATED}#${ID}`,
      VotesSK: `000000000003#${CREATED}#${ID}`,
      ActiveSK: `${MODIFIED}#${CREATED}#${ID}`,
    });
  });

  it('adds the featured partition only to a published featured post', () => {
    const item = postToItem(post({ is_featured: true }));
    expect(item.FeaturedPK).toBe('FEATURED');
    // The featured index sorts by the same key as the list: newest first.
    expect(item.GSI1SK).toBe(`${CREATED}#${ID}`);
    expect(postToItem(post())).not.toHaveProperty('FeaturedPK');
  });

  it('carries no list-index key while a draft, featured or not', () => {
    for (const record of [post({ publish: false }), post({ publish: false, is_featured: true })]) {
      const item = postToItem(record);
      for (const key of LIST_INDEX_KEYS) expect(item, key).not.toHaveProperty(key);
      expect(item).toMatchObject({ PK: 'POST#hello-world-2', SK: 'POST', publish: false, search: expect.any(String) });
    }
  });

  it('pads the counters of the sort keys so that they order as numbers', () => {
    const keysOf = (likes: number, visitors: number) => postToItem(post({ rating_likes: likes, total_visitors: visitors })) as Record<string, string>;
    expect(keysOf(9, 9).VotesSK! < keysOf(10, 10).VotesSK!).toBe(true);
    expect(keysOf(9, 9).ViewsSK! < keysOf(10, 10).ViewsSK!).toBe(true);
    expect(keysOf(0, 123_456).ViewsSK).toBe(`000000123456#${CREATED}#${ID}`);
  });
});

describe('postFromItem', () => {
  it.each([
    ['published', post()],
    ['published and featured', post({ is_featured: true })],
    ['a draft', post({ publish: false, keywords: null, meta_description: 'About it' })],
    ['a draft without tags', post({ publish: false, tags: [], tag_slugs: [] })],
  ])('gives back the record postToItem stored: %s', (_, record) => {
    expect(postFromItem(postToItem(record))).toEqual(record);
  });

  it('reads missing counters as 0, missing tags as none and missing optional texts as null', () => {
    const { PK, SK, id, slug, slug_base, author, author_id, title, description, created, modified } = postToItem(post());
    const sparse = { PK, SK, id, slug, slug_base, author, author_id, title, description, created, modified };
    expect(postFromItem(sparse)).toEqual(
      post({ publish: false, tags: [], tag_slugs: [], keywords: null, rating_likes: 0, rating_dislikes: 0, total_visitors: 0, total_favorites: 0, version: 0 }),
    );
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
    });
  });

  it('is the same for a post read back from its item', () => {
    const record = post({ publish: false });
    expect(JSON.stringify(postToApi(postFromItem(postToItem(record))))).toBe(JSON.stringify(postToApi(record)));
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
  it("has title, slug and total_posts, in that order, and nothing of storage", () => {
    const item = { PK: 'TAG#go', SK: 'TAG', GSI1PK: 'TAGS', GSI1SK: `${CREATED}#go`, title: 'Go', title_lc: 'go', slug: 'go', total_posts: 3, created: CREATED };
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

  it('gives both puts the error for a taken tag, when one is given', () => {
    const taken = () => new Error('taken');
    const writes = newTagWrites({ title: 'Go', slug: 'go' }, 0, taken);
    expect(writes.map((write) => write.onConditionFailed)).toEqual([taken, taken]);
    expect(writes[0]!.write.Put!.Item!.total_posts).toBe(0);
    expect(newTagWrites({ title: 'Go', slug: 'go' }, 0).every((write) => !('onConditionFailed' in write))).toBe(true);
  });
});

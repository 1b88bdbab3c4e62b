import { describe, expect, it } from 'vitest';
import type { TxWrite } from '#lib/db/transact.ts';
import { counterWrites } from '#lib/posts/counters.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import type { TagRef } from '#lib/tags/tag.ts';
import { postRecord as post, useTableName } from './records.ts';

// The counter writes that join a post's own write in its transaction (lib/posts/counters.ts), for
// every kind of change: the exact TransactWriteItems entries, with no database involved.

const TABLE = 'unit-counters';
const STAMP = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00`;

useTableName(TABLE);

const tagged = (refs: TagRef[], fields: Partial<PostRecord> = {}) => post({ tags: refs.map((t) => t.title), tag_slugs: refs.map((t) => t.slug), ...fields });

const GO = { title: 'Go', slug: 'go' };
const RUST = { title: 'Rust', slug: 'rust' };
const ZIG = { title: 'Zig Lang', slug: 'zig-lang' };

// The entries as DynamoDB receives them, written out here rather than built with the library's helpers.

const profileAdd = (username: string, posts: number, featured: number) => ({
  write: {
    Update: {
      TableName: TABLE,
      Key: { PK: `USER#${username}`, SK: 'PROFILE' },
      UpdateExpression: 'ADD total_posts :posts, total_featured_posts :featured',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':posts': posts, ':featured': featured },
    },
  },
});

const tagAdd = (slug: string, delta: number, featured = 0) => ({
  write: {
    Update: {
      TableName: TABLE,
      Key: { PK: `TAG#${slug}`, SK: 'TAG' },
      UpdateExpression: 'ADD total_posts :delta, featured_posts :featured',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':delta': delta, ':featured': featured },
    },
  },
});

const tagCreate = (tag: TagRef, totalPosts: number, featuredPosts = 0) => [
  {
    write: {
      Put: {
        TableName: TABLE,
        Item: {
          PK: `TAG#${tag.slug}`,
          SK: 'TAG',
          GSI1PK: 'TAGS',
          GSI1SK: expect.stringMatching(new RegExp(`^${STAMP}#${tag.slug}$`)),
          title: tag.title,
          title_lc: tag.title.toLowerCase(),
          slug: tag.slug,
          total_posts: totalPosts,
          featured_posts: featuredPosts,
          created: expect.stringMatching(new RegExp(`^${STAMP}$`)),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  },
  {
    write: {
      Put: {
        TableName: TABLE,
        Item: { PK: `TAGTITLE#${tag.title.toLowerCase()}`, SK: 'TAGTITLE', title: tag.title, slug: tag.slug },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  },
];

function keyOf({ write }: TxWrite): string {
  const key = write.Update?.Key ?? write.Put?.Item ?? write.Delete?.Key ?? write.ConditionCheck?.Key;
  return `${String(key?.PK)}|${String(key?.SK)}`;
}

/**
 * The writes are exactly these (in any order: a transaction has none), each on an item of its
 * own and none on the post itself (DynamoDB refuses a transaction that touches an item twice).
 */
function expectWrites(all: TxWrite[], expected: unknown[]): void {
  const keysOfAll = all.map(keyOf);
  expect(new Set(keysOfAll).size, keysOfAll.join(', ')).toBe(keysOfAll.length);
  // The list totals are checked on their own (below).
  const actual = all.filter((write) => !keyOf(write).startsWith('TOTAL#'));
  expect(actual).toHaveLength(expected.length);
  expect(actual).toEqual(expect.arrayContaining(expected));
  const keys = actual.map(keyOf);
  expect(new Set(keys).size, keys.join(', ')).toBe(keys.length);
  expect(keys).not.toContain(`POST#${post().slug}|POST`);
}

describe('counterWrites: create', () => {
  it('a published post adds 1 to its author and to each of its tags', () => {
    expectWrites(counterWrites('alice', null, post(), []), [profileAdd('alice', 1, 0), tagAdd('go', 1), tagAdd('rust', 1)]);
  });

  it('a published post creates its new tags with total_posts 1 instead of adding to them', () => {
    expectWrites(counterWrites('alice', null, post(), [RUST]), [profileAdd('alice', 1, 0), tagAdd('go', 1), ...tagCreate(RUST, 1)]);
  });

  it('a draft counts nowhere: its new tags are created with total_posts 0', () => {
    expectWrites(counterWrites('alice', null, post({ publish: false }), [GO, RUST]), [...tagCreate(GO, 0), ...tagCreate(RUST, 0)]);
    expectWrites(counterWrites('alice', null, post({ publish: false }), []), []);
  });

  it('a published post without tags only counts for its author', () => {
    expectWrites(counterWrites('alice', null, tagged([]), []), [profileAdd('alice', 1, 0)]);
  });

  it("counts on the profile of the author it is given, whatever the post's author field says", () => {
    expectWrites(counterWrites('bob', null, tagged([]), []), [profileAdd('bob', 1, 0)]);
  });
});

describe('counterWrites: publish and unpublish', () => {
  it('publishing a draft adds 1 to the author and to each tag', () => {
    expectWrites(counterWrites('alice', post({ publish: false }), post(), []), [profileAdd('alice', 1, 0), tagAdd('go', 1), tagAdd('rust', 1)]);
  });

  it('unpublishing takes 1 from the author and from each tag', () => {
    expectWrites(counterWrites('alice', post(), post({ publish: false }), []), [profileAdd('alice', -1, 0), tagAdd('go', -1), tagAdd('rust', -1)]);
  });

  it('publishing or unpublishing a featured post also moves total_featured_posts', () => {
    expectWrites(counterWrites('alice', post({ publish: false, is_featured: true }), post({ is_featured: true }), []), [
      profileAdd('alice', 1, 1),
      tagAdd('go', 1, 1),
      tagAdd('rust', 1, 1),
    ]);
    expectWrites(counterWrites('alice', post({ is_featured: true }), post({ publish: false, is_featured: true }), []), [
      profileAdd('alice', -1, -1),
      tagAdd('go', -1, -1),
      tagAdd('rust', -1, -1),
    ]);
  });

  it('publishing with other tags counts only the tags the published post has', () => {
    const before = tagged([GO], { publish: false });
    const after = tagged([RUST, ZIG]);
    expectWrites(counterWrites('alice', before, after, [ZIG]), [profileAdd('alice', 1, 0), tagAdd('rust', 1), ...tagCreate(ZIG, 1)]);
  });

  it('unpublishing while adding a new tag takes 1 from the old tags and creates the new one at 0', () => {
    const before = tagged([GO]);
    const after = tagged([GO, ZIG], { publish: false });
    expectWrites(counterWrites('alice', before, after, [ZIG]), [profileAdd('alice', -1, 0), tagAdd('go', -1), ...tagCreate(ZIG, 0)]);
  });
});

describe('counterWrites: featuring', () => {
  it("featuring a published post adds 1 to total_featured_posts (total_posts ADD 0) and to each tag's featured_posts only", () => {
    expectWrites(counterWrites('alice', post(), post({ is_featured: true }), []), [profileAdd('alice', 0, 1), tagAdd('go', 0, 1), tagAdd('rust', 0, 1)]);
  });

  it("unfeaturing a published post takes 1 from total_featured_posts and from its tags' featured_posts", () => {
    expectWrites(counterWrites('alice', post({ is_featured: true }), post(), []), [profileAdd('alice', 0, -1), tagAdd('go', 0, -1), tagAdd('rust', 0, -1)]);
  });

  it('featuring or unfeaturing a draft writes no profile or tag', () => {
    expectWrites(counterWrites('alice', post({ publish: false }), post({ publish: false, is_featured: true }), []), []);
    expectWrites(counterWrites('alice', post({ publish: false, is_featured: true }), post({ publish: false }), []), []);
  });
});

describe('counterWrites: tag changes', () => {
  it('on a published post: 1 less for a removed tag, a new tag created at 1, nothing for a kept tag or the author', () => {
    const before = tagged([GO, RUST]);
    const after = tagged([RUST, ZIG]);
    expectWrites(counterWrites('alice', before, after, [ZIG]), [tagAdd('go', -1), ...tagCreate(ZIG, 1)]);
  });

  it('on a published post: an existing tag added gets 1 more', () => {
    expectWrites(counterWrites('alice', tagged([GO]), tagged([GO, RUST]), []), [tagAdd('rust', 1)]);
  });

  it('on a draft: only the new tags are created, at 0', () => {
    const before = tagged([GO], { publish: false });
    const after = tagged([ZIG], { publish: false });
    expectWrites(counterWrites('alice', before, after, [ZIG]), [...tagCreate(ZIG, 0)]);
    expect(counterWrites('alice', tagged([GO], { publish: false }), tagged([RUST], { publish: false }), [])).toEqual([]);
  });

  it('an edit that changes neither publish, is_featured nor tags writes nothing', () => {
    expect(counterWrites('alice', post(), post({ title: 'Renamed', slug: 'renamed', version: 2 }), [])).toEqual([]);
    expect(counterWrites('alice', post({ is_featured: true }), post({ is_featured: true, description: 'Edited.' }), [])).toEqual([]);
  });
});

describe('counterWrites: delete', () => {
  it('deleting a published post takes 1 from the author and each tag', () => {
    expectWrites(counterWrites('alice', post(), null, []), [profileAdd('alice', -1, 0), tagAdd('go', -1), tagAdd('rust', -1)]);
  });

  it('deleting a published featured post also takes 1 from total_featured_posts', () => {
    expectWrites(counterWrites('alice', post({ is_featured: true }), null, []), [profileAdd('alice', -1, -1), tagAdd('go', -1, -1), tagAdd('rust', -1, -1)]);
  });

  it('deleting a draft, featured or not, writes no profile or tag', () => {
    expectWrites(counterWrites('alice', post({ publish: false }), null, []), []);
    expectWrites(counterWrites('alice', post({ publish: false, is_featured: true }), null, []), []);
  });
});

describe('counterWrites: list totals', () => {
  const totals = (writes: TxWrite[]) =>
    Object.fromEntries(
      writes
        .filter((write) => keyOf(write).startsWith('TOTAL#'))
        .map(({ write }) => {
          const update = write.Update!;
          const names = update.ExpressionAttributeNames as Record<string, string>;
          const values = update.ExpressionAttributeValues as Record<string, number>;
          const deltas = Object.fromEntries(Object.keys(names).map((name) => [names[name], values[`:${name.slice(1)}`]]));
          return [String(update.Key!.PK).replace(/#\d+$/, '#n'), deltas];
        }),
    );
  const mine = `TOTAL#USERPOSTS#${String(post().author_id).padStart(12, '0')}`.replace(/#\d+$/, '#n');

  it("a published create counts on a shard of the site and in the author's own counts; new tags once, on one shard", () => {
    expect(totals(counterWrites('alice', null, post(), [GO, RUST]))).toEqual({
      'TOTAL#POSTS#n': { posts: 1 },
      [mine]: { posts: 1, published: 1 },
      'TOTAL#TAGS#n': { tags: 2 },
    });
  });

  it("a draft counts only in the author's own counts; featuring it there too", () => {
    expect(totals(counterWrites('alice', null, post({ publish: false }), []))).toEqual({ [mine]: { posts: 1 } });
    expect(totals(counterWrites('alice', post({ publish: false }), post({ publish: false, is_featured: true }), []))).toEqual({ [mine]: { featured: 1 } });
  });

  it("featuring a published post, and deleting it, move the site's featured count", () => {
    expect(totals(counterWrites('alice', post(), post({ is_featured: true }), []))).toEqual({
      'TOTAL#POSTS#n': { featured: 1 },
      [mine]: { featured: 1, published_featured: 1 },
    });
    expect(totals(counterWrites('alice', post({ is_featured: true }), null, []))).toEqual({
      'TOTAL#POSTS#n': { posts: -1, featured: -1 },
      [mine]: { posts: -1, published: -1, featured: -1, published_featured: -1 },
    });
  });

  it('an edit that moves no list writes no total', () => {
    expect(totals(counterWrites('alice', post(), post({ title: 'Other' }), []))).toEqual({});
  });
});

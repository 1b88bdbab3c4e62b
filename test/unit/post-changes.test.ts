import { describe, expect, it } from 'vitest';
import type { Item } from '#lib/db/batch.ts';
import type { TxWrite } from '#lib/db/transact.ts';
import { postItemWrites } from '#lib/posts/changes.ts';
import type { PostSummary } from '#lib/posts/post.ts';
import { counterWrites } from '#lib/posts/counters.ts';
import { postEntries } from '#lib/posts/entries.ts';
import { POST_LIMITS } from '#lib/posts/limits.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import type { TagRef } from '#lib/tags/tag.ts';
import { CREATED, MODIFIED, POST_ID as ID, postRecord as post, useTableName } from './records.ts';

// The writes that take a post's items (text, stats, list entries) from one state to the next
// (lib/posts/changes.ts postItemWrites), for every kind of change, with no database involved:
// which items are put or deleted, under which keys and conditions. Order is not asserted: a
// transaction has none.

const TABLE = 'unit-post-changes';
useTableName(TABLE);

const LATER = '2026-03-01T10:00:00.000002+00:00';

// Keys written out here rather than built with the library's helpers.
const TEXT = 'POST#hello-world-2|POST';
const STATS = 'POST#hello-world-2|STATS';
const SUMMARY = 'POST#hello-world-2|SUMMARY';
/** The rename record of the fixture's slug (lib/posts/renamed.ts): put by a rename away, deleted with the post. */
const LEFT = 'POST#hello-world-2|LEFT';
const entryKey = (list: string) => `ENTRY#${ID}|${list}`;
const PUBLISHED_LISTS = ['MINE', 'AUTHORED', 'POSTS', 'TAGGED#go', 'TAGGED#rust'];

const ABSENT = { ConditionExpression: 'attribute_not_exists(PK)' };
const CONDITION = 'version = :v AND post_id = :id';
const atVersion = (version: number) => ({ ConditionExpression: CONDITION, ExpressionAttributeValues: { ':v': version, ':id': ID } });

type Written = NonNullable<TxWrite['write']['Put']> | NonNullable<TxWrite['write']['Delete']>;
interface Found {
  op: 'put' | 'delete';
  write: Written;
  /** The item of a put. */
  item?: Item;
}

/** The writes by the key of the item each touches: each a Put or a Delete on the table, no item twice. */
function byKey(writes: TxWrite[]): Map<string, Found> {
  const found = new Map<string, Found>();
  for (const { write } of writes) {
    expect(write.Put ?? write.Delete, `only puts and deletes: ${JSON.stringify(write)}`).toBeDefined();
    const entry: Found = write.Put ? { op: 'put', write: write.Put, item: write.Put.Item } : { op: 'delete', write: write.Delete! };
    expect(entry.write.TableName).toBe(TABLE);
    const key = write.Put ? write.Put.Item : write.Delete!.Key;
    // A slug-ticket counter's key holds the minute it counts in: left out, so the tests name it.
    const id = `${String(key?.PK)}|${String(key?.SK)}`.replace(/#WINDOW#\d+$/, '');
    // DynamoDB refuses a transaction that touches an item twice.
    expect(found.has(id), `${id} written twice`).toBe(false);
    found.set(id, entry);
  }
  return found;
}

/** Which item each write touches and how: { 'PK|SK': 'put' | 'delete' }, order ignored. */
/** The counter of slug tickets of the fixture's slug (hello-world-2: candidate 2 of hello-world), reset when the slug is freed. */
const FREED = 'SLUGTICKETS#post#hello-world|CANDIDATE#2';

function summary(writes: TxWrite[]): Record<string, 'put' | 'delete'> {
  return Object.fromEntries([...byKey(writes)].map(([key, { op }]) => [key, op]));
}

function found(writes: TxWrite[], key: string): Found {
  const entry = byKey(writes).get(key);
  expect(entry, `a write on ${key}`).toBeDefined();
  return entry!;
}

/** The write on the item with this key (failing when there is none). */
const writeOn = (writes: TxWrite[], key: string): Written => found(writes, key).write;

/** The item put under this key (failing when it is not a put). */
function itemOf(writes: TxWrite[], key: string): Item {
  const entry = found(writes, key);
  expect(entry.op, key).toBe('put');
  return entry.item!;
}

const conditionOf = (written: Written) => ({
  ConditionExpression: written.ConditionExpression,
  ExpressionAttributeValues: written.ExpressionAttributeValues,
});
const NO_CONDITION = { ConditionExpression: undefined, ExpressionAttributeValues: undefined };

const puts = (lists: string[]) => Object.fromEntries(lists.map((list) => [entryKey(list), 'put' as const]));
const deletes = (lists: string[]) => Object.fromEntries(lists.map((list) => [entryKey(list), 'delete' as const]));

/** The record's entry for `list`, as postEntries builds it (its content is pinned in items.test.ts). */
const entryOf = (record: PostRecord, list: string) => postEntries(record).find((entry) => entry.SK === list);

/** A post's summary as a change brings it (the excerpt's rules are excerpt.test.ts's). */
const SUMMARY_OF: PostSummary = { excerpt: 'The excerpt.', reading_time_minutes: 2 };

/** postItemWrites with the summary that a change of the text brings. */
const writesOf = (before: PostRecord | null, after: PostRecord | null, unchangedSince?: string): TxWrite[] =>
  postItemWrites(before, after, unchangedSince, SUMMARY_OF);

/** A state after `before` with these fields changed: one version later. */
const next = (before: PostRecord, fields: Partial<PostRecord>): PostRecord => ({ ...before, ...fields, version: before.version + 1 });

describe('postItemWrites: create', () => {
  it('puts the text only if the slug is free, the stats, and every entry of a published post', () => {
    const after = post({ version: 1, rating_likes: 0, rating_dislikes: 0, total_visitors: 0, total_favorites: 0 });
    const writes = writesOf(null, after);
    expect(summary(writes)).toEqual({ [TEXT]: 'put', [SUMMARY]: 'put', [STATS]: 'put', ...puts(PUBLISHED_LISTS) });
    expect(conditionOf(writeOn(writes, TEXT))).toEqual({ ...NO_CONDITION, ...ABSENT });
    expect(itemOf(writes, TEXT)).toMatchObject({ PK: 'POST#hello-world-2', SK: 'POST', id: ID, title: 'Hello World', tags: ['Go', 'Rust'] });
    expect(itemOf(writes, TEXT)).not.toHaveProperty('version');
    expect(itemOf(writes, STATS)).toEqual({
      PK: 'POST#hello-world-2',
      SK: 'STATS',
      post_id: ID,
      rating_likes: 0,
      rating_dislikes: 0,
      total_visitors: 0,
      total_favorites: 0,
      total_comments: 0,
      comments_locked: false,
      version: 1,
      text_version: 1,
    });
    expect(itemOf(writes, TEXT).text_version).toBe(1);
    for (const list of PUBLISHED_LISTS) expect(itemOf(writes, entryKey(list)), list).toEqual(entryOf(after, list));
  });

  it('gives a draft only its MINE entry, and a published featured post its FEATURED one too', () => {
    expect(summary(writesOf(null, post({ publish: false, is_featured: true })))).toEqual({
      [TEXT]: 'put',
      [SUMMARY]: 'put',
      [STATS]: 'put',
      ...puts(['MINE']),
    });
    expect(summary(writesOf(null, post({ is_featured: true })))).toEqual({
      [TEXT]: 'put',
      [SUMMARY]: 'put',
      [STATS]: 'put',
      ...puts([...PUBLISHED_LISTS, 'FEATURED']),
    });
  });
});

describe('postItemWrites: counts', () => {
  it('a first visit (total_visitors + 1) rewrites the stats at the version read and every entry (ViewsSK), never the text', () => {
    const before = post();
    const after = next(before, { total_visitors: 13 });
    const writes = writesOf(before, after);
    expect(summary(writes)).toEqual({ [STATS]: 'put', ...puts(PUBLISHED_LISTS) });
    const stats = writeOn(writes, STATS);
    expect(conditionOf(stats)).toEqual(atVersion(4));
    // The text stays as it was written at version 2, and the stats say so.
    expect(itemOf(writes, STATS)).toMatchObject({ post_id: ID, total_visitors: 13, version: 5, text_version: 2 });
    for (const list of PUBLISHED_LISTS) {
      expect(itemOf(writes, entryKey(list)), list).toMatchObject({ ViewsSK: `000000000013#${CREATED}#${ID}`, slug: 'hello-world-2' });
    }
  });

  it('a like (rating_likes) rewrites the stats and every entry (VotesSK), never the text', () => {
    const before = post({ is_featured: true });
    const writes = writesOf(before, next(before, { rating_likes: 4 }));
    expect(summary(writes)).toEqual({ [STATS]: 'put', ...puts([...PUBLISHED_LISTS, 'FEATURED']) });
    expect(conditionOf(writeOn(writes, STATS))).toEqual(atVersion(4));
    for (const list of [...PUBLISHED_LISTS, 'FEATURED']) expect(itemOf(writes, entryKey(list)).VotesSK, list).toBe(`000000000004#${CREATED}#${ID}`);
  });

  it('a count no list sorts by (total_favorites, rating_dislikes) rewrites only the stats, at the version read', () => {
    const before = post();
    for (const fields of [{ total_favorites: 3 }, { rating_dislikes: 2 }]) {
      const writes = writesOf(before, next(before, fields));
      expect(summary(writes), JSON.stringify(fields)).toEqual({ [STATS]: 'put' });
      expect(conditionOf(writeOn(writes, STATS))).toEqual(atVersion(4));
      expect(itemOf(writes, STATS)).toMatchObject({ ...fields, version: 5 });
    }
  });

  it('a visit to a draft rewrites its stats and its MINE entry only', () => {
    const before = post({ publish: false });
    expect(summary(writesOf(before, next(before, { total_visitors: 13 })))).toEqual({ [STATS]: 'put', ...puts(['MINE']) });
  });
});

describe('postItemWrites: edits', () => {
  it('a description edit rewrites the text, the stats at the version read, and every entry (ActiveSK via modified)', () => {
    const before = post();
    const after = next(before, { description: 'Edited.', modified: LATER });
    const writes = writesOf(before, after);
    expect(summary(writes)).toEqual({ [TEXT]: 'put', [SUMMARY]: 'put', [STATS]: 'put', ...puts(PUBLISHED_LISTS) });
    // Both items name the version the text was written at, so a reader can tell a torn pair.
    expect(itemOf(writes, TEXT)).toMatchObject({ PK: 'POST#hello-world-2', SK: 'POST', description: 'Edited.', modified: LATER, text_version: 5 });
    expect(conditionOf(writeOn(writes, STATS))).toEqual(atVersion(4));
    expect(itemOf(writes, STATS)).toMatchObject({ version: 5, text_version: 5 });
    for (const list of PUBLISHED_LISTS) {
      expect(itemOf(writes, entryKey(list)), list).toMatchObject({ ActiveSK: `${LATER}#${CREATED}#${ID}`, CreatedSK: `${CREATED}#${ID}` });
    }
  });

  it('an edit of the text alone (modified unchanged) rewrites text and stats but no entry', () => {
    // Not what an update does (it sets modified), but the entries hold nothing of the text.
    const before = post();
    const writes = writesOf(before, next(before, { keywords: 'Other' }));
    expect(summary(writes)).toEqual({ [TEXT]: 'put', [SUMMARY]: 'put', [STATS]: 'put' });
    expect(conditionOf(writeOn(writes, STATS))).toEqual(atVersion(4));
  });

  it('a rename deletes the old text and stats (the stats at the version read), claims the new slug, and re-puts the entries with it', () => {
    const before = post();
    const after = next(before, { title: 'Goodbye', slug: 'goodbye', slug_base: 'goodbye', modified: LATER });
    const writes = writesOf(before, after);
    expect(summary(writes)).toEqual({
      [TEXT]: 'delete',
      [SUMMARY]: 'delete',
      [STATS]: 'delete',
      [FREED]: 'delete',
      [LEFT]: 'put',
      'POST#goodbye|POST': 'put',
      'POST#goodbye|SUMMARY': 'put',
      'POST#goodbye|STATS': 'put',
      ...puts(PUBLISHED_LISTS),
    });
    expect(conditionOf(writeOn(writes, STATS))).toEqual(atVersion(4));
    expect(conditionOf(writeOn(writes, 'POST#goodbye|POST'))).toEqual({ ...NO_CONDITION, ...ABSENT });
    expect(itemOf(writes, 'POST#goodbye|POST')).toMatchObject({ id: ID, slug: 'goodbye', slug_base: 'goodbye', title: 'Goodbye' });
    expect(itemOf(writes, 'POST#goodbye|STATS')).toEqual({
      PK: 'POST#goodbye',
      SK: 'STATS',
      post_id: ID,
      rating_likes: 3,
      rating_dislikes: 1,
      total_visitors: 12,
      total_favorites: 2,
      total_comments: 0,
      comments_locked: false,
      version: 5,
      text_version: 5,
    });
    expect(itemOf(writes, 'POST#goodbye|POST').text_version).toBe(5);
    for (const list of PUBLISHED_LISTS) expect(itemOf(writes, entryKey(list)), list).toMatchObject({ slug: 'goodbye', post_id: ID });
    expect(itemOf(writes, LEFT)).toMatchObject({ PK: 'POST#hello-world-2', SK: 'LEFT', post_id: ID });
    expect(conditionOf(writeOn(writes, LEFT))).toEqual(NO_CONDITION);
  });

  it('a rename of a draft moves its text and stats and re-puts only its MINE entry', () => {
    const before = post({ publish: false });
    const writes = writesOf(before, next(before, { slug: 'goodbye', slug_base: 'goodbye', modified: LATER }));
    expect(summary(writes)).toEqual({
      [TEXT]: 'delete',
      [SUMMARY]: 'delete',
      [STATS]: 'delete',
      [FREED]: 'delete',
      [LEFT]: 'put',
      'POST#goodbye|POST': 'put',
      'POST#goodbye|SUMMARY': 'put',
      'POST#goodbye|STATS': 'put',
      ...puts(['MINE']),
    });
  });

  it('publishing puts the AUTHORED, POSTS and TAGGED entries, and FEATURED for a featured post', () => {
    const before = post({ publish: false, is_featured: true });
    const writes = writesOf(before, next(before, { publish: true, modified: LATER }));
    expect(summary(writes)).toEqual({ [TEXT]: 'put', [SUMMARY]: 'put', [STATS]: 'put', ...puts([...PUBLISHED_LISTS, 'FEATURED']) });
    expect(conditionOf(writeOn(writes, STATS))).toEqual(atVersion(4));
    expect(itemOf(writes, entryKey('MINE'))).toMatchObject({ publish: true });
  });

  it('unpublishing deletes the AUTHORED, POSTS, TAGGED and FEATURED entries and keeps MINE (re-put as unpublished)', () => {
    const before = post({ is_featured: true });
    const writes = writesOf(before, next(before, { publish: false, modified: LATER }));
    expect(summary(writes)).toEqual({
      [TEXT]: 'put',
      [SUMMARY]: 'put',
      [STATS]: 'put',
      ...puts(['MINE']),
      ...deletes(['AUTHORED', 'POSTS', 'TAGGED#go', 'TAGGED#rust', 'FEATURED']),
    });
    expect(conditionOf(writeOn(writes, STATS))).toEqual(atVersion(4));
    expect(itemOf(writes, entryKey('MINE'))).toMatchObject({ publish: false, ListPK: 'MINE#000000000007' });
  });

  it('a tag swap deletes the old TAGGED entry and puts the new one', () => {
    const before = post();
    const after = next(before, { tags: ['Rust', 'Zig Lang'], tag_slugs: ['rust', 'zig-lang'], modified: LATER });
    const writes = writesOf(before, after);
    expect(summary(writes)).toEqual({
      [TEXT]: 'put',
      [SUMMARY]: 'put',
      [STATS]: 'put',
      ...puts(['MINE', 'AUTHORED', 'POSTS', 'TAGGED#rust', 'TAGGED#zig-lang']),
      ...deletes(['TAGGED#go']),
    });
    expect(itemOf(writes, entryKey('TAGGED#zig-lang'))).toMatchObject({ ListPK: 'TAGGED#zig-lang', slug: 'hello-world-2' });
    expect(itemOf(writes, TEXT)).toMatchObject({ tags: ['Rust', 'Zig Lang'], tag_slugs: ['rust', 'zig-lang'] });
  });

  it('a tag swap on a draft writes no TAGGED entry at all', () => {
    const before = post({ publish: false });
    const writes = writesOf(before, next(before, { tags: ['Zig Lang'], tag_slugs: ['zig-lang'], modified: LATER }));
    expect(summary(writes)).toEqual({ [TEXT]: 'put', [SUMMARY]: 'put', [STATS]: 'put', ...puts(['MINE']) });
  });

  it('featuring a published post puts its FEATURED entry; unfeaturing deletes it; a draft gets none', () => {
    const plain = post();
    const featured = next(plain, { is_featured: true });
    // is_featured is projected into every entry, so all of them are rewritten.
    expect(summary(writesOf(plain, featured))).toEqual({ [TEXT]: 'put', [SUMMARY]: 'put', [STATS]: 'put', ...puts([...PUBLISHED_LISTS, 'FEATURED']) });
    expect(summary(writesOf(featured, next(featured, { is_featured: false })))).toEqual({
      [TEXT]: 'put',
      [SUMMARY]: 'put',
      [STATS]: 'put',
      ...puts(PUBLISHED_LISTS),
      ...deletes(['FEATURED']),
    });
    const draft = post({ publish: false });
    expect(summary(writesOf(draft, next(draft, { is_featured: true })))).toEqual({ [TEXT]: 'put', [SUMMARY]: 'put', [STATS]: 'put', ...puts(['MINE']) });
  });
});

describe('postItemWrites: delete', () => {
  it('deletes the text, the stats at the version read, and every entry, MINE included', () => {
    const writes = writesOf(post({ is_featured: true }), null);
    expect(summary(writes)).toEqual({
      [TEXT]: 'delete',
      [SUMMARY]: 'delete',
      [STATS]: 'delete',
      [FREED]: 'delete',
      [LEFT]: 'delete',
      ...deletes([...PUBLISHED_LISTS, 'FEATURED']),
    });
    expect(conditionOf(writeOn(writes, STATS))).toEqual(atVersion(4));
    expect(writeOn(writes, TEXT)).toMatchObject({ Key: { PK: 'POST#hello-world-2', SK: 'POST' } });
  });

  it("deletes a draft's text, stats and MINE entry", () => {
    const writes = writesOf(post({ publish: false, version: 9 }), null);
    expect(summary(writes)).toEqual({ [TEXT]: 'delete', [SUMMARY]: 'delete', [STATS]: 'delete', [FREED]: 'delete', [LEFT]: 'delete', ...deletes(['MINE']) });
    expect(conditionOf(writeOn(writes, STATS))).toEqual(atVersion(9));
  });
});

describe('postItemWrites: every change is conditioned on what it read', () => {
  // Every change of an existing post carries the version (and id) of the state it was computed from on
  // exactly one write (the stats item's), so a concurrent change makes the whole transaction fail.
  const before = post({ is_featured: true, version: 11 });
  const changes: [string, PostRecord | null][] = [
    ['visit', next(before, { total_visitors: 13 })],
    ['favorite', next(before, { total_favorites: 3 })],
    ['edit', next(before, { description: 'Edited.', modified: LATER })],
    ['rename', next(before, { slug: 'goodbye', slug_base: 'goodbye', modified: LATER })],
    ['unpublish', next(before, { publish: false, modified: LATER })],
    ['delete', null],
  ];
  it.each(changes)('%s', (_, after) => {
    const conditioned = [...byKey(writesOf(before, after))].filter(([, { write }]) => write.ConditionExpression === CONDITION);
    expect(conditioned.map(([key]) => key)).toEqual([STATS]);
    expect(conditioned[0]![1].write.ExpressionAttributeValues).toEqual({ ':v': 11, ':id': ID });
  });
});

describe('postItemWrites: a reused slug', () => {
  // A change is computed from post A read under slug s at version v. If, before it commits, A is
  // renamed away and a new post B takes s and reaches the same version v (versions are small
  // integers: a new post is at 1), a condition on the version alone would hold on B's stats, and the
  // change would overwrite or delete B. The condition names the post's id too.
  const before = post({ version: 1 });
  const changes: [string, PostRecord | null][] = [
    ['visit', next(before, { total_visitors: 13 })],
    ['edit', next(before, { description: 'Edited.', modified: LATER })],
    ['rename', next(before, { slug: 'goodbye', slug_base: 'goodbye', modified: LATER })],
    ['delete', null],
  ];
  it.each(changes)("%s: the stats write's condition names the post's id as well as its version", (_, after) => {
    const stats = writeOn(writesOf(before, after), STATS);
    expect(stats.ConditionExpression).toMatch(/\bpost_id\b/);
    expect(Object.values(stats.ExpressionAttributeValues ?? {})).toContain(ID);
  });
});

// commitPostChange sends [...with, ...postItemWrites, ...counterWrites] as one transaction, or,
// when that exceeds DynamoDB's 100 items and the change creates tags, creates the tags first and
// sends the rest with those tags counted as existing. Its branch calls DynamoDB and is not run
// here; what is pure is checked: the sizes and the distinct items of both shapes, for the largest
// changes the input limits allow.

const TRANSACTION_LIMIT = 100;
const MAX_TAGS = POST_LIMITS.tags;
const tagRefs = (prefix: string): TagRef[] => Array.from({ length: MAX_TAGS }, (_, i) => ({ title: `${prefix} ${i}`, slug: `${prefix}-${i}` }));
const withTags = (refs: TagRef[], fields: Partial<PostRecord> = {}) => post({ tags: refs.map((t) => t.title), tag_slugs: refs.map((t) => t.slug), ...fields });

/** What commitPostChange would send as one transaction. */
const oneTransaction = (before: PostRecord | null, after: PostRecord | null, created: TagRef[], others: TxWrite[] = []) => [
  ...others,
  ...writesOf(before, after),
  ...counterWrites((after ?? before)!.author, before, after, created),
];

function expectDistinctItems(writes: TxWrite[]): void {
  const keys = writes.map(({ write }) => {
    const key = write.Put?.Item ?? write.Delete?.Key ?? write.Update?.Key ?? write.ConditionCheck?.Key;
    return `${String(key?.PK)}|${String(key?.SK)}`;
  });
  expect(new Set(keys).size, keys.join(', ')).toBe(keys.length);
}

describe('transaction size of the largest changes', () => {
  it(`a rename of a published featured post swapping ${MAX_TAGS} existing tags for ${MAX_TAGS} other existing ones fits in one`, () => {
    const before = withTags(tagRefs('old'), { is_featured: true });
    const after = next(withTags(tagRefs('new'), { is_featured: true }), { slug: 'goodbye', slug_base: 'goodbye', modified: LATER });
    const writes = oneTransaction(before, after, []);
    expect(writes.length).toBeLessThanOrEqual(TRANSACTION_LIMIT);
    expectDistinctItems(writes);
  });

  it(`unpublishing and renaming a featured post while swapping its ${MAX_TAGS} tags fits in one`, () => {
    const before = withTags(tagRefs('old'), { is_featured: true });
    const after = next(withTags(tagRefs('new'), { is_featured: true, publish: false }), { slug: 'goodbye', slug_base: 'goodbye', modified: LATER });
    const writes = oneTransaction(before, after, []);
    expect(writes.length).toBeLessThanOrEqual(TRANSACTION_LIMIT);
    expectDistinctItems(writes);
  });

  it(`a visit to a published featured post with ${MAX_TAGS} tags, with its visit item, fits in one`, () => {
    const before = withTags(tagRefs('old'), { is_featured: true });
    const visit: TxWrite = { write: { Put: { TableName: TABLE, Item: { PK: `VISIT#${ID}`, SK: 'USER#000000000009' } } } };
    const writes = oneTransaction(before, next(before, { total_visitors: 13 }), [], [visit]);
    expect(writes.length).toBeLessThanOrEqual(TRANSACTION_LIMIT);
    expectDistinctItems(writes);
  });

  it(`creating a published post with ${MAX_TAGS} new tags fits in one`, () => {
    const writes = oneTransaction(null, withTags(tagRefs('new')), tagRefs('new'));
    expect(writes.length).toBeLessThanOrEqual(TRANSACTION_LIMIT);
    expectDistinctItems(writes);
  });

  it(`a rename swapping ${MAX_TAGS} tags for ${MAX_TAGS} new ones does not fit in one, and fits once the tags are created first`, () => {
    const before = withTags(tagRefs('old'), { is_featured: true });
    const created = tagRefs('new');
    const after = next(withTags(created, { is_featured: true }), { slug: 'goodbye', slug_base: 'goodbye', modified: LATER });
    // The case the split exists for: one transaction would be refused.
    expect(oneTransaction(before, after, created).length).toBeGreaterThan(TRANSACTION_LIMIT);
    // Then: the tags alone (2 writes each, and the count of tags), and the post's writes counting them as existing tags.
    const second = oneTransaction(before, after, []);
    expect(created.length * 2 + 1).toBeLessThanOrEqual(TRANSACTION_LIMIT);
    expect(second.length).toBeLessThanOrEqual(TRANSACTION_LIMIT);
    expectDistinctItems(second);
    for (const tag of created) {
      expect(second, tag.slug).toContainEqual({
        write: expect.objectContaining({
          Update: expect.objectContaining({ Key: { PK: `TAG#${tag.slug}`, SK: 'TAG' }, ExpressionAttributeValues: { ':delta': 1, ':featured': 1 } }),
        }),
      });
    }
  });
});

describe('fixtures', () => {
  it('the base record is published, not featured, tagged go and rust, at version 4 (what the expectations above assume)', () => {
    expect(post()).toMatchObject({
      slug: 'hello-world-2',
      publish: true,
      is_featured: false,
      tag_slugs: ['go', 'rust'],
      version: 4,
      total_visitors: 12,
      rating_likes: 3,
      modified: MODIFIED,
    });
  });
});

import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Item } from '#lib/db/batch.ts';
import { keys, parsePostText, postLists } from '#lib/db/keys.ts';
import { postStatsItem, postTextItem, type PostRecord } from '#lib/posts/post.ts';
import { textChange } from '#lib/search/indexing.ts';
import {
  DRAFT_MARK,
  INDEXED_WORD_LENGTH,
  indexedPost,
  indexedTerms,
  indexedWord,
  postingChange,
  postingFromItem,
  type IndexedPost,
} from '#lib/search/postings.ts';
import { matchesQuery, postWords, queryWords, wordsOf } from '#lib/search/words.ts';
import { tableChange, type TableChange } from '#lib/streams/records.ts';
import { CREATED, POST_ID as ID, postRecord as post } from './records.ts';

// The search rule and its index without a database: the words of a text and of a query, which
// posts a query matches, and the postings a change of a post's text item writes and deletes.

/** The post the index sees in the text item of `record`. */
function indexed(record: PostRecord): IndexedPost {
  const result = indexedPost(postTextItem(record));
  if (!result) throw new Error('not a text item');
  return result;
}

/** The words of the default post (postRecord): title, description and keywords. */
const DEFAULT_WORDS = ['hello', 'world', 'some', 'markdown', 'go', 'rust'];

/** A new post's text (text version 1): what a create writes. */
const created = (fields: Partial<PostRecord> = {}) => indexed(post({ text_version: 1, ...fields }));

const sortKeys = (items: readonly { SK?: unknown }[]) => items.map((item) => String(item.SK)).sort();

describe('wordsOf', () => {
  it('lower-cases and splits on anything but letters and digits', () => {
    expect(wordsOf('Lambda tips, for SERVERLESS apps!')).toEqual(['lambda', 'tips', 'for', 'serverless', 'apps']);
  });

  it('removes the accents (NFKD, then combining marks dropped)', () => {
    expect(wordsOf('Crème brûlée')).toEqual(['creme', 'brulee']);
    expect(wordsOf('ÉCOLE Ångström')).toEqual(['ecole', 'angstrom']);
    // Already decomposed text reads the same.
    expect(wordsOf('Cre\u0300me')).toEqual(['creme']);
  });

  it('reads compatibility forms as their plain letters and digits', () => {
    expect(wordsOf('ﬁn')).toEqual(['fin']);
    expect(wordsOf('ＡＢＣ１')).toEqual(['abc1']);
    expect(wordsOf('x² ①')).toEqual(['x2', '1']);
  });

  it('keeps the letters of any script, a run without spaces being one word', () => {
    expect(wordsOf('数据库设计 abc')).toEqual(['数据库设计', 'abc']);
    expect(wordsOf('Привет, МИР')).toEqual(['привет', 'мир']);
  });

  it('keeps digits in words and as words', () => {
    expect(wordsOf('ES2022 in 2026')).toEqual(['es2022', 'in', '2026']);
  });

  it('splits on underscores and punctuation', () => {
    expect(wordsOf('snake_case-word.dotted/slash')).toEqual(['snake', 'case', 'word', 'dotted', 'slash']);
    expect(wordsOf("it's")).toEqual(['it', 's']);
  });

  it('keeps repeats, in order', () => {
    expect(wordsOf('Go go GO rust')).toEqual(['go', 'go', 'go', 'rust']);
  });

  it('is empty for a text without a word', () => {
    expect(wordsOf('')).toEqual([]);
    expect(wordsOf('  ...!?  _ ')).toEqual([]);
  });
});

describe('postWords', () => {
  it('is the distinct words of the title, description, keywords and meta_description', () => {
    expect(postWords({ title: 'Lambda Tips', description: 'Tips for lambda.', keywords: 'aws, Lambda', meta_description: 'Serverless' })).toEqual(
      new Set(['lambda', 'tips', 'for', 'aws', 'serverless']),
    );
  });

  it('reads a null keywords or meta_description as no words', () => {
    expect(postWords({ title: 'Hello', description: 'World', keywords: null, meta_description: null })).toEqual(new Set(['hello', 'world']));
    expect(postWords({ title: 'Hello', description: 'World', keywords: null, meta_description: 'Meta' })).toEqual(new Set(['hello', 'world', 'meta']));
  });

  it('reads no other field', () => {
    expect(postWords(post({ author: 'zed', slug: 'unrelated-slug', tags: ['Kotlin'] }))).toEqual(new Set(DEFAULT_WORDS));
  });
});

describe('queryWords', () => {
  it('is the distinct words of q', () => {
    expect(queryWords('Go rust GO')).toEqual(['go', 'rust']);
  });

  it('drops a word that begins another query word', () => {
    expect(queryWords('lamb lambda')).toEqual(['lambda']);
    expect(queryWords('lambda lamb')).toEqual(['lambda']);
    expect(queryWords('l la lam lambda tips')).toEqual(['lambda', 'tips']);
  });

  it('keeps a word that only occurs inside another', () => {
    expect(queryWords('ambda lambda')).toEqual(['ambda', 'lambda']);
  });

  it('is empty for a q without a word, or no q', () => {
    expect(queryWords('')).toEqual([]);
    expect(queryWords(' ,;!_ ')).toEqual([]);
    expect(queryWords(undefined)).toEqual([]);
  });
});

describe('matchesQuery', () => {
  const words = postWords({ title: 'Lambda tips', description: 'Serverless apps on AWS.', keywords: null, meta_description: 'Crème brûlée' });

  it('matches when every query word begins some word of the post', () => {
    expect(matchesQuery(words, queryWords('lambda'))).toBe(true);
    expect(matchesQuery(words, queryWords('lam serv'))).toBe(true);
    expect(matchesQuery(words, queryWords('TIPS aws'))).toBe(true);
    expect(matchesQuery(words, queryWords('creme brul'))).toBe(true);
    expect(matchesQuery(words, queryWords('Crème'))).toBe(true);
  });

  it('does not match when one query word begins no word of the post', () => {
    expect(matchesQuery(words, queryWords('lambda kotlin'))).toBe(false);
    expect(matchesQuery(words, queryWords('lambdas'))).toBe(false);
  });

  it('does not match a query word that starts inside a post word', () => {
    expect(matchesQuery(words, queryWords('ambda'))).toBe(false);
    expect(matchesQuery(words, queryWords('less'))).toBe(false);
  });

  it('does not match across two post words', () => {
    expect(matchesQuery(words, queryWords('lambdatips'))).toBe(false);
  });

  it('matches every post for an empty query', () => {
    expect(matchesQuery(words, [])).toBe(true);
    expect(matchesQuery(new Set(), [])).toBe(true);
  });

  it('matches nothing for a post without words and a query with one', () => {
    expect(matchesQuery(new Set(), ['a'])).toBe(false);
  });
});

describe('indexedWord', () => {
  it('keeps a word of at most INDEXED_WORD_LENGTH characters whole', () => {
    expect(INDEXED_WORD_LENGTH).toBe(64);
    expect(indexedWord('lambda')).toBe('lambda');
    const exact = 'a'.repeat(INDEXED_WORD_LENGTH);
    expect(indexedWord(exact)).toBe(exact);
  });

  it('cuts a longer word to its first INDEXED_WORD_LENGTH characters', () => {
    expect(indexedWord('a'.repeat(INDEXED_WORD_LENGTH) + 'bcd')).toBe('a'.repeat(INDEXED_WORD_LENGTH));
  });

  it('counts code points, not UTF-16 units (never splits a surrogate pair)', () => {
    // '𝒳' is one code point, two UTF-16 units.
    const exact = '𝒳'.repeat(INDEXED_WORD_LENGTH);
    expect(exact.length).toBe(2 * INDEXED_WORD_LENGTH);
    expect(indexedWord(exact)).toBe(exact);

    const cut = indexedWord('𝒳'.repeat(INDEXED_WORD_LENGTH + 6));
    expect(cut).toBe(exact);
    expect(Array.from(cut)).toHaveLength(INDEXED_WORD_LENGTH);

    const mixed = indexedWord('a'.repeat(INDEXED_WORD_LENGTH - 1) + '𝒳𝒳');
    expect(mixed).toBe('a'.repeat(INDEXED_WORD_LENGTH - 1) + '𝒳');
    expect(Array.from(mixed)).toHaveLength(INDEXED_WORD_LENGTH);
  });
});

describe('indexedPost', () => {
  it('reads the fields of a text item image', () => {
    expect(indexedPost(postTextItem(post({ is_featured: true, meta_description: 'About it' })))).toEqual({
      id: ID,
      slug: 'hello-world-2',
      author: 'alice',
      author_id: 7,
      created: CREATED,
      publish: true,
      text_version: 2,
      title: 'Hello World',
      description: 'Some **Markdown**.',
      keywords: 'Go, Rust',
      meta_description: 'About it',
    });
  });

  it('reads a draft and null texts, and neither the tags nor the featured flag (a search tells those by the entries)', () => {
    const read = indexedPost(postTextItem(post({ publish: false, is_featured: true, keywords: null })));
    expect(read).toMatchObject({ publish: false, keywords: null, meta_description: null });
    expect(read).not.toHaveProperty('is_featured');
    expect(read).not.toHaveProperty('tag_slugs');
  });

  it('reads a missing publish flag as false and a missing text_version as 0', () => {
    const { id, slug, author, author_id, created, title, description } = postTextItem(post());
    expect(indexedPost({ id, slug, author, author_id, created, title, description })).toMatchObject({
      publish: false,
      text_version: 0,
      keywords: null,
      meta_description: null,
    });
  });

  it('is undefined for no image, or an image without id, title or description', () => {
    expect(indexedPost(undefined)).toBeUndefined();
    for (const name of ['id', 'title', 'description']) {
      const image = postTextItem(post());
      delete image[name];
      expect(indexedPost(image), name).toBeUndefined();
    }
    expect(indexedPost(postStatsItem(post()))).toBeUndefined();
    expect(indexedPost({ PK: 'POST#x', SK: 'POST' })).toBeUndefined();
  });
});

describe('postingChange', () => {
  it('writes one posting per word of a new post, and deletes nothing', () => {
    const after = created();
    const change = postingChange(undefined, after);
    expect(change.deletes).toEqual([]);
    expect(sortKeys(change.puts)).toEqual(DEFAULT_WORDS.map((word) => keys.posting(word, ID).SK).sort());
    for (const word of DEFAULT_WORDS) {
      expect(change.puts).toContainEqual({
        ...keys.posting(word, ID),
        post_id: ID,
        slug: 'hello-world-2',
        author: 'alice',
        author_id: 7,
        created: CREATED,
        text_version: 1,
      });
    }
  });

  it('writes the draft mark of a new draft beside its words, in a partition of its own', () => {
    const { puts } = postingChange(undefined, created({ publish: false }));
    expect(sortKeys(puts)).toEqual([...DEFAULT_WORDS, DRAFT_MARK].map((word) => keys.posting(word, ID).SK).sort());
    expect(keys.posting(DRAFT_MARK, ID).PK).toBe('WORD##');
    expect(indexedTerms(created({ publish: false }))).toEqual(new Set([...DEFAULT_WORDS, DRAFT_MARK]));
    expect(indexedTerms(created())).toEqual(new Set(DEFAULT_WORDS));
  });

  it("writes nothing for the new slug of a rename (a later text version where none was): the old slug's removal does", () => {
    expect(postingChange(undefined, indexed(post({ slug: 'hello-world-3', title: 'Hello Lambda', text_version: 4 })))).toEqual({ puts: [], deletes: [] });
  });

  it('partitions postings by the first character of the word', () => {
    const { puts } = postingChange(undefined, created({ title: 'Lambda', description: '数据库', keywords: null }));
    expect(puts.map((item) => [item.PK, item.SK])).toEqual(
      expect.arrayContaining([
        ['WORD#l', `lambda#${ID}`],
        ['WORD#数', `数据库#${ID}`],
      ]),
    );
  });

  it('writes each word once, however often the post has it', () => {
    const { puts } = postingChange(undefined, created({ title: 'Go go', description: 'GO!', keywords: 'go', meta_description: 'Go.' }));
    expect(sortKeys(puts)).toEqual([keys.posting('go', ID).SK]);
  });

  it('indexes a long word by its first INDEXED_WORD_LENGTH characters', () => {
    const long = '𠀀'.repeat(INDEXED_WORD_LENGTH + 10);
    const { puts } = postingChange(undefined, created({ title: long, description: 'x', keywords: null }));
    expect(sortKeys(puts)).toEqual([keys.posting('𠀀'.repeat(INDEXED_WORD_LENGTH), ID).SK, keys.posting('x', ID).SK].sort());
  });

  it('on a text edit, writes only the added words, at the new version, and deletes the dropped ones below it', () => {
    const before = indexed(post());
    const after = indexed(post({ title: 'Hello Lambda', modified: '2026-03-01T00:00:00.000000+00:00', text_version: 3 }));
    const change = postingChange(before, after);
    expect(change.puts).toEqual([
      {
        ...keys.posting('lambda', ID),
        post_id: ID,
        slug: 'hello-world-2',
        author: 'alice',
        author_id: 7,
        created: CREATED,
        text_version: 3,
      },
    ]);
    expect(change.deletes).toEqual([{ key: keys.posting('world', ID), below: 3 }]);
  });

  it('on an edit that changes no word and no listed field, writes and deletes nothing', () => {
    const before = indexed(post());
    const after = indexed(post({ title: 'Hello, WORLD!', text_version: 3 }));
    expect(postingChange(before, after)).toEqual({ puts: [], deletes: [] });
  });

  it('on an edit that adds and drops several words, deletes each dropped word once', () => {
    const before = indexed(post({ keywords: 'alpha beta gamma' }));
    const after = indexed(post({ keywords: 'gamma delta', text_version: 5 }));
    const change = postingChange(before, after);
    expect(sortKeys(change.puts)).toEqual([keys.posting('delta', ID).SK]);
    expect(change.deletes).toHaveLength(2);
    expect(change.deletes).toEqual(
      expect.arrayContaining([
        { key: keys.posting('alpha', ID), below: 5 },
        { key: keys.posting('beta', ID), below: 5 },
      ]),
    );
  });

  it("on a change of slug alone (a rename in place), writes and deletes nothing: a posting's slug is where its post was", () => {
    expect(postingChange(indexed(post()), indexed(post({ slug: 'hello-world-3', text_version: 3 })))).toEqual({ puts: [], deletes: [] });
  });

  it('on a publish, deletes the draft mark only; on an unpublish, puts it only', () => {
    const draft = indexed(post({ publish: false }));
    const published = indexed(post({ text_version: 3 }));
    expect(postingChange(draft, published)).toEqual({ puts: [], deletes: [{ key: keys.posting(DRAFT_MARK, ID), below: 3 }] });
    const unpublished = postingChange(published, indexed(post({ publish: false, text_version: 4 })));
    expect(unpublished.deletes).toEqual([]);
    expect(sortKeys(unpublished.puts)).toEqual([keys.posting(DRAFT_MARK, ID).SK]);
    expect(unpublished.puts[0]).toMatchObject({ post_id: ID, text_version: 4 });
  });

  it.each<[string, Partial<PostRecord>]>([
    ['is_featured', { is_featured: true }],
    ['tag_slugs', { tags: ['Go'], tag_slugs: ['go'] }],
    ['tag_slugs order', { tags: ['Rust', 'Go'], tag_slugs: ['rust', 'go'] }],
  ])('on a change of %s alone, writes and deletes nothing (the postings do not carry it)', (_name, fields) => {
    const change = postingChange(indexed(post()), indexed(post({ ...fields, text_version: 3 })));
    expect(change.puts).toEqual([]);
    expect(change.deletes).toEqual([]);
  });

  it('on an unpublish together with a text edit, writes the added word and the draft mark, and deletes the dropped word', () => {
    const before = indexed(post());
    const after = indexed(post({ title: 'Hello Lambda', publish: false, text_version: 3 }));
    const change = postingChange(before, after);
    expect(sortKeys(change.puts)).toEqual(['lambda', DRAFT_MARK].map((word) => keys.posting(word, ID).SK).sort());
    expect(change.puts.every((put) => put.text_version === 3)).toBe(true);
    expect(change.deletes).toEqual([{ key: keys.posting('world', ID), below: 3 }]);
  });

  it("on a removal, deletes every word's posting not newer than the removed text, and writes nothing", () => {
    const before = indexed(post({ text_version: 4 }));
    const change = postingChange(before, undefined);
    expect(change.puts).toEqual([]);
    expect(change.deletes).toHaveLength(DEFAULT_WORDS.length);
    expect(change.deletes).toEqual(expect.arrayContaining(DEFAULT_WORDS.map((word) => ({ key: keys.posting(word, ID), below: 5 }))));
  });

  it("on a removal, deletes a long word's posting under its indexed form", () => {
    const long = 'a'.repeat(INDEXED_WORD_LENGTH + 1);
    const change = postingChange(indexed(post({ title: long, description: 'b', keywords: null })), undefined);
    expect(change.deletes.map(({ key }) => key)).toEqual(expect.arrayContaining([keys.posting('a'.repeat(INDEXED_WORD_LENGTH), ID), keys.posting('b', ID)]));
    expect(change.deletes).toHaveLength(2);
  });
});

describe('postingFromItem', () => {
  it('reads back the posting a put writes', () => {
    const { puts } = postingChange(undefined, created());
    expect(postingFromItem(puts[0]!, new Set())).toEqual({
      post_id: ID,
      slug: 'hello-world-2',
      author: 'alice',
      author_id: 7,
      created: CREATED,
      publish: true,
      text_version: 1,
    });
  });

  it('reads a post with a draft mark among the drafts as not published', () => {
    const { puts } = postingChange(undefined, created());
    expect(postingFromItem(puts[0]!, new Set([ID]))).toMatchObject({ post_id: ID, publish: false });
    expect(postingFromItem(puts[0]!, new Set(['another-id']))).toMatchObject({ publish: true });
  });

  it('reads back every put of a draft without tags', () => {
    const after = created({ publish: false, tags: [], tag_slugs: [] });
    for (const put of postingChange(undefined, after).puts) {
      const fields: Item = { ...put };
      delete fields.PK;
      delete fields.SK;
      expect(postingFromItem(put, new Set([ID]))).toEqual({ ...fields, publish: false });
    }
  });
});

describe('textChange', () => {
  const text = postTextItem(post());
  const change = (kind: TableChange['kind'], key: { PK: string; SK: string }, oldImage?: Item, newImage?: Item): TableChange => ({
    kind,
    keys: { ...key },
    ...(oldImage ? { oldImage } : {}),
    ...(newImage ? { newImage } : {}),
    sequenceNumber: '1',
  });
  /** The text item's fields under another key: only the key tells the two apart. */
  const under = (key: { PK: string; SK: string }): Item => ({ ...text, ...key });

  it("selects a post's text written, with the text after", () => {
    expect(textChange(change('INSERT', keys.post('hello-world-2'), undefined, text))).toEqual({ after: indexed(post()) });
  });

  it("selects a post's text changed, with the texts before and after", () => {
    const edited = postTextItem(post({ title: 'Hello Lambda', text_version: 3 }));
    expect(textChange(change('MODIFY', keys.post('hello-world-2'), text, edited))).toEqual({
      before: indexed(post()),
      after: indexed(post({ title: 'Hello Lambda', text_version: 3 })),
    });
  });

  it("selects a post's text removed, with the text before", () => {
    expect(textChange(change('REMOVE', keys.post('hello-world-2'), text))).toEqual({ before: indexed(post()) });
  });

  it('selects a text item as a Lambda stream record carries it', () => {
    type Image = NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
    const record: DynamoDBRecord = {
      eventName: 'INSERT',
      dynamodb: { Keys: marshall(keys.post('hello-world-2')) as Image, NewImage: marshall(text) as Image, SequenceNumber: '7' },
    };
    expect(textChange(tableChange(record))).toEqual({ after: indexed(post()) });
  });

  it.each<[string, { PK: string; SK: string }]>([
    ["a post's stats", keys.postStats('hello-world-2')],
    ['a list entry', keys.postEntry(ID, postLists.mine)],
    ['a visit', keys.visit(ID, 7)],
    ['a posting', keys.posting('hello', ID)],
    ['a user profile', keys.userProfile('alice')],
    ['the POST# partition without a slug', { PK: 'POST#', SK: 'POST' }],
  ])('selects nothing for %s, whatever its images hold', (_name, key) => {
    for (const kind of ['INSERT', 'MODIFY', 'REMOVE'] as const) {
      expect(textChange(change(kind, key, kind === 'INSERT' ? undefined : under(key), kind === 'REMOVE' ? undefined : under(key))), kind).toBeUndefined();
    }
  });

  it('selects nothing for a text key whose images are not texts', () => {
    expect(textChange(change('REMOVE', keys.post('hello-world-2')))).toBeUndefined();
    expect(
      textChange(change('MODIFY', keys.post('hello-world-2'), { PK: 'POST#hello-world-2', SK: 'POST' }, { PK: 'POST#hello-world-2', SK: 'POST' })),
    ).toBeUndefined();
  });
});

describe('parsePostText', () => {
  it("is the slug of a post's text key", () => {
    expect(parsePostText(keys.post('hello-world-2'))).toBe('hello-world-2');
    expect(parsePostText({ PK: 'POST#a', SK: 'POST' })).toBe('a');
  });

  it('is undefined for any other key', () => {
    expect(parsePostText({ PK: 'POST#', SK: 'POST' })).toBeUndefined();
    expect(parsePostText(keys.postStats('hello-world-2'))).toBeUndefined();
    expect(parsePostText(keys.postEntry(ID, postLists.mine))).toBeUndefined();
    expect(parsePostText(keys.visit(ID, 7))).toBeUndefined();
    expect(parsePostText(keys.posting('post', ID))).toBeUndefined();
    expect(parsePostText({ PK: 'XPOST#a', SK: 'POST' })).toBeUndefined();
    expect(parsePostText({ PK: 'post#a', SK: 'POST' })).toBeUndefined();
    expect(parsePostText({ PK: 'POST#a', SK: 'post' })).toBeUndefined();
    expect(parsePostText({ PK: 'POST#a' })).toBeUndefined();
    expect(parsePostText({ SK: 'POST' })).toBeUndefined();
    expect(parsePostText({ PK: 7, SK: 'POST' })).toBeUndefined();
    expect(parsePostText({})).toBeUndefined();
  });
});

describe('postingChange: another post under the same key', () => {
  it('deletes every posting of the old post (below its version + 1) and puts every word of the new one', () => {
    const before = indexedPost(postTextItem(post({ text_version: 5 })))!;
    const after = indexedPost(postTextItem(post({ id: 'other-id', text_version: 1 })))!;
    const change = postingChange(before, after);
    expect(change.deletes).toEqual([...indexedTerms(before)].map((word) => ({ key: keys.posting(word, before.id), below: 6 })));
    expect(change.puts.map((item) => item.SK)).toEqual([...indexedTerms(after)].map((word) => keys.posting(word, 'other-id').SK));
  });
});

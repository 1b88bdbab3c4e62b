import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Item } from '#lib/db/batch.ts';
import { keys, parsePostText, postLists } from '#lib/db/keys.ts';
import { postStatsItem, postTextItem, type PostRecord } from '#lib/posts/post.ts';
import { textChange } from '#lib/search/indexing.ts';
import { fullPostings, indexedPost, indexedTerms, postingChange, postingFromItem, type IndexedPost } from '#lib/search/postings.ts';
import { postTerms, postingMatches, queryTerm, TERM_LEVELS, WORDS_BYTES } from '#lib/search/terms.ts';
import { matchesQuery, postWords, QUERY_LIMITS, queryWords, wordsOf } from '#lib/search/words.ts';
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

/**
 * The terms of the default post (postRecord: title "Hello World", description "Some **Markdown**.",
 * keywords "Go, Rust"), with the words each has past it: every word by its first 1, 2, 4 and 8
 * letters as far as it reaches them.
 */
const DEFAULT_TERMS: Record<string, string> = {
  h: '',
  he: 'hel',
  hell: 'hello',
  w: '',
  wo: 'wor',
  worl: 'world',
  s: '',
  so: 'som',
  some: '',
  m: '',
  ma: 'mar',
  mark: 'markdow',
  markdown: '',
  g: '',
  go: '',
  r: '',
  ru: 'rus',
  rust: '',
};
const TERM_NAMES = Object.keys(DEFAULT_TERMS);

/** The words of the default post. */
const DEFAULT_WORDS = ['hello', 'world', 'some', 'markdown', 'go', 'rust'];

/** The key of the default post's posting of `term`. */
const postingKey = (term: string) => keys.posting(term, CREATED, ID);

/** A new post's text (text version 1): what a create writes. */
const created = (fields: Partial<PostRecord> = {}) => indexed(post({ text_version: 1, ...fields }));

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

  it('counts a word by its first QUERY_LIMITS.wordLength characters (code points)', () => {
    expect(QUERY_LIMITS.wordLength).toBe(64);
    expect(queryWords('a'.repeat(70))).toEqual(['a'.repeat(64)]);
    expect(queryWords('𠀀'.repeat(70))).toEqual(['𠀀'.repeat(64)]);
  });

  it('keeps the QUERY_LIMITS.words longest words of more, in the order given', () => {
    expect(QUERY_LIMITS.words).toBe(8);
    const letters = 'a b c d e f g h i j k l m n o p q r s t u v w x y z';
    expect(queryWords(letters)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(queryWords('x1 go lambda rust serverless ab cd ef gh ij kl')).toEqual(['x1', 'go', 'lambda', 'rust', 'serverless', 'ab', 'cd', 'ef']);
    // The longest: iii, then the four of two letters, then the first three of one letter.
    expect(queryWords('a bb c dd e ff g hh iii j')).toEqual(['a', 'bb', 'c', 'dd', 'e', 'ff', 'hh', 'iii']);
  });

  it('reads q up to QUERY_LIMITS.length characters', () => {
    expect(QUERY_LIMITS.length).toBe(1_000);
    expect(queryWords(`${'x'.repeat(999)} lambda`)).toEqual(['x'.repeat(64)]);
    expect(queryWords(`${' '.repeat(993)}lambda`)).toEqual(['lambda']);
  });
});

describe('terms', () => {
  it('index a word by its first 1, 2, 4, 8, 16, 32 and 64 characters, as far as it reaches', () => {
    expect(TERM_LEVELS).toEqual([1, 2, 4, 8, 16, 32, 64]);
    const terms = postTerms({ title: 'serverless', description: 'go', keywords: null, meta_description: null });
    expect(Object.fromEntries(terms)).toEqual({ s: [], se: ['ser'], serv: ['serverl'], serverle: ['serverless'], g: [], go: [] });
  });

  it("keep under a term the post's words past it, each cut before the next level, once, the shortest first", () => {
    const terms = postTerms({ title: 'lamb lambda lambdas lamp', description: 'la lab', keywords: null, meta_description: null });
    expect(terms.get('l')).toEqual([]);
    expect(terms.get('la')).toEqual(['lab', 'lam']);
    expect(terms.get('lamb')).toEqual(['lambda', 'lambdas']);
    expect(terms.get('lamp')).toEqual([]);
    expect(terms.has('lambda')).toBe(false);
  });

  it('keep at most WORDS_BYTES of words under a term, the shortest first', () => {
    expect(WORDS_BYTES).toBe(128);
    // 36 words of 3 characters and 24 of 3 two-byte ones (Greek) past `qa`: more than 128 bytes.
    const thirds = [...'abcdefghijklmnopqrstuvwxyz0123456789', ...'αβγδεζηθικλμνξοπρστυφχψω'];
    const words = postTerms({ title: thirds.map((c) => `qa${c}z`).join(' '), description: 'x', keywords: null, meta_description: null }).get('qa')!;
    expect(Buffer.byteLength(words.join(' '))).toBeLessThanOrEqual(WORDS_BYTES);
    expect(words).toHaveLength(32);
    expect(words.slice(0, 3)).toEqual(['qa0', 'qa1', 'qa2']);
  });

  it('count code points and cut a word at 64', () => {
    const terms = postTerms({ title: 'a'.repeat(70), description: 'x', keywords: null, meta_description: null });
    expect([...terms.keys()].map((term) => term.length)).toEqual([1, 2, 4, 8, 16, 32, 64, 1]);
    expect(terms.get('a'.repeat(64))).toEqual([]);
    expect(terms.get('a'.repeat(32))).toEqual(['a'.repeat(63)]);
    // 63 characters of 4 bytes are more than a posting names.
    const wide = postTerms({ title: '𠀀'.repeat(70), description: 'x', keywords: null, meta_description: null });
    expect([...wide.keys()].map((term) => Array.from(term).length)).toEqual([1, 2, 4, 8, 16, 32, 64, 1]);
    expect(wide.get('𠀀'.repeat(32))).toEqual([]);
  });

  it('look a query word up by the longest level it reaches, with the word itself when it goes past it', () => {
    expect(queryTerm('l')).toEqual({ term: 'l' });
    expect(queryTerm('la')).toEqual({ term: 'la' });
    expect(queryTerm('lam')).toEqual({ term: 'la', within: 'lam' });
    expect(queryTerm('lamb')).toEqual({ term: 'lamb' });
    expect(queryTerm('lambda')).toEqual({ term: 'lamb', within: 'lambda' });
    expect(queryTerm('serverless')).toEqual({ term: 'serverle', within: 'serverless' });
    expect(queryTerm('a'.repeat(64))).toEqual({ term: 'a'.repeat(64) });
  });

  it.each([
    ['l', 'lamb', true],
    ['la', 'lamb', true],
    ['lam', 'lamb lambda', true],
    ['lam', 'lab', false],
    ['lamb', 'lamb', true],
    ['lambd', 'lambda', true],
    ['lambda', 'lambda', true],
    ['lambdas', 'lambda', false],
    ['lamp', 'lambda', false],
    ['serverless', 'serverless', true],
    ['serverlessness', 'serverless', false],
  ])('match %s to a post with "%s" exactly as matchesQuery does, by the posting of its term', (query, text, expected) => {
    const post = { title: text, description: '', keywords: null, meta_description: null };
    const looked = queryTerm(query);
    const terms = postTerms(post);
    const found = terms.has(looked.term) && postingMatches(looked, terms.get(looked.term));
    expect(found).toBe(expected);
    expect(matchesQuery(postWords(post), [query])).toBe(expected);
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
      text_version: 2,
      title: 'Hello World',
      description: 'Some **Markdown**.',
      keywords: 'Go, Rust',
      meta_description: 'About it',
    });
  });

  it('reads null texts, and neither the publish flag, the tags nor the featured flag (a list tells those when it reads the post)', () => {
    const read = indexedPost(postTextItem(post({ publish: false, is_featured: true, keywords: null })));
    expect(read).toMatchObject({ keywords: null, meta_description: null });
    expect(read).not.toHaveProperty('publish');
    expect(read).not.toHaveProperty('is_featured');
    expect(read).not.toHaveProperty('tag_slugs');
  });

  it('reads a missing text_version as 0', () => {
    const { id, slug, author, author_id, created, title, description } = postTextItem(post());
    expect(indexedPost({ id, slug, author, author_id, created, title, description })).toMatchObject({
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
  it('writes one posting per term of a new post, in the term partition at the post creation key, and deletes nothing', () => {
    const after = created();
    const change = postingChange(undefined, after);
    expect(change.deletes).toEqual([]);
    expect(change.puts.map((item) => `${item.PK} ${item.SK}`).sort()).toEqual(TERM_NAMES.map((term) => `TERM#${term} ${CREATED}#${ID}`).sort());
    for (const [term, words] of Object.entries(DEFAULT_TERMS)) {
      expect(change.puts).toContainEqual({
        ...postingKey(term),
        slug: 'hello-world-2',
        author: 'alice',
        author_id: 7,
        text_version: 1,
        ...(words ? { words } : {}),
        written_at: expect.any(Number),
      });
    }
  });

  it('writes the same postings for a draft: publication is no posting', () => {
    const keysOf = (puts: readonly Item[]) => puts.map(({ written_at: _at, ...rest }) => rest);
    expect(keysOf(postingChange(undefined, created({ publish: false })).puts)).toEqual(keysOf(postingChange(undefined, created()).puts));
  });

  it("writes nothing for the new slug of a rename (a later text version where none was): the old slug's removal does", () => {
    expect(postingChange(undefined, indexed(post({ slug: 'hello-world-3', title: 'Hello Lambda', text_version: 4 })))).toEqual({ puts: [], deletes: [] });
  });

  it('a rebuild (fullPostings) writes every term of a text, whatever its version', () => {
    const after = indexed(post({ text_version: 4 }));
    expect(
      fullPostings(after)
        .puts.map((item) => String(item.PK))
        .sort(),
    ).toEqual(TERM_NAMES.map((term) => postingKey(term).PK).sort());
    expect(fullPostings(after).puts).toHaveLength(TERM_NAMES.length);
    expect(fullPostings(after).deletes).toEqual([]);
  });

  it('writes each term once, however often the post has its words', () => {
    const { puts } = postingChange(undefined, created({ title: 'Go go', description: 'GO!', keywords: 'go', meta_description: 'Go.' }));
    expect(puts.map((item) => item.PK)).toEqual(['TERM#g', 'TERM#go']);
  });

  it('on a text edit, writes the terms added or whose words changed, at the new version, and deletes the dropped ones below it', () => {
    const before = indexed(post());
    const after = indexed(post({ title: 'Hello Lambda', modified: '2026-03-01T00:00:00.000000+00:00', text_version: 3 }));
    const change = postingChange(before, after);
    const put = (term: string, words?: string) => ({
      ...postingKey(term),
      slug: 'hello-world-2',
      author: 'alice',
      author_id: 7,
      text_version: 3,
      ...(words ? { words } : {}),
      written_at: expect.any(Number),
    });
    expect(change.puts).toEqual([put('l'), put('la', 'lam'), put('lamb', 'lambda')]);
    expect(change.deletes).toEqual([
      { key: postingKey('w'), below: 3 },
      { key: postingKey('wo'), below: 3 },
      { key: postingKey('worl'), below: 3 },
    ]);
  });

  it("rewrites a kept term's posting when the words past it changed", () => {
    const change = postingChange(indexed(post()), indexed(post({ title: 'Hello World Worlds', text_version: 3 })));
    expect(change.puts).toEqual([
      { ...postingKey('worl'), slug: 'hello-world-2', author: 'alice', author_id: 7, text_version: 3, words: 'world worlds', written_at: expect.any(Number) },
    ]);
    expect(change.deletes).toEqual([]);
  });

  it('on an edit that changes no word, writes and deletes nothing', () => {
    expect(postingChange(indexed(post()), indexed(post({ title: 'Hello, WORLD!', text_version: 3 })))).toEqual({ puts: [], deletes: [] });
  });

  it("on a change of slug alone (a rename in place), writes and deletes nothing: a posting's slug is where its post was", () => {
    expect(postingChange(indexed(post()), indexed(post({ slug: 'hello-world-3', text_version: 3 })))).toEqual({ puts: [], deletes: [] });
  });

  it.each<[string, Partial<PostRecord>]>([
    ['publish', { publish: false }],
    ['is_featured', { is_featured: true }],
    ['tag_slugs', { tags: ['Go'], tag_slugs: ['go'] }],
    ['tag_slugs order', { tags: ['Rust', 'Go'], tag_slugs: ['rust', 'go'] }],
  ])('on a change of %s alone, writes and deletes nothing (the postings do not carry it)', (_name, fields) => {
    expect(postingChange(indexed(post()), indexed(post({ ...fields, text_version: 3 })))).toEqual({ puts: [], deletes: [] });
  });

  it("on a removal, deletes every term's posting not newer than the removed text, and writes nothing", () => {
    const change = postingChange(indexed(post({ text_version: 4 })), undefined);
    expect(change.puts).toEqual([]);
    expect(change.deletes).toHaveLength(TERM_NAMES.length);
    expect(change.deletes).toEqual(expect.arrayContaining(TERM_NAMES.map((term) => ({ key: postingKey(term), below: 5 }))));
  });

  it('indexedTerms gives each term with its words as a posting stores them', () => {
    expect(Object.fromEntries(indexedTerms(created()))).toEqual(DEFAULT_TERMS);
  });
});

describe('postingFromItem', () => {
  it('reads back every posting a put writes: the post id from its key, its words as a list', () => {
    for (const put of postingChange(undefined, created()).puts) {
      expect(postingFromItem(put)).toEqual({
        post_id: ID,
        slug: 'hello-world-2',
        author: 'alice',
        author_id: 7,
        key: `${CREATED}#${ID}`,
        text_version: 1,
        words: put.words ? String(put.words).split(' ') : [],
      });
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
    ['a posting', keys.posting('hello', CREATED, ID)],
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
    expect(parsePostText(keys.posting('post', CREATED, ID))).toBeUndefined();
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
  it('deletes every posting of the old post (below its version + 1) and puts every term of the new one', () => {
    const before = indexedPost(postTextItem(post({ text_version: 5 })))!;
    const after = indexedPost(postTextItem(post({ id: 'other-id', text_version: 1 })))!;
    const change = postingChange(before, after);
    expect(change.deletes).toEqual([...indexedTerms(before).keys()].map((term) => ({ key: keys.posting(term, CREATED, before.id), below: 6 })));
    expect(change.puts.map((item) => item.PK)).toEqual([...indexedTerms(after).keys()].map((term) => keys.posting(term, CREATED, 'other-id').PK));
    expect(new Set(change.puts.map((item) => item.SK))).toEqual(new Set([`${CREATED}#other-id`]));
  });
});

import { describe, expect, it } from 'vitest';
import { keys, postLists } from '#lib/db/keys.ts';
import type { EventFilterPattern } from '../../infra/streams.ts';
import { TABLE_STREAM_CONSUMER } from '../../infra/streams.ts';
import { checkPattern, passesFilters } from '../../scripts/local/event-filter.ts';

// The local play of Lambda's event filtering (scripts/local/event-filter.ts): which stream records
// the stream poller delivers under the stack's patterns, and which patterns it refuses to play.

const S = (value: string) => ({ S: value });
const POST_ID = 'a0c1e2f3-0000-4000-8000-000000000001';

/** A DynamoDB stream record as Lambda sends it to the consumer, for an item under `key`. */
function record(key: Record<string, unknown>, eventName: 'INSERT' | 'MODIFY' | 'REMOVE' = 'INSERT') {
  const image = { ...key, title: S('Hello') };
  return {
    eventID: 'e1',
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      ApproximateCreationDateTime: 1_800_000_000,
      Keys: key,
      ...(eventName === 'INSERT' ? {} : { OldImage: image }),
      ...(eventName === 'REMOVE' ? {} : { NewImage: image }),
      SequenceNumber: '100',
      SizeBytes: 50,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/label',
  };
}

/** The record of the item under a table key (string PK and SK). */
const itemRecord = ({ PK, SK }: { PK: string; SK: string }, eventName?: 'INSERT' | 'MODIFY' | 'REMOVE') => record({ PK: S(PK), SK: S(SK) }, eventName);

const STACK = TABLE_STREAM_CONSUMER.filters;

describe('passesFilters without patterns', () => {
  it('passes every record, and anything else', () => {
    expect(passesFilters(itemRecord(keys.token('h')), [])).toBe(true);
    expect(passesFilters(itemRecord(keys.posting('hello', '2026-01-05T14:12:15.258987+00:00', POST_ID)), [])).toBe(true);
    expect(passesFilters({}, [])).toBe(true);
    expect(passesFilters(undefined, [])).toBe(true);
  });
});

describe("passesFilters with the stack's patterns", () => {
  it('has patterns to play', () => {
    expect(STACK.length).toBeGreaterThan(0);
  });

  it.each([
    ["a post's text", keys.post('hello-world')],
    ['a bare POST# text key', { PK: 'POST#', SK: 'POST' }],
  ])('delivers every change of %s', (_name, key) => {
    for (const kind of ['INSERT', 'MODIFY', 'REMOVE'] as const) expect(passesFilters(itemRecord(key, kind), STACK), kind).toBe(true);
  });

  it("delivers the removal of a post's mine entry (its deletion), not its writes", () => {
    const key = keys.postEntry(POST_ID, postLists.mine);
    expect(passesFilters(itemRecord(key, 'REMOVE'), STACK)).toBe(true);
    expect(passesFilters(itemRecord(key, 'INSERT'), STACK)).toBe(false);
    expect(passesFilters(itemRecord(key, 'MODIFY'), STACK)).toBe(false);
  });

  it("delivers a reported comment's head removed or made a placeholder's (its reports go), and nothing of any other comment", () => {
    const head = keys.commentHead('A'.repeat(22));
    const withImages = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', oldImage?: Record<string, unknown>, newImage?: Record<string, unknown>) => {
      const base = itemRecord(head, eventName);
      const rest = Object.fromEntries(Object.entries(base.dynamodb).filter(([name]) => name !== 'OldImage' && name !== 'NewImage'));
      return { ...base, dynamodb: { ...rest, ...(oldImage ? { OldImage: oldImage } : {}), ...(newImage ? { NewImage: newImage } : {}) } };
    };
    const reported = { PK: S(head.PK), SK: S(head.SK), status: S('published'), reported: { BOOL: true } };
    const unreported = { PK: S(head.PK), SK: S(head.SK), status: S('published') };
    expect(passesFilters(withImages('REMOVE', reported), STACK)).toBe(true);
    expect(passesFilters(withImages('MODIFY', reported, { ...reported, status: S('deleted') }), STACK)).toBe(true);
    expect(passesFilters(withImages('REMOVE', unreported), STACK)).toBe(false);
    expect(passesFilters(withImages('MODIFY', unreported, { ...unreported, status: S('deleted') }), STACK)).toBe(false);
    expect(passesFilters(withImages('MODIFY', reported, { ...reported, status: S('hidden') }), STACK)).toBe(false);
    expect(passesFilters(withImages('INSERT', undefined, reported), STACK)).toBe(false);
    expect(passesFilters(withImages('REMOVE', { ...reported, reported: { BOOL: false } }), STACK)).toBe(false);
  });

  it.each([
    ["a post's stats", keys.postStats('hello-world')],
    ["a post's summary", keys.postSummary('hello-world')],
    ["a post's tagged entry", keys.postEntry(POST_ID, postLists.tagged('go'))],
    ["a post's public list entry", keys.postEntry(POST_ID, postLists.posts)],
  ])('drops every change of %s (no reaction wants it)', (_name, key) => {
    for (const kind of ['INSERT', 'MODIFY', 'REMOVE'] as const) expect(passesFilters(itemRecord(key, kind), STACK), kind).toBe(false);
  });

  it.each([
    ['a posting', keys.posting('hello', '2026-01-05T14:12:15.258987+00:00', POST_ID)],
    ['a posting of the word "post"', keys.posting('post', '2026-01-05T14:12:15.258987+00:00', POST_ID)],
    ['a token', keys.token('abc')],
    ['a user profile', keys.userProfile('alice')],
    ['user credentials', keys.userCredentials('alice')],
    ['a visit', keys.visit(POST_ID, 7)],
    ['a tag', keys.tag('go')],
    ['a counter', keys.userIdCounter()],
    ['a lower-case post key', { PK: 'post#hello', SK: 'POST' }],
    ['a key that has POST# later on', { PK: 'XPOST#hello', SK: 'POST' }],
    ['a key that is a prefix of POST#', { PK: 'POST', SK: 'POST' }],
  ])('drops %s', (_name, key) => {
    for (const kind of ['INSERT', 'MODIFY', 'REMOVE'] as const) expect(passesFilters(itemRecord(key, kind), STACK), kind).toBe(false);
  });

  it('drops a record whose PK is not a string attribute', () => {
    expect(passesFilters(record({ PK: { N: '1' }, SK: S('POST') }), STACK)).toBe(false);
    expect(passesFilters(record({ PK: { B: 'UE9TVCN4' }, SK: S('POST') }), STACK)).toBe(false);
    expect(passesFilters(record({ PK: { N: 'POST#x' }, SK: S('POST') }), STACK)).toBe(false);
  });

  it('drops a record without keys, or that is not a record', () => {
    expect(passesFilters(record({ SK: S('POST') }), STACK)).toBe(false);
    expect(passesFilters({ eventName: 'INSERT' }, STACK)).toBe(false);
    expect(passesFilters({ eventName: 'INSERT', dynamodb: { Keys: { PK: 'POST#x' } } }, STACK)).toBe(false);
    expect(passesFilters(null, STACK)).toBe(false);
    expect(passesFilters('POST#x', STACK)).toBe(false);
  });

  it('reads the key from dynamodb.Keys, not from the images', () => {
    const token = itemRecord(keys.token('abc'), 'MODIFY');
    const event = { ...token, dynamodb: { ...token.dynamodb, NewImage: { PK: S('POST#x'), SK: S('POST'), title: S('Hello') } } };
    expect(passesFilters(event, STACK)).toBe(false);
  });
});

describe('passesFilters with other patterns', () => {
  it('matches an exact string only whole', () => {
    const patterns: EventFilterPattern[] = [{ eventName: ['REMOVE'] }];
    expect(passesFilters(itemRecord(keys.token('a'), 'REMOVE'), patterns)).toBe(true);
    expect(passesFilters(itemRecord(keys.token('a'), 'INSERT'), patterns)).toBe(false);
    expect(passesFilters({ eventName: 'REMOVED' }, patterns)).toBe(false);
    expect(passesFilters({ eventName: 'remove' }, patterns)).toBe(false);
  });

  it('matches a field when it matches one rule of its list', () => {
    const patterns: EventFilterPattern[] = [{ eventName: ['INSERT', 'MODIFY'] }];
    expect(passesFilters(itemRecord(keys.token('a'), 'INSERT'), patterns)).toBe(true);
    expect(passesFilters(itemRecord(keys.token('a'), 'MODIFY'), patterns)).toBe(true);
    expect(passesFilters(itemRecord(keys.token('a'), 'REMOVE'), patterns)).toBe(false);
  });

  it('matches an exact number as a number, not as its text', () => {
    const patterns: EventFilterPattern[] = [{ dynamodb: { SizeBytes: [50] } }];
    expect(passesFilters(itemRecord(keys.token('a')), patterns)).toBe(true);
    expect(passesFilters({ dynamodb: { SizeBytes: 51 } }, patterns)).toBe(false);
    expect(passesFilters({ dynamodb: { SizeBytes: '50' } }, patterns)).toBe(false);
  });

  it('matches an exact boolean as a boolean, not as its text', () => {
    const boolean = { dynamodb: { NewImage: { reported: { BOOL: [true] } } } };
    expect(passesFilters({ dynamodb: { NewImage: { reported: { BOOL: true } } } }, [boolean])).toBe(true);
    expect(passesFilters({ dynamodb: { NewImage: { reported: { BOOL: false } } } }, [boolean])).toBe(false);
    expect(passesFilters({ dynamodb: { NewImage: { reported: { BOOL: 'true' } } } }, [boolean])).toBe(false);
  });

  it('matches a prefix on strings only', () => {
    const patterns: EventFilterPattern[] = [{ dynamodb: { SizeBytes: [{ prefix: '5' }] } }];
    expect(passesFilters({ dynamodb: { SizeBytes: '50' } }, patterns)).toBe(true);
    expect(passesFilters(itemRecord(keys.token('a')), patterns)).toBe(false);
  });

  it('needs every field of a pattern to match (AND)', () => {
    const patterns: EventFilterPattern[] = [{ eventName: ['REMOVE'], dynamodb: { Keys: { PK: { S: [{ prefix: 'ENTRY#' }] } } } }];
    expect(passesFilters(itemRecord(keys.postEntry(POST_ID, postLists.mine), 'REMOVE'), patterns)).toBe(true);
    expect(passesFilters(itemRecord(keys.postEntry(POST_ID, postLists.mine), 'INSERT'), patterns)).toBe(false);
    expect(passesFilters(itemRecord(keys.post('x'), 'REMOVE'), patterns)).toBe(false);
  });

  it('delivers a record that matches any one of several patterns (OR)', () => {
    const patterns: EventFilterPattern[] = [{ dynamodb: { Keys: { PK: { S: ['USER#alice'] } } } }, { dynamodb: { Keys: { SK: { S: [{ prefix: 'TAG' }] } } } }];
    expect(passesFilters(itemRecord(keys.userProfile('alice')), patterns)).toBe(true);
    expect(passesFilters(itemRecord(keys.tag('go')), patterns)).toBe(true);
    expect(passesFilters(itemRecord(keys.userProfile('bob')), patterns)).toBe(false);
    expect(passesFilters(itemRecord(keys.post('x')), patterns)).toBe(false);
  });

  it('drops a record that lacks a field the pattern names', () => {
    expect(passesFilters(itemRecord(keys.post('x')), [{ dynamodb: { NewImage: { slug: { S: ['x'] } } } }])).toBe(false);
    expect(passesFilters(itemRecord(keys.post('x')), [{ userIdentity: { type: ['Service'] } }])).toBe(false);
  });
});

describe('checkPattern', () => {
  it("accepts the stack's patterns", () => {
    for (const pattern of STACK) expect(() => checkPattern(pattern)).not.toThrow();
  });

  it('accepts exact strings, exact numbers and prefixes, at any depth', () => {
    expect(() => checkPattern({ eventName: ['INSERT', 'MODIFY'] })).not.toThrow();
    expect(() => checkPattern({ dynamodb: { SizeBytes: [50, 51] } })).not.toThrow();
    expect(() => checkPattern({ dynamodb: { Keys: { PK: { S: [{ prefix: 'A' }, 'B', 3] } } } })).not.toThrow();
  });

  it.each<[string, unknown]>([
    ['anything-but', { dynamodb: { Keys: { PK: { S: [{ 'anything-but': ['x'] }] } } } }],
    ['numeric', { dynamodb: { SizeBytes: [{ numeric: ['>', 1] }] } }],
    ['exists', { dynamodb: { NewImage: { slug: [{ exists: true }] } } }],
    ['suffix', { dynamodb: { Keys: { PK: { S: [{ suffix: '#x' }] } } } }],
    ['equals-ignore-case', { eventName: [{ 'equals-ignore-case': 'insert' }] }],
    ['a prefix with another key beside it', { eventName: [{ prefix: 'IN', suffix: 'T' }] }],
    ['a prefix that is not a string', { eventName: [{ prefix: 1 }] }],
    ['null', { eventName: [null] }],
    ['a list in a list', { eventName: [['INSERT']] }],
    ['an unplayable rule beside a playable one', { eventName: ['INSERT', { 'anything-but': ['x'] }] }],
    ['an empty list', { eventName: [] }],
    ['an empty list deep down', { dynamodb: { Keys: { PK: { S: [] } } } }],
  ])('throws for a rule not played locally: %s', (_name, pattern) => {
    expect(() => checkPattern(pattern)).toThrow(/not played locally/);
  });

  it('throws for a leaf that is neither an object nor a list', () => {
    expect(() => checkPattern({ eventName: 'INSERT' })).toThrow(/pattern\.eventName/);
    expect(() => checkPattern({ dynamodb: { SizeBytes: 50 } })).toThrow(/pattern\.dynamodb\.SizeBytes/);
    expect(() => checkPattern({ eventName: null })).toThrow();
    expect(() => checkPattern(null)).toThrow();
  });

  it('names where the rule is', () => {
    expect(() => checkPattern({ dynamodb: { Keys: { PK: { S: [{ numeric: ['>', 1] }] } } } })).toThrow('pattern.dynamodb.Keys.PK.S');
  });
});

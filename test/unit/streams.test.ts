import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keys, parsePostEntry, postLists } from '#lib/db/keys.ts';
import { refreshLogLevel } from '#lib/log.ts';
import { deletedPostId } from '#lib/reactions/post-removal.ts';
import { processRecords, type Reaction } from '#lib/streams/consumer.ts';
import { batchLagMs, tableChange } from '#lib/streams/records.ts';

// The stream consumer's logic without a database: which records mean a post's deletion, and how a
// batch is dispatched to reactions (in order, stopping at the first failure).

const S = (value: string) => ({ S: value });

function record(
  sequence: string,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  key: { PK: string; SK: string },
  extra: Record<string, unknown> = {},
): DynamoDBRecord {
  const image = { PK: S(key.PK), SK: S(key.SK), ...Object.fromEntries(Object.entries(extra).map(([name, value]) => [name, S(String(value))])) };
  return {
    eventID: `e${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      ApproximateCreationDateTime: 1_800_000_000 + Number(sequence),
      Keys: { PK: S(key.PK), SK: S(key.SK) },
      ...(eventName === 'INSERT' ? {} : { OldImage: image }),
      ...(eventName === 'REMOVE' ? {} : { NewImage: image }),
      SequenceNumber: sequence,
      SizeBytes: 50,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/label',
  };
}

describe('parsePostEntry', () => {
  it("reads a post's list entry key, and nothing else", () => {
    expect(parsePostEntry(keys.postEntry('p1', postLists.mine))).toEqual({ postId: 'p1', list: 'MINE' });
    expect(parsePostEntry(keys.postEntry('p1', postLists.tagged('lambda')))).toEqual({ postId: 'p1', list: 'TAGGED#lambda' });
    expect(parsePostEntry(keys.visit('p1', 3))).toBeUndefined();
    expect(parsePostEntry(keys.post('p1'))).toBeUndefined();
    expect(parsePostEntry({ PK: keys.postEntry('', postLists.mine).PK, SK: 'MINE' })).toBeUndefined();
    expect(parsePostEntry({ PK: 7, SK: 'MINE' })).toBeUndefined();
  });
});

describe("a post's deletion, as the stream shows it", () => {
  const mine = keys.postEntry('p1', postLists.mine);
  it.each([
    ['the removal of its mine entry', record('1', 'REMOVE', mine, { post_id: 'p1' }), 'p1'],
    ['the removal of another list entry', record('2', 'REMOVE', keys.postEntry('p1', postLists.posts)), undefined],
    ['a change of its mine entry', record('3', 'MODIFY', mine), undefined],
    ['its mine entry written', record('4', 'INSERT', mine), undefined],
    ['the removal of a visit', record('5', 'REMOVE', keys.visit('p1', 2)), undefined],
    ['the removal of its text item', record('6', 'REMOVE', keys.post('slug')), undefined],
  ])('%s', (_name, change, expected) => {
    expect(deletedPostId(tableChange(change))).toBe(expected);
  });
});

describe('tableChange and batchLagMs', () => {
  it('reads the keys and images into plain values', () => {
    expect(tableChange(record('9', 'REMOVE', { PK: 'ENTRY#p', SK: 'MINE' }, { post_id: 'p' }))).toEqual({
      kind: 'REMOVE',
      keys: { PK: 'ENTRY#p', SK: 'MINE' },
      oldImage: { PK: 'ENTRY#p', SK: 'MINE', post_id: 'p' },
      sequenceNumber: '9',
    });
    expect(() => tableChange({ eventName: 'REMOVE', dynamodb: { SequenceNumber: '1' } })).toThrow('Not a DynamoDB stream record');
  });

  it("is now minus the newest record's creation (epoch seconds)", () => {
    const records = [record('1', 'INSERT', { PK: 'a', SK: 'b' }), record('3', 'INSERT', { PK: 'a', SK: 'b' })];
    expect(batchLagMs(records, (1_800_000_003 + 2) * 1000)).toBe(2000);
    expect(batchLagMs([])).toBeUndefined();
  });
});

describe('processRecords', () => {
  beforeAll(() => {
    vi.stubEnv('LOG_LEVEL', 'silent'); // the failures below are expected
    refreshLogLevel();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    refreshLogLevel();
  });

  const seen: string[] = [];
  const recorder: Reaction<string> = {
    name: 'recorder',
    select: (change) => (change.kind === 'REMOVE' ? change.sequenceNumber : undefined),
    apply: async (sequence) => {
      if (sequence === '3') throw new Error('boom');
      seen.push(sequence);
    },
  };
  const key = { PK: 'x', SK: 'y' };

  it('applies each reaction to the records it selects, in order', async () => {
    seen.length = 0;
    const outcome = await processRecords([record('1', 'REMOVE', key), record('2', 'INSERT', key), record('4', 'REMOVE', key)], [recorder]);
    expect(outcome).toEqual({ response: { batchItemFailures: [] }, processed: 3, reactions: { recorder: 2 } });
    expect(seen).toEqual(['1', '4']);
  });

  it('stops at the first record that fails and names it alone', async () => {
    seen.length = 0;
    const outcome = await processRecords([record('1', 'REMOVE', key), record('3', 'REMOVE', key), record('4', 'REMOVE', key)], [recorder]);
    expect(outcome).toEqual({ response: { batchItemFailures: [{ itemIdentifier: '3' }] }, processed: 1, reactions: { recorder: 1 } });
    expect(seen).toEqual(['1']);
  });

  it('handles different items at once, each in its order, and names the earliest failure', async () => {
    const order: string[] = [];
    const slow: Reaction<string> = {
      name: 'slow',
      select: (change) => change.sequenceNumber,
      apply: async (sequence) => {
        // The first item's records take longer: the second item's are handled meanwhile.
        await new Promise((done) => setTimeout(done, sequence.startsWith('a') ? 20 : 1));
        if (sequence === 'b3') throw new Error('boom');
        order.push(sequence);
      },
    };
    const other = { PK: 'x', SK: 'z' };
    const outcome = await processRecords(
      [
        record('a1', 'INSERT', key),
        record('b1', 'INSERT', other),
        record('a2', 'MODIFY', key),
        record('b3', 'MODIFY', other),
        record('b4', 'MODIFY', other),
        record('a5', 'REMOVE', key),
      ],
      [slow],
    );
    // b4 waits behind its item's failed b3; the other item goes on to its end.
    expect(order).toEqual(['b1', 'a1', 'a2', 'a5']);
    expect(outcome).toEqual({ response: { batchItemFailures: [{ itemIdentifier: 'b3' }] }, processed: 3, reactions: { slow: 4 } });
  });
});

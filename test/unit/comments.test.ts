import { describe, expect, it } from 'vitest';
import { creationTime, isEntityId, newCommentId } from '#lib/comments/comment.ts';
import { parseCommentCreate, parseCommentUpdate } from '#lib/comments/input.ts';
import { commentRateWrites } from '#lib/comments/rate-limit.ts';
import { afterThread, isThreadSortKey, keys, listSortKeys, parseCommentHead, parseReportTarget, reportTargets, reportsOfTarget } from '#lib/db/keys.ts';
import { Throttled, ValidationError } from '#lib/errors.ts';
import { deletedReportedComment } from '#lib/reactions/comment-removal.ts';
import { parseReport, parseResolve } from '#lib/reports/input.ts';
import type { TableChange } from '#lib/streams/records.ts';
import { isoTimestamp } from '#lib/time.ts';
import { useTableName } from './records.ts';

// The comments' and reports' pure parts (docs/data-model.md, Comments, reports and moderators):
// the order of their sort keys, the bodies' checks with DRF's messages, the rate limit's writes
// and what the stream consumer recognizes, on values made here (no database).

useTableName('unit-comments');

const json = (data: Record<string, unknown>) => ({ data, form: false });
const at = (micros: number) => isoTimestamp(micros);
const BASE = 1_800_000_000_000_000;

describe('sort keys of a post threads partition', () => {
  const thread = (micros: number) => listSortKeys.comment(at(micros), newCommentId());
  const preview = (threadKey: string, micros: number) => keys.replyPreview('p', threadKey, listSortKeys.comment(at(micros), newCommentId())).SK;

  it('puts the copies of a thread s first replies right after it, before the next thread, whatever their times', () => {
    const first = thread(BASE);
    const second = thread(BASE + 1);
    const copies = [preview(first, BASE + 5), preview(first, BASE + 10_000_000_000)];
    const sorted = [second, ...copies, first].sort();
    expect(sorted).toEqual([first, ...copies.sort(), second]);
    for (const copy of copies) expect(copy < afterThread(first) && copy > first).toBe(true);
    expect(second > afterThread(first)).toBe(true);
  });

  it('tells a thread from a copy of a reply', () => {
    const first = thread(BASE);
    expect(isThreadSortKey(first)).toBe(true);
    expect(isThreadSortKey(preview(first, BASE + 1))).toBe(false);
  });

  it('makes a new comment sort after the newest one, even when the clock is behind it', () => {
    const ahead = listSortKeys.comment(isoTimestamp(Date.now() * 1000 + 60_000_000), newCommentId());
    const created = creationTime(ahead);
    expect(listSortKeys.comment(created, newCommentId()) > ahead).toBe(true);
    expect(creationTime(null)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
  });
});

describe('ids', () => {
  it('are 22 characters of the URL-safe alphabet, and nothing else can be one', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newCommentId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(isEntityId(id), id).toBe(true);
    for (const value of [undefined, '', 'x', 'A'.repeat(21), 'A'.repeat(23), `${'A'.repeat(21)}.`, `${'A'.repeat(21)}#`, `${'A'.repeat(21)}/`]) {
      expect(isEntityId(value), String(value)).toBe(false);
    }
  });

  it("a comment head's key is recognized by the stream consumer; any other key is not", () => {
    const id = newCommentId();
    expect(parseCommentHead(keys.commentHead(id))).toBe(id);
    expect(parseCommentHead(keys.commentHead(''))).toBeUndefined();
    expect(parseCommentHead({ PK: `COMMENT#${id}`, SK: 'POST' })).toBeUndefined();
    expect(parseCommentHead(keys.reportHead(id))).toBeUndefined();
  });
});

describe('a new comment s body and parent', () => {
  it('trims the body and takes 1 to 10,000 code points', () => {
    expect(parseCommentCreate(json({ body: '  Hi  ' })).body).toBe('Hi');
    expect(parseCommentCreate(json({ body: '🎉'.repeat(10_000) })).body).toBe('🎉'.repeat(10_000));
    expect(parseCommentCreate(json({})).body).toEqual(['This field is required.']);
    expect(parseCommentCreate(json({ body: ' \n ' })).body).toEqual(['This field may not be blank.']);
    expect(parseCommentCreate(json({ body: null })).body).toEqual(['This field may not be null.']);
    expect(parseCommentCreate(json({ body: ['a'] })).body).toEqual(['Not a valid string.']);
    for (const body of ['x'.repeat(10_001), '🎉'.repeat(10_001)]) {
      expect(parseCommentCreate(json({ body })).body).toEqual(['Ensure this field has no more than 10000 characters.']);
    }
  });

  it('reads parent: absent, null or blank is a thread; an id is read; anything else names no comment', () => {
    const id = newCommentId();
    for (const parent of [undefined, null, '', '   ']) expect(parseCommentCreate(json({ body: 'x', parent })).parent).toBeNull();
    expect(parseCommentCreate(json({ body: 'x', parent: ` ${id} ` })).parent).toBe(id);
    for (const parent of [1, 2 ** 60, [id], { id }, true, '9'.repeat(100_000), `${id}x`]) {
      expect(parseCommentCreate(json({ body: 'x', parent })).parent, JSON.stringify(parent).slice(0, 40)).toBe('invalid');
    }
  });
});

describe('an edit', () => {
  it('says which fields it names, valid or not, and keeps their errors for their turn', () => {
    expect(parseCommentUpdate(json({}))).toMatchObject({ sends: { body: false, status: false }, errors: {} });
    expect(parseCommentUpdate(json({ body: ' New ', modified: 'm' }))).toMatchObject({ body: 'New', modified: 'm', sends: { body: true, status: false } });
    expect(parseCommentUpdate(json({ status: 'hidden' }))).toMatchObject({ status: 'hidden', errors: {} });
    expect(parseCommentUpdate(json({ status: 'deleted' })).errors).toEqual({ status: ['"deleted" is not a valid choice.'] });
    expect(parseCommentUpdate(json({ status: null })).errors).toEqual({ status: ['This field may not be null.'] });
    expect(parseCommentUpdate(json({ body: '' })).errors).toEqual({ body: ['This field may not be blank.'] });
    expect(parseCommentUpdate(json({ hidden_by: 'moderator', author: 'x' }))).toMatchObject({ sends: { body: false, status: false }, errors: {} });
  });
});

describe('a report and a resolve', () => {
  it('takes a reason of the four and an optional note of at most 500 (blank is none)', () => {
    expect(parseReport(json({ reason: 'off-topic', note: '  ' }))).toEqual({ reason: 'off-topic', note: null });
    expect(parseReport(json({ reason: 'other', note: 'n'.repeat(500) }))).toEqual({ reason: 'other', note: 'n'.repeat(500) });
    const errorsOf = (data: Record<string, unknown>) => (parseReport(json(data)) as ValidationError).fields;
    expect(errorsOf({})).toEqual({ reason: ['This field is required.'] });
    expect(errorsOf({ reason: 'Spam' })).toEqual({ reason: ['"Spam" is not a valid choice.'] });
    expect(errorsOf({ reason: 'spam', note: 'n'.repeat(501) })).toEqual({ note: ['Ensure this field has no more than 500 characters.'] });
  });

  it('takes an action, dismiss or remove', () => {
    expect(parseResolve(json({ action: 'dismiss' }))).toBe('dismiss');
    expect((parseResolve(json({})) as ValidationError).fields).toEqual({ action: ['This field is required.'] });
    expect((parseResolve(json({ action: 'ban' })) as ValidationError).fields).toEqual({ action: ['"ban" is not a valid choice.'] });
  });

  it("names a comment's reports by their target, apart from the post's", () => {
    const id = newCommentId();
    expect(parseReportTarget(reportTargets.comment(id))).toEqual({ commentId: id });
    expect(parseReportTarget(reportTargets.post)).toEqual({});
    const range = reportsOfTarget(reportTargets.comment(id));
    const report = keys.report('p', reportTargets.comment(id), 7).SK;
    expect(report > range.from && report < range.to).toBe(true);
    expect(keys.report('p', reportTargets.post, 7).SK > range.to || keys.report('p', reportTargets.post, 7).SK < range.from).toBe(true);
  });
});

describe('the rate limit of comments', () => {
  const caller = { userId: 7, username: 'alice', token: 'x' } as Parameters<typeof commentRateWrites>[0];

  it("counts in the create's transaction, on condition that each window's count is under its limit, answering 429 with the window's rest", () => {
    const now = 1_800_000_030; // 30 s into a minute
    const [day, minute] = commentRateWrites(caller, now);
    expect(minute!.write.Update!.ConditionExpression).toBe('attribute_not_exists(#count) OR #count < :max');
    expect(minute!.write.Update!.ExpressionAttributeValues![':max']).toBe(10);
    expect(day!.write.Update!.ExpressionAttributeValues![':max']).toBe(100);
    const refused = minute!.onConditionFailed!() as Throttled;
    expect(refused).toBeInstanceOf(Throttled);
    expect(refused.message).toBe('Request was throttled. Expected available in 30 seconds.');
    expect((day!.onConditionFailed!() as Throttled).waitSeconds).toBe(86_400 - (now % 86_400));
  });

  it('counts in windows of the user alone: another user and another window are other counters', () => {
    const now = 1_800_000_000;
    const key = (writes: ReturnType<typeof commentRateWrites>) => JSON.stringify(writes[1]!.write.Update!.Key);
    expect(key(commentRateWrites(caller, now))).toBe(key(commentRateWrites(caller, now + 59)));
    expect(key(commentRateWrites(caller, now))).not.toBe(key(commentRateWrites(caller, now + 60)));
    expect(key(commentRateWrites(caller, now))).not.toBe(key(commentRateWrites({ ...caller, userId: 8 }, now)));
  });
});

describe("the stream consumer's comment removal", () => {
  const change = (kind: 'MODIFY' | 'REMOVE', image: Record<string, unknown>): TableChange => ({
    kind,
    keys: { ...keys.commentHead('c1') },
    ...(kind === 'REMOVE' ? { oldImage: image } : { oldImage: { ...image, status: 'published' }, newImage: image }),
    sequenceNumber: '1',
  });

  it('removes the reports of a reported comment that went, or became a placeholder; of no other', () => {
    expect(deletedReportedComment(change('REMOVE', { post_id: 'p1', reported: true }))).toEqual({ postId: 'p1', commentId: 'c1' });
    expect(deletedReportedComment(change('MODIFY', { post_id: 'p1', reported: true, status: 'deleted' }))).toEqual({ postId: 'p1', commentId: 'c1' });
    expect(deletedReportedComment(change('REMOVE', { post_id: 'p1' }))).toBeUndefined();
    expect(deletedReportedComment(change('MODIFY', { post_id: 'p1', reported: true, status: 'hidden' }))).toBeUndefined();
    expect(deletedReportedComment({ kind: 'REMOVE', keys: { ...keys.reportHead('c1') }, oldImage: { reported: true }, sequenceNumber: '1' })).toBeUndefined();
  });
});

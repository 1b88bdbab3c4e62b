import { describe, expect, it } from 'vitest';
import { keys, postLists } from '#lib/db/keys.ts';
import { BACKLOG_MARGIN_MS, BACKLOG_VALID_MS, backlogFromItem, unindexedSince } from '#lib/search/backlog.ts';
import { changeTimes } from '#lib/search/indexing.ts';
import { DRAFT_MARK } from '#lib/search/postings.ts';
import type { TableChange } from '#lib/streams/records.ts';

// The search index's backlog statement (lib/search/backlog.ts) without a database: what the
// consumer dates a batch by, and from when a search reads past its fresh window.

const NOW = Date.parse('2026-11-27T12:00:00Z');
const FRESH_FROM = NOW - 10_000;

describe('unindexedSince', () => {
  it('is undefined without a statement', () => {
    expect(unindexedSince(undefined, FRESH_FROM, NOW)).toBeUndefined();
  });

  it('reaches back to the stated change, less the margin, when that is before the fresh window', () => {
    expect(unindexedSince({ since: NOW - 40_000, at: NOW - 1_000 }, FRESH_FROM, NOW)).toBe(NOW - 40_000 - BACKLOG_MARGIN_MS);
  });

  it('is undefined when the stated change is within the fresh window (it reads those anyway)', () => {
    expect(unindexedSince({ since: NOW - 5_000, at: NOW - 1_000 }, FRESH_FROM, NOW)).toBeUndefined();
  });

  it('trusts a statement for BACKLOG_VALID_MS after it was made, not longer', () => {
    expect(unindexedSince({ since: NOW - 60_000, at: NOW - BACKLOG_VALID_MS }, FRESH_FROM, NOW)).toBe(NOW - 60_000 - BACKLOG_MARGIN_MS);
    expect(unindexedSince({ since: NOW - 60_000, at: NOW - BACKLOG_VALID_MS - 1 }, FRESH_FROM, NOW)).toBeUndefined();
  });
});

describe('backlogFromItem', () => {
  it('reads the statement, and nothing from a draft mark beside it', () => {
    expect(backlogFromItem({ ...keys.indexBacklog(), since: 5, at: 7 })).toEqual({ since: 5, at: 7 });
    expect(backlogFromItem({ ...keys.posting(DRAFT_MARK, 'id'), post_id: 'id' })).toBeUndefined();
  });

  it("shares the index's own partition with the drafts' marks: one Query reads both", () => {
    expect(keys.indexBacklog().PK).toBe(keys.indexMarks);
    expect(keys.posting(DRAFT_MARK, 'id').PK).toBe(keys.indexMarks);
  });
});

describe('changeTimes', () => {
  const at = (iso: string) => Date.parse(iso);
  const text = (slug: string, modified: string) => ({ PK: `POST#${slug}`, SK: 'POST', modified });
  const change = (
    kind: TableChange['kind'],
    key: { PK: string; SK: string },
    oldImage?: Record<string, unknown>,
    newImage?: Record<string, unknown>,
  ): TableChange => ({
    kind,
    keys: key,
    ...(oldImage ? { oldImage } : {}),
    ...(newImage ? { newImage } : {}),
    sequenceNumber: '1',
  });

  it('dates a written text by its modified time (a create, an edit)', () => {
    const created = '2026-11-27T11:59:30.123456+00:00';
    const edited = '2026-11-27T11:59:50.000000+00:00';
    expect(
      changeTimes([change('INSERT', keys.post('a'), undefined, text('a', created)), change('MODIFY', keys.post('b'), text('b', created), text('b', edited))]),
    ).toEqual([at(created), at(edited)]);
  });

  it('leaves out a text the write did not date (featuring), a removal, and every other item', () => {
    const old = '2026-11-27T10:00:00.000000+00:00';
    expect(
      changeTimes([
        change('MODIFY', keys.post('a'), text('a', old), { ...text('a', old), is_featured: true }),
        change('REMOVE', keys.post('b'), text('b', old)),
        change('INSERT', keys.postStats('c'), undefined, { ...keys.postStats('c'), modified: old }),
        change('INSERT', keys.postEntry('id', postLists.mine), undefined, { modified: old }),
      ]),
    ).toEqual([]);
  });
});

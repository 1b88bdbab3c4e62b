import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { keys, listPartitions } from '../db/keys.ts';
import { queryPage, type ListQuery, type Page } from '../db/query.ts';
import { transactWrite, tx } from '../db/transact.ts';
import type { IndexName } from '../db/table.ts';
import { tableName } from '../config.ts';
import { NotFound } from '../errors.ts';
import { withRetries } from '../retry.ts';
import type { PageRequest } from '../pagination.ts';
import type { Caller } from '../tokens.ts';
import type { ReadAsCaller } from '../auth.ts';
import type { BatchResult } from '../db/batch.ts';
import { isoTimestamp } from '../time.ts';
import { couldBeSlug } from '../slug.ts';
import type { PostSort } from './list-params.ts';
import { isVisibleTo, postItem, postRecord, type PostRecord } from './record.ts';

/** The post stored under `slug` in a batch read that included its key. */
export function storedPost(read: BatchResult, slug: string): PostRecord | undefined {
  const item = read.get(keys.post(slug));
  return item ? postRecord(item) : undefined;
}

export async function getPost(slug: string): Promise<PostRecord | undefined> {
  if (!couldBeSlug(slug)) return undefined;
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.post(slug), ConsistentRead: true }));
  return Item ? postRecord(Item) : undefined;
}

/** A post the caller may see (published, or their own draft); 404 otherwise. */
export function visiblePost(post: PostRecord | undefined, caller: Caller): PostRecord {
  if (!post || !isVisibleTo(post, caller.username)) throw new NotFound();
  return post;
}

class AlreadyVisited extends Error {}

/**
 * Reads a post for its detail page and records the caller's visit: the first view by a user adds
 * one to total_visitors, in the same transaction that stores the (post, user) visit item. A HEAD
 * request reads without recording (`recordVisit: false`).
 */
export function viewPost(readAsCaller: ReadAsCaller, slug: string, { recordVisit = true } = {}): Promise<PostRecord> {
  if (!couldBeSlug(slug)) return Promise.reject(new NotFound());
  return withRetries(async () => {
    const { caller: who, read } = await readAsCaller([keys.post(slug)]);
    const post = visiblePost(storedPost(read, slug), who);
    if (!recordVisit) return post;
    const visited = { ...post, total_visitors: post.total_visitors + 1, version: post.version + 1 };
    try {
      await transactWrite([
        {
          write: tx.put({ ...keys.visit(post.id, who.userId), post_id: post.id, user_id: who.userId, created: isoTimestamp() }, { expression: 'attribute_not_exists(PK)' }),
          onConditionFailed: () => new AlreadyVisited(),
        },
        { write: tx.put(postItem(visited), { expression: 'version = :v', values: { ':v': post.version } }) },
      ]);
      return visited;
    } catch (error) {
      if (error instanceof AlreadyVisited) return post;
      throw error;
    }
  });
}

const SORT_INDEXES: Record<PostSort, { index: IndexName; partition: string }> = {
  newest: { index: 'lists', partition: listPartitions.posts },
  featured: { index: 'featured', partition: listPartitions.featured },
  views: { index: 'views', partition: listPartitions.posts },
  votes: { index: 'votes', partition: listPartitions.posts },
  active: { index: 'active', partition: listPartitions.posts },
};

/** Published posts in the sort's order; `search` matches title, description, keywords, meta_description. */
export function listPosts(request: PageRequest, sort: PostSort, search?: string): Promise<Page> {
  // NUL separates the fields inside the search text, so it must not reach the filter (it would
  // match across fields); as DRF's SearchFilter, null characters are stripped from the terms.
  const term = search?.replaceAll('\u0000', '');
  const list: ListQuery = {
    ...SORT_INDEXES[sort],
    ...(term
      ? { filter: { expression: 'contains(#search, :q)', names: { '#search': 'search' }, values: { ':q': term.toLowerCase() } } }
      : {}),
  };
  return queryPage(list, request);
}

export function newPostId(): string {
  return randomUUID();
}

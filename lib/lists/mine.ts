import { tokenFromHeader } from '#lib/auth/authenticate.ts';
import { tokenUserHint, type Caller } from '#lib/auth/tokens.ts';
import { batchGet, type BatchResult } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import type { ListedPage } from '#lib/pager.ts';
import { userPostTotal, userPostTotalsKey } from '#lib/posts/counters.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { validate, type Input } from '#lib/validation.ts';
import { listParams, openPostList, refusedList, searches, withTotal, type OpenedList } from './list.ts';
import { POST_LISTS } from './post-lists.ts';

// GET /posts/me: the caller's list is keyed by their user id, which their token names
// (lib/auth/tokens.ts), so its first read goes out with the token's instead of after it.

export interface OpenedMine {
  userId: number;
  /** The publish filter asked for (undefined: both kinds, or a refused value). */
  publish: boolean | undefined;
  opened: OpenedList;
}

/** `?publish=`: true (published only), false (drafts only), absent (both); anything else is a 400. */
function publishFilter(query: Record<string, string | undefined>, body: Input): boolean | undefined {
  const { publish } = listParams(query, body, ['publish']);
  if (publish === undefined) return undefined;
  return validate({ data: { publish }, form: true }, { publish: { type: 'boolean', required: true } }).publish as boolean;
}

/** Opens the list of the user the token names, for one user id. */
function openFor(userId: number, query: Record<string, string | undefined>, body: Input): OpenedMine {
  let publish: boolean | undefined;
  try {
    publish = publishFilter(query, body);
  } catch (error) {
    return { userId, publish: undefined, opened: refusedList(error) };
  }
  return { userId, publish, opened: openPostList(POST_LISTS.mine(userId, publish), query, body, ['publish']) };
}

/** The user id the request's (well-formed) token names. */
const hintedUser = (authorization: string | undefined) => tokenUserHint(tokenFromHeader(authorization) ?? '');

/** The first read of the list of the user the request's (well-formed) token names. */
export function openMine(authorization: string | undefined, query: Record<string, string | undefined>, body: Input): OpenedMine {
  return openFor(hintedUser(authorization), query, body);
}

/** What GET /posts/me reads with the token: the post counts of the user the token names, unless it searches. */
export function mineReads(authorization: string | undefined, query: Record<string, string | undefined>, body: Input): Key[] {
  const userId = hintedUser(authorization);
  return searches(query, body) || !Number.isSafeInteger(userId) ? [] : [userPostTotalsKey(userId)];
}

/** The caller's own posts, published and drafts (`publish` keeps one kind), with their count. */
export async function myPosts(
  caller: Caller,
  opened: OpenedMine,
  read: BatchResult,
  query: Record<string, string | undefined>,
  body: Input,
): Promise<ListedPage<PostRecord>> {
  // A token issued before tokens named their user reads the list, and its counts, only now.
  const mine = opened.userId === caller.userId ? opened : openFor(caller.userId, query, body);
  const key = userPostTotalsKey(caller.userId);
  const counted = read.keys.some((k) => k.PK === key.PK) || searches(query, body);
  const [listed, counts] = await Promise.all([mine.opened.read(), counted ? read : batchGet([key])]);
  return withTotal(listed, (featuredOnly) => userPostTotal(counts.get(key), mine.publish, featuredOnly));
}

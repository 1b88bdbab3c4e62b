import { tokenFromHeader } from '#lib/auth/authenticate.ts';
import { tokenUserHint, type Caller } from '#lib/auth/tokens.ts';
import type { ListedPage } from '#lib/pager.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { validate, type Input } from '#lib/validation.ts';
import { listParams, openPostList, refusedList, type OpenedList } from './list.ts';
import { POST_LISTS } from './post-lists.ts';

// GET /posts/me: the caller's list is keyed by their user id, which their token names
// (lib/auth/tokens.ts), so its first read goes out with the token's instead of after it.

export interface OpenedMine {
  userId: number;
  opened: OpenedList;
}

/** `?publish=`: true (published only), false (drafts only), absent (both); anything else is a 400. */
function publishFilter(query: Record<string, string | undefined>, body: Input): boolean | undefined {
  const { publish } = listParams(query, body, ['publish']);
  if (publish === undefined) return undefined;
  return validate({ data: { publish }, form: true }, { publish: { type: 'boolean', required: true } }).publish as boolean;
}

/** Opens the list of the user the token names, for one user id. */
function openFor(userId: number, query: Record<string, string | undefined>, body: Input): OpenedList {
  let publish: boolean | undefined;
  try {
    publish = publishFilter(query, body);
  } catch (error) {
    return refusedList(error);
  }
  return openPostList(POST_LISTS.mine(userId, publish), query, body, ['publish']);
}

/** The first read of the list of the user the request's (well-formed) token names. */
export function openMine(authorization: string | undefined, query: Record<string, string | undefined>, body: Input): OpenedMine {
  const userId = tokenUserHint(tokenFromHeader(authorization) ?? '');
  return { userId, opened: openFor(userId, query, body) };
}

/** The caller's own posts, published and drafts; `publish` keeps one kind. */
export function myPosts(caller: Caller, { userId, opened }: OpenedMine, query: Record<string, string | undefined>, body: Input): Promise<ListedPage<PostRecord>> {
  // A token issued before tokens named their user reads the list only now.
  return (userId === caller.userId ? opened : openFor(caller.userId, query, body)).read();
}

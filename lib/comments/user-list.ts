import type { Caller } from '#lib/auth/tokens.ts';
import { batchGet, type BatchResult, type Item } from '#lib/db/batch.ts';
import { listPartitions } from '#lib/db/keys.ts';
import { cursorAfterItem, cursorStart, queryItems, type ListQuery } from '#lib/db/query.ts';
import { listParams } from '#lib/lists/list.ts';
import { pageOfRead, parsePageRequest, skippedBefore, type ListedPage, type PageRequest } from '#lib/pager.ts';
import { commentedPostFromEntry, postByIdKey, type CommentedPost } from '#lib/posts/comment-target.ts';
import { profileDetail } from '#lib/users/detail.ts';
import type { Input } from '#lib/validation.ts';
import { commentFromItem, type CommentRecord } from './comment.ts';
import { COMMENT_PAGE_SIZES } from './pages.ts';

// GET /users/detail/{username}/comments: the user's comments, newest first, from GSI1 (a
// placeholder leaves it): their published ones, and their hidden ones to themselves and to
// moderators, on posts the caller may see. The first page is queried beside the token and the
// profile; the comments' posts (found by id: published? whose? the slug now) follow in one
// BatchGetItem. Comments the caller may not see are skipped and the page filled from the
// following ones, as a favorites page does.

const PARAMS = ['page', 'page_size', 'cursor'] as const;

export interface UserComment {
  comment: CommentRecord;
  post: CommentedPost;
  /** As the list's index holds it: a cursor after it is its keys. */
  listed: Item;
}

interface Request {
  params: Record<string, string | undefined>;
  request: PageRequest;
  list: ListQuery;
  start?: Record<string, unknown>;
}

export interface OpenedUserComments {
  read(caller: Caller | null, profileRead: BatchResult): Promise<ListedPage<UserComment>>;
}

/** Starts reading the user's comments; a bad page is answered after the profile's 404. */
export function openUserComments(username: string, query: Record<string, string | undefined>, body: Input): OpenedUserComments {
  let parsed: Request;
  try {
    const params = listParams(query, body, PARAMS);
    const request = parsePageRequest(params, COMMENT_PAGE_SIZES.user);
    const list: ListQuery = { index: 'lists', partition: listPartitions.commentsOf(username) };
    parsed = { params, request, list, ...(request.cursor ? { start: cursorStart(list, request.cursor) } : {}) };
  } catch (error) {
    return {
      read: async (_caller, profileRead) => {
        profileDetail(profileRead, username);
        throw error;
      },
    };
  }
  const first = queryItems(parsed.list, parsed.request.pageSize + 1, parsed.start);
  first.catch(() => undefined);
  return {
    read: async (caller, profileRead) => {
      profileDetail(profileRead, username);
      const found = await collect(parsed, await first, caller);
      return {
        params: parsed.params,
        request: parsed.request,
        page: pageOfRead(
          parsed.request,
          found,
          ({ listed }) => cursorAfterItem(parsed.list, listed),
          (entry) => entry,
        ),
      };
    },
  };
}

/** Whether the caller sees this comment in a user's list. */
function visible(comment: CommentRecord, post: CommentedPost, caller: Caller | null): boolean {
  if (!(post.publish || caller?.userId === post.authorId)) return false;
  if (comment.status === 'published') return true;
  return comment.status === 'hidden' && caller !== null && (caller.moderator === true || caller.userId === comment.author_id);
}

async function collect({ request, list }: Request, first: { items: Item[]; next?: Record<string, unknown> }, caller: Caller | null): Promise<UserComment[]> {
  let skip = skippedBefore(request);
  const found: UserComment[] = [];
  let wave: { items: Item[]; next?: Record<string, unknown> } | undefined = first;
  while (wave) {
    const postIds = [...new Set(wave.items.map((item) => String(item.post_id)))];
    const posts = postIds.length > 0 ? await batchGet(postIds.map(postByIdKey), undefined, { consistent: false }) : undefined;
    for (const item of wave.items) {
      const post = posts && commentedPostFromEntry(posts.get(postByIdKey(String(item.post_id))));
      const comment = commentFromItem(item);
      if (!post || !visible(comment, post, caller)) continue;
      if (skip > 0) skip -= 1;
      else found.push({ comment, post, listed: item });
      if (found.length > request.pageSize) return found;
    }
    wave = wave.next ? await queryItems(list, skip + request.pageSize + 1 - found.length, wave.next) : undefined;
  }
  return found;
}

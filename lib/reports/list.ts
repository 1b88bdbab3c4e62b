import { requireModerator } from '#lib/auth/moderators.ts';
import type { Caller } from '#lib/auth/tokens.ts';
import { commentFromItem, commentKey, type CommentRecord } from '#lib/comments/comment.ts';
import { batchGet, type Item } from '#lib/db/batch.ts';
import { listPartitions } from '#lib/db/keys.ts';
import { cursorAfterItem, cursorStart, queryItems, type ListQuery } from '#lib/db/query.ts';
import { listParams } from '#lib/lists/list.ts';
import { pageOfRead, parsePageRequest, skippedBefore, type ListedPage, type PageRequest } from '#lib/pager.ts';
import { commentedPostFromEntry, postByIdKey, type CommentedPost } from '#lib/posts/comment-target.ts';
import { readPostsById } from '#lib/posts/listed.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import type { Input } from '#lib/validation.ts';
import { newestReport, targetFromItem, targetStateFromItem } from './report.ts';
import { commentTargetToApi, postTargetToApi, reportToApi } from './view.ts';

// GET /reports: for moderators, each target with open reports once, as its newest open report,
// newest first (GSI1, `REPORTS`, where a target's item is while any report of it is open). The
// first page is queried beside the token; the targets follow in one round trip (a comment's item
// and its post's entry, a post's summary; a post renamed since its report, two more). A target
// deleted since (its item waits for the stream consumer) is left out, the page filled from the
// following ones.

const PARAMS = ['page', 'page_size', 'cursor'] as const;

export const REPORTS_PAGE_SIZE = 50;

const OPEN_REPORTS: ListQuery = { index: 'lists', partition: listPartitions.openReports };

interface Request {
  params: Record<string, string | undefined>;
  request: PageRequest;
  start?: Record<string, unknown>;
}

export interface OpenedReports {
  read(caller: Caller): Promise<ListedPage<ReturnType<typeof reportToApi>>>;
}

/** Starts reading the open reports (discarded unless the caller moderates); a bad page is answered after the 403. */
export function openReports(query: Record<string, string | undefined>, body: Input): OpenedReports {
  let parsed: Request;
  try {
    const params = listParams(query, body, PARAMS);
    const request = parsePageRequest(params, REPORTS_PAGE_SIZE);
    parsed = { params, request, ...(request.cursor ? { start: cursorStart(OPEN_REPORTS, request.cursor) } : {}) };
  } catch (error) {
    return {
      read: async (caller) => {
        requireModerator(caller);
        throw error;
      },
    };
  }
  const first = queryItems(OPEN_REPORTS, parsed.request.pageSize + 1, parsed.start);
  first.catch(() => undefined);
  return {
    read: async (caller) => {
      requireModerator(caller);
      const found = await collect(parsed.request, await first, caller);
      return {
        params: parsed.params,
        request: parsed.request,
        page: pageOfRead(
          parsed.request,
          found,
          ({ item }) => cursorAfterItem(OPEN_REPORTS, item),
          ({ report }) => report,
        ),
      };
    },
  };
}

interface Found {
  item: Item;
  report: ReturnType<typeof reportToApi>;
}

/** The current state of the targets of these items: comments with their posts, and posts. */
async function targetsOf(items: Item[]) {
  const targets = items.map(targetFromItem);
  const comments = targets.flatMap((target) => (target.comment ? [{ post_id: target.postId, thread: target.comment.thread, sk: target.comment.sk }] : []));
  const postRefs = targets.filter((target) => !target.comment).map((target) => ({ id: target.postId, slug: target.slug }));
  const [commentRead, posts] = await Promise.all([
    comments.length > 0
      ? batchGet([...comments.map(commentKey), ...comments.map((comment) => postByIdKey(comment.post_id))], undefined, { consistent: false })
      : undefined,
    postRefs.length > 0 ? readPostsById(postRefs, 'summary') : new Map<string, PostRecord | undefined>(),
  ]);
  return {
    comment: (at: { post_id: string; thread: string | null; sk: string }): { comment: CommentRecord; post: CommentedPost } | undefined => {
      const item = commentRead?.get(commentKey(at));
      const post = commentedPostFromEntry(commentRead?.get(postByIdKey(at.post_id)));
      return item && post ? { comment: commentFromItem(item), post } : undefined;
    },
    post: (id: string) => posts.get(id),
  };
}

async function collect(request: PageRequest, first: { items: Item[]; next?: Record<string, unknown> }, caller: Caller): Promise<Found[]> {
  let skip = skippedBefore(request);
  const found: Found[] = [];
  let wave: { items: Item[]; next?: Record<string, unknown> } | undefined = first;
  while (wave) {
    const states = await targetsOf(wave.items);
    for (const item of wave.items) {
      const report = newestReport(item);
      const target = targetFromItem(item);
      const state = targetStateFromItem(item);
      let shown;
      if (target.comment) {
        const current = states.comment({ post_id: target.postId, thread: target.comment.thread, sk: target.comment.sk });
        if (current && current.comment.status !== 'deleted') shown = commentTargetToApi(current.comment, current.post, caller);
      } else {
        const post = states.post(target.postId);
        if (post) shown = postTargetToApi(post);
      }
      if (!report || !shown) continue;
      if (skip > 0) skip -= 1;
      else found.push({ item, report: reportToApi(report, state, shown) });
      if (found.length > request.pageSize) return found;
    }
    wave = wave.next ? await queryItems(OPEN_REPORTS, skip + request.pageSize + 1 - found.length, wave.next) : undefined;
  }
  return found;
}

import type { Caller } from '#lib/auth/tokens.ts';
import type { BatchResult, Item } from '#lib/db/batch.ts';
import { listPartitions } from '#lib/db/keys.ts';
import { cursorAfterItem, cursorStart, queryItems, type ListQuery } from '#lib/db/query.ts';
import { PAGE_SIZES, pageOfRead, parsePageRequest, skippedBefore, type ListedPage, type PageRequest } from '#lib/pager.ts';
import { listParams } from '#lib/lists/list.ts';
import { readPostsById } from '#lib/posts/listed.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { parseView, type PostView } from '#lib/posts/summary.ts';
import { profileDetail } from '#lib/users/detail.ts';
import type { Input } from '#lib/validation.ts';

// GET /users/detail/{username}/favorites: the user's favorite items, newest first, from GSI1
// (lib/favorites/favorite.ts), each read as its post. The first page of favorites is queried in
// parallel with the token and the profile; the posts follow in one BatchGetItem, by the slug
// each favorite remembers. A post renamed since is found through its `mine` list entry (readPostsById:
// two more round trips, only then). Posts the caller may not see now (unpublished, deleted and awaiting
// the stream's cleanup) are skipped, and the page is filled from the following favorites.

const PARAMS = ['page', 'page_size', 'cursor', 'view'] as const;

interface Request {
  params: Record<string, string | undefined>;
  view: PostView;
  request: PageRequest;
  list: ListQuery;
  start?: Record<string, unknown>;
}

/** A favorites list with its first read under way. */
export interface OpenedFavorites {
  /** `caller` null: an anonymous reader, who sees published posts only. */
  read(caller: Caller | null, profileRead: BatchResult): Promise<ListedPage<PostRecord>>;
}

/** Where the favorites of `username` are listed. */
const favoritesList = (username: string): ListQuery => ({ index: 'lists', partition: listPartitions.favoritesOf(username) });

/** Starts reading the user's favorites with the page parameters of GET /posts; a bad page is answered after the profile check. */
export function openFavorites(username: string, query: Record<string, string | undefined>, body: Input): OpenedFavorites {
  let parsed: Request;
  try {
    const params = listParams(query, body, PARAMS);
    const view = parseView(params.view);
    const request = parsePageRequest(params, PAGE_SIZES.posts);
    const list = favoritesList(username);
    parsed = { params, view, request, list, ...(request.cursor ? { start: cursorStart(list, request.cursor) } : {}) };
  } catch (error) {
    return {
      read: async (_caller, profileRead) => {
        profileDetail(profileRead, username);
        throw error;
      },
    };
  }
  // A page read by number skips what comes before it; the first wave is then only a start.
  const first = queryItems(parsed.list, parsed.request.pageSize + 1, parsed.start);
  first.catch(() => undefined);
  return {
    read: async (caller, profileRead) => {
      profileDetail(profileRead, username);
      return listedPage(parsed, await collect(parsed, await first, visibleTo(caller, username)));
    },
  };
}

/** The posts a favorites list shows: published now, and the user's own drafts to that user. */
const visibleTo = (caller: Caller | null, username: string) => (post: PostRecord) =>
  post.publish || (caller?.username === username && post.author === username);

interface Found {
  favorite: Item;
  post: PostRecord;
}

/** The posts of these favorites in `view`, in order; undefined where a post is gone. */
async function postsOf(favorites: Item[], view: PostView): Promise<(PostRecord | undefined)[]> {
  if (favorites.length === 0) return [];
  const refs = favorites.map((favorite) => ({ id: String(favorite.post_id), slug: String(favorite.slug) }));
  const posts = await readPostsById(refs, view);
  return refs.map(({ id }) => posts.get(id));
}

/**
 * The visible posts of the favorites from the request's start: those a page by number skips
 * left out, then up to one more than a page (to know whether another follows).
 */
async function collect(
  { request, list, view }: Request,
  first: { items: Item[]; next?: Record<string, unknown> },
  visible: (post: PostRecord) => boolean,
): Promise<Found[]> {
  let skip = skippedBefore(request);
  const found: Found[] = [];
  let wave: { items: Item[]; next?: Record<string, unknown> } | undefined = first;
  while (wave) {
    const posts = await postsOf(wave.items, view);
    for (const [at, favorite] of wave.items.entries()) {
      const post = posts[at];
      if (!post || !visible(post)) continue;
      if (skip > 0) skip -= 1;
      else found.push({ favorite, post });
      if (found.length > request.pageSize) return found;
    }
    wave = wave.next ? await queryItems(list, skip + request.pageSize + 1 - found.length, wave.next) : undefined;
  }
  return found;
}

function listedPage({ params, request, list }: Request, found: Found[]): ListedPage<PostRecord> {
  return {
    params,
    request,
    page: pageOfRead(
      request,
      found,
      ({ favorite }) => cursorAfterItem(list, favorite),
      ({ post }) => post,
    ),
  };
}

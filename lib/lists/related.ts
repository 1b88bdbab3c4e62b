import type { Caller } from '#lib/auth/tokens.ts';
import type { BatchResult, Item } from '#lib/db/batch.ts';
import { INDEXES } from '#lib/db/table.ts';
import { queryItems } from '#lib/db/query.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { readListedPosts } from '#lib/posts/listed.ts';
import { postFromRead, type PostRecord } from '#lib/posts/post.ts';
import { parseView } from '#lib/posts/summary.ts';
import type { Input } from '#lib/validation.ts';
import { listParams } from './list.ts';
import { POST_LISTS, RELATED } from './post-lists.ts';

// The related posts of a post (GET /posts/detail/{slug}/related), in three sequential round trips
// whatever the size of the site: the post (with the token), the newest entries of each of its
// tags' lists (one Query per tag, in parallel), then the chosen posts' text and stats (one
// BatchGetItem). The capacity is bounded by the post's tags: RELATED.perTag entries per tag and
// RELATED.limit posts.

interface Candidate {
  slug: string;
  postId: string;
  /** The entry's sort key in PostsByCreated (created, then id): newest first among equal counts. */
  created: string;
  /** In how many of the post's tag lists the candidate is among the newest. */
  shared: number;
}

/** The newest entries of one tag's list of published posts. */
async function newestOfTag(tagSlug: string): Promise<Item[]> {
  const list = POST_LISTS.tagged(tagSlug);
  return (await queryItems({ index: 'postsByCreated', partition: list.partition }, RELATED.perTag)).items;
}

/** The candidates of the tag lists, most shared tags first, then newest; never the post itself. */
export function rankCandidates(postId: string, lists: Item[][]): Candidate[] {
  const byId = new Map<string, Candidate>();
  for (const entries of lists) {
    for (const entry of entries) {
      const id = String(entry.post_id);
      if (id === postId) continue;
      const known = byId.get(id);
      if (known) known.shared += 1;
      else byId.set(id, { slug: String(entry.slug), postId: id, created: String(entry[INDEXES.postsByCreated.sortKey]), shared: 1 });
    }
  }
  return [...byId.values()].sort((a, b) => b.shared - a.shared || (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
}

/** How many tags `other` shares with `post`, as its text says now. */
const sharedTags = (post: PostRecord, other: PostRecord): number => other.tag_slugs.filter((tag) => post.tag_slugs.includes(tag)).length;

/**
 * GET /posts/detail/{slug}/related: up to RELATED.limit published posts that share the most tags
 * with the post the caller can see (404 otherwise), newest first among equal counts; none for a
 * post without tags. `read` is the read made with the token (postReads); `view` from the query
 * string or the GET body as a list's, checked after the post (a post the caller cannot see is a 404 first).
 */
export async function relatedPosts(
  caller: Caller | null,
  slug: string,
  read: BatchResult,
  params: { query: Record<string, string | undefined>; body: Input },
): Promise<PostRecord[]> {
  const post = visiblePost(postFromRead(read, slug), caller);
  const view = parseView(listParams(params.query, params.body, ['view']).view);
  if (post.tag_slugs.length === 0) return [];
  const chosen = rankCandidates(post.id, await Promise.all(post.tag_slugs.map(newestOfTag))).slice(0, RELATED.limit);
  if (chosen.length === 0) return [];
  const posts = await readListedPosts(
    chosen.map((candidate) => candidate.slug),
    view,
  );
  // The index may trail a write by a moment: a post since deleted, unpublished, renamed or
  // untagged is left out, and the order is the one of the tags the posts carry now.
  const kept = chosen.flatMap((candidate) => {
    const other = posts.get(candidate.slug);
    if (!other || other.id !== candidate.postId || !other.publish) return [];
    const shared = sharedTags(post, other);
    return shared > 0 ? [{ other, shared, created: candidate.created }] : [];
  });
  kept.sort((a, b) => b.shared - a.shared || (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
  return kept.map(({ other }) => other);
}

import type { Item } from '#lib/db/batch.ts';
import { keys, listPartitions, listSortKeys, postLists } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import type { PostRecord } from './post.ts';

// A post's list entries: one small item per list the post is in, carrying the sort keys of every
// order a list can be read in (the four post indexes) and what a list needs to find and filter the
// post (INDEXES' projection). Keyed by the post's id, so a rename only rewrites them in place.

/** The lists a post belongs to, as (entry sort key, list partition) pairs. */
function listsOf(post: PostRecord): [list: string, partition: string][] {
  const lists: [string, string][] = [[postLists.mine, listPartitions.mine(post.author_id)]];
  if (!post.publish) return lists;
  lists.push([postLists.authored, listPartitions.authored(post.author)], [postLists.posts, listPartitions.posts]);
  if (post.is_featured) lists.push([postLists.featured, listPartitions.featured]);
  for (const tag of post.tag_slugs) lists.push([postLists.tagged(tag), listPartitions.tagged(tag)]);
  return lists;
}

/** The post's sort key in each of the four post indexes, by the index's sort key attribute. */
export function entrySortKeys(post: PostRecord): Record<string, string> {
  return {
    [INDEXES.postsByCreated.sortKey]: listSortKeys.postCreated(post.created, post.id),
    [INDEXES.postsByViews.sortKey]: listSortKeys.postViews(post.total_visitors, post.created, post.id),
    [INDEXES.postsByVotes.sortKey]: listSortKeys.postVotes(post.rating_likes, post.created, post.id),
    [INDEXES.postsByActive.sortKey]: listSortKeys.postActive(post.modified, post.created, post.id),
  };
}

/**
 * Every entry item of the post in its current state. The `mine` entry, which lives exactly as long
 * as the post and is keyed by its id, also says whether its comments are locked: what a comment's
 * write, which finds its post by id, checks in its transaction (lib/posts/comment-target.ts).
 */
export function postEntries(post: PostRecord): Item[] {
  const sortKeys = entrySortKeys(post);
  return listsOf(post).map(([list, partition]) => ({
    ...keys.postEntry(post.id, list),
    [INDEXES.postsByCreated.partitionKey]: partition,
    ...sortKeys,
    slug: post.slug,
    post_id: post.id,
    is_featured: post.is_featured,
    publish: post.publish,
    ...(list === postLists.mine ? { comments_locked: post.comments_locked } : {}),
  }));
}

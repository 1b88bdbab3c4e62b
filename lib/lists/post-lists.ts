import { listPartitions, postLists } from '#lib/db/keys.ts';
import type { PostRecord } from '#lib/posts/post.ts';

// The lists of posts and their orders, as values: which index partition holds each list and which
// posts it may show (list.ts reads them; search.ts ranks a search within them).

export const POST_SORTS = ['newest', 'featured', 'views', 'votes', 'active'] as const;
export type PostSort = (typeof POST_SORTS)[number];

/** `?sort=`: one of POST_SORTS; anything else lists the newest first. */
export function parseSort(value: string | undefined): PostSort {
  return (POST_SORTS as readonly string[]).includes(value ?? '') ? (value as PostSort) : 'newest';
}

/**
 * Related posts (related.ts): at most `limit` of them, chosen among the `perTag` newest published
 * posts of each of the post's tags. Here, apart from the reads, for the OpenAPI document.
 */
export const RELATED = { limit: 5, perTag: 20 } as const;

/** One list of posts: which index partition holds it, and which posts it may show. */
export interface PostList {
  partition: string;
  /** A partition of featured posts only, where the list has one (else sort=featured filters). */
  featuredPartition?: string;
  /** The sort key of the list's entries (keys.postEntry), in its own partition. */
  entry: string;
  /** Only published posts (true) or only drafts (false) of a list that holds both (the caller's own). */
  publishFilter?: boolean;
  /**
   * Whether a post read through an entry still belongs: the entries come from an index, which on
   * AWS may lag a write by a moment (a post just unpublished, retagged or renamed).
   */
  holds(post: ListedFields): boolean;
  /** Whether a post the search index found may belong, by what its postings carry: its author (not its tags, featured flag or publication). */
  mayHold(post: IndexedFields): boolean;
  /** Its posts are told by its entries alone (a tag's list: the postings carry no tags). */
  membersByEntries?: true;
}

/** What a list needs of a post to tell whether it belongs. */
export type ListedFields = Pick<PostRecord, 'publish' | 'author' | 'author_id' | 'tag_slugs'>;

/** What the search index's postings carry of those. */
export type IndexedFields = Pick<PostRecord, 'author' | 'author_id'>;

export const POST_LISTS = {
  all: (): PostList => ({
    partition: listPartitions.posts,
    featuredPartition: listPartitions.featured,
    entry: postLists.posts,
    holds: (post) => post.publish,
    mayHold: () => true,
  }),
  tagged: (tagSlug: string): PostList => ({
    partition: listPartitions.tagged(tagSlug),
    entry: postLists.tagged(tagSlug),
    holds: (post) => post.publish && post.tag_slugs.includes(tagSlug),
    mayHold: () => true,
    membersByEntries: true,
  }),
  authored: (username: string): PostList => ({
    partition: listPartitions.authored(username),
    entry: postLists.authored,
    holds: (post) => post.publish && post.author === username,
    mayHold: (post) => post.author === username,
  }),
  mine: (userId: number, publish?: boolean): PostList => ({
    partition: listPartitions.mine(userId),
    entry: postLists.mine,
    ...(publish === undefined ? {} : { publishFilter: publish }),
    holds: (post) => post.author_id === userId && (publish === undefined || post.publish === publish),
    mayHold: (post) => post.author_id === userId,
  }),
};

import { randomUUID } from 'node:crypto';
import type { Caller } from '#lib/auth/tokens.ts';
import type { BatchResult, Item } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { RetryableConflict } from '#lib/retry.ts';
import type { TagRef } from '#lib/tags/tag.ts';
import type { PostInput } from './input.ts';

// The post entity, stored as three kinds of item so that a count never rewrites the text:
// - the text item under its current slug (title, description, tags, ...: everything a client edits);
// - the stats item beside it (the counters and the version every write is conditioned on), small;
// - one entry per list the post is in (entries.ts), small, keyed by the post's id.
// A detail reads the first two in one call; a list reads entries from an index, then those two.

/** A post as the service works with it: its API fields plus what keeps it consistent. */
export interface PostRecord {
  id: string;
  slug: string;
  /** slugify(title) before any `-N` suffix: a new title renames only when this changes. */
  slug_base: string;
  author: string;
  author_id: number;
  title: string;
  description: string;
  created: string;
  modified: string;
  publish: boolean;
  is_featured: boolean;
  tags: string[];
  tag_slugs: string[];
  keywords: string | null;
  meta_description: string | null;
  rating_likes: number;
  rating_dislikes: number;
  total_visitors: number;
  total_favorites: number;
  /** Its published comments, replies included (lib/comments): changed by ADD in each comment's transaction, never counted. */
  total_comments: number;
  /** No new comments and no edits of comments (docs/api.md, Comments): set by the author or a moderator. */
  comments_locked: boolean;
  /** A moderator removed it (a report resolved with `remove`): it stays a draft until `npm run admin -- restore-post`. */
  removed: boolean;
  /**
   * The sort key of the post's newest thread (lib/comments/comment.ts): a new thread's must come
   * after it, so that threads commit in the order they are listed and a cursor never skips one.
   */
  last_thread?: string;
  /** Bumped by every write, counts included; writes are conditioned on the version they read. */
  version: number;
  /**
   * The version at which the text item was last written, kept on both items: a batch read is not
   * isolated, so text and stats read while a change commits can come from two versions.
   */
  text_version: number;
  /** Set only on a post read for a list of summaries (summary.ts), whose description is then not read. */
  summary?: PostSummary;
}

/** What a summary shows instead of the description (docs/api.md, "Summaries"). */
export interface PostSummary {
  excerpt: string;
  reading_time_minutes: number;
}

/** A new post by `author` from a validated create body, under `slug`, with its resolved tags. */
export function newPost(author: Caller, input: PostInput, slug: { slug: string; slugBase: string }, tags: TagRef[], now: string): PostRecord {
  return {
    id: randomUUID(),
    slug: slug.slug,
    slug_base: slug.slugBase,
    author: author.username,
    author_id: author.userId,
    title: input.title!,
    description: input.description!,
    created: now,
    modified: now,
    publish: input.publish ?? false,
    is_featured: false,
    tags: tags.map((tag) => tag.title),
    tag_slugs: tags.map((tag) => tag.slug),
    keywords: input.keywords ?? null,
    meta_description: input.meta_description ?? null,
    rating_likes: 0,
    rating_dislikes: 0,
    total_visitors: 0,
    total_favorites: 0,
    total_comments: 0,
    comments_locked: input.comments_locked ?? false,
    removed: false,
    version: 1,
    text_version: 1,
  };
}

/** The key of a post's text item: its current slug (the key itself claims the slug). */
export function postKey(slug: string): Key {
  return keys.post(slug);
}

/** What a read of the post under `slug` asks for: its text and its stats. */
export function postKeys(slug: string): Key[] {
  return [keys.post(slug), keys.postStats(slug)];
}

const COUNTERS = ['rating_likes', 'rating_dislikes', 'total_visitors', 'total_favorites', 'total_comments'] as const;
/**
 * The post's state beside its counters, on the stats item too: what comments and moderators
 * change (a lock, a removal, the newest thread) never rewrites the text.
 */
const STATS_FIELDS = ['comments_locked', 'removed', 'last_thread'] as const;

/** The text item: every field but the counters, the stats' fields and the version. */
export function postTextItem(post: PostRecord): Item {
  const text: Item = { ...keys.post(post.slug), ...post };
  for (const name of [...COUNTERS, ...STATS_FIELDS, 'version', 'summary']) delete text[name];
  return text;
}

/** The stats item: the counters, the stats' fields and the version, with the post's id to tell a reused slug apart. */
export function postStatsItem(post: PostRecord): Item {
  return {
    ...keys.postStats(post.slug),
    post_id: post.id,
    ...Object.fromEntries(COUNTERS.map((name) => [name, post[name]])),
    comments_locked: post.comments_locked,
    // Absent unless set: a post is rarely removed, and no thread yet has no newest.
    ...(post.removed ? { removed: true } : {}),
    ...(post.last_thread !== undefined ? { last_thread: post.last_thread } : {}),
    version: post.version,
    text_version: post.text_version,
  };
}

/** What a post's text item holds: the post without the counters and the fields of its stats item. */
export type PostText = Omit<PostRecord, (typeof COUNTERS)[number] | (typeof STATS_FIELDS)[number] | 'version'>;

/** The fields of a post's text item (as read, or as a stream image carries it). */
export function postTextFromItem(text: Item): PostText {
  const nullableString = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: String(text.id),
    slug: String(text.slug),
    slug_base: String(text.slug_base),
    author: String(text.author),
    author_id: Number(text.author_id),
    title: String(text.title),
    description: String(text.description),
    created: String(text.created),
    modified: String(text.modified),
    publish: text.publish === true,
    is_featured: text.is_featured === true,
    tags: Array.isArray(text.tags) ? text.tags.map(String) : [],
    tag_slugs: Array.isArray(text.tag_slugs) ? text.tag_slugs.map(String) : [],
    keywords: nullableString(text.keywords),
    meta_description: nullableString(text.meta_description),
    text_version: Number(text.text_version ?? 0),
  };
}

/** The post whose text and stats items these are; undefined unless both are there and belong together. */
export function postFromItems(text: Item | undefined, stats: Item | undefined): PostRecord | undefined {
  if (!text || !stats || stats.post_id !== text.id) return undefined;
  return {
    ...postTextFromItem(text),
    rating_likes: Number(stats.rating_likes ?? 0),
    rating_dislikes: Number(stats.rating_dislikes ?? 0),
    total_visitors: Number(stats.total_visitors ?? 0),
    total_favorites: Number(stats.total_favorites ?? 0),
    total_comments: Math.max(0, Number(stats.total_comments ?? 0)),
    comments_locked: stats.comments_locked === true,
    removed: stats.removed === true,
    ...(typeof stats.last_thread === 'string' ? { last_thread: stats.last_thread } : {}),
    version: Number(stats.version ?? 0),
  };
}

/** The post stored under `slug` in a batch read that included its keys (postKeys). */
export function postFromRead(read: BatchResult, slug: string): PostRecord | undefined {
  return postFromItems(read.get(keys.post(slug)), read.get(keys.postStats(slug)));
}

/**
 * The post under `slug` as a change may start from it: its text and stats of one version. A pair
 * torn by a concurrent commit (the text older than the stats' version expects) would pass the
 * stats' version condition with stale fields, so it is a conflict: the change reads again.
 */
export function postToChange(read: BatchResult, slug: string): PostRecord | undefined {
  const post = postFromRead(read, slug);
  const stats = read.get(keys.postStats(slug));
  if (post && Number(stats?.text_version ?? 0) !== post.text_version) throw new RetryableConflict(`torn read of post ${slug}`);
  return post;
}

/**
 * The API shape of a post, fields in the contract's order; a post read as a summary (`summary`
 * set) without its description, with its excerpt and reading time after `meta_description`.
 */
export function postToApi(post: PostRecord) {
  return {
    author: post.author,
    title: post.title,
    slug: post.slug,
    ...(post.summary ? {} : { description: post.description }),
    created: post.created,
    modified: post.modified,
    publish: post.publish,
    is_featured: post.is_featured,
    tags: post.tags,
    keywords: post.keywords,
    meta_description: post.meta_description,
    ...(post.summary ? { excerpt: post.summary.excerpt, reading_time_minutes: post.summary.reading_time_minutes } : {}),
    rating_likes: post.rating_likes,
    rating_dislikes: post.rating_dislikes,
    total_visitors: post.total_visitors,
    total_favorites: post.total_favorites,
    total_comments: post.total_comments,
    comments_locked: post.comments_locked,
  };
}

/** Whether `caller` may see the post: published, or the caller's own draft. */
export function isVisibleTo(post: PostRecord, username: string | undefined): boolean {
  return post.publish || (username !== undefined && post.author === username);
}

import { randomUUID } from 'node:crypto';
import type { Caller } from '#lib/auth/tokens.ts';
import type { BatchResult, Item } from '#lib/db/batch.ts';
import { keys, listPartitions, listSortKeys, type Key } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import type { TagRef } from '#lib/tags/tag.ts';
import type { PostInput } from './input.ts';

// The post entity: the record the service works with, the item it is stored as (with its search
// text and the list-index keys it carries while published), and its API shape.

/** A post as stored: its API fields plus what the service needs to keep it consistent. */
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
  /** Bumped by every write; writes are conditioned on the version they read. */
  version: number;
}

// Separates fields in the search text; validation keeps it out of every field.
const FIELD_SEPARATOR = '\u0000';

/** Title, description, keywords and meta description, lower-cased: what `q` matches. */
export function searchText(post: PostRecord): string {
  return [post.title, post.description, post.keywords ?? '', post.meta_description ?? '']
    .join(FIELD_SEPARATOR)
    .toLowerCase();
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
    version: 1,
  };
}

/** The key a post is stored under: its current slug (the key itself claims the slug). */
export function postKey(slug: string): Key {
  return keys.post(slug);
}

/** The stored item: keys, fields, search text, and list-index keys only while published. */
export function postToItem(post: PostRecord): Item {
  const item: Item = { ...keys.post(post.slug), ...post, search: searchText(post) };
  if (post.publish) {
    item[INDEXES.lists.partitionKey] = listPartitions.posts;
    item[INDEXES.lists.sortKey] = listSortKeys.postCreated(post.created, post.id);
    item[INDEXES.views.sortKey] = listSortKeys.postViews(post.total_visitors, post.created, post.id);
    item[INDEXES.votes.sortKey] = listSortKeys.postVotes(post.rating_likes, post.created, post.id);
    item[INDEXES.active.sortKey] = listSortKeys.postActive(post.modified, post.created, post.id);
    if (post.is_featured) item[INDEXES.featured.partitionKey] = listPartitions.featured;
  }
  return item;
}

export function postFromItem(item: Item): PostRecord {
  const nullableString = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: String(item.id),
    slug: String(item.slug),
    slug_base: String(item.slug_base),
    author: String(item.author),
    author_id: Number(item.author_id),
    title: String(item.title),
    description: String(item.description),
    created: String(item.created),
    modified: String(item.modified),
    publish: item.publish === true,
    is_featured: item.is_featured === true,
    tags: Array.isArray(item.tags) ? item.tags.map(String) : [],
    tag_slugs: Array.isArray(item.tag_slugs) ? item.tag_slugs.map(String) : [],
    keywords: nullableString(item.keywords),
    meta_description: nullableString(item.meta_description),
    rating_likes: Number(item.rating_likes ?? 0),
    rating_dislikes: Number(item.rating_dislikes ?? 0),
    total_visitors: Number(item.total_visitors ?? 0),
    total_favorites: Number(item.total_favorites ?? 0),
    version: Number(item.version ?? 0),
  };
}

/** The post stored under `slug` in a batch read that included its key. */
export function postFromRead(read: BatchResult, slug: string): PostRecord | undefined {
  const item = read.get(keys.post(slug));
  return item ? postFromItem(item) : undefined;
}

/** The API shape of a post, fields in the contract's order. */
export function postToApi(post: PostRecord) {
  return {
    author: post.author,
    title: post.title,
    slug: post.slug,
    description: post.description,
    created: post.created,
    modified: post.modified,
    publish: post.publish,
    is_featured: post.is_featured,
    tags: post.tags,
    keywords: post.keywords,
    meta_description: post.meta_description,
    rating_likes: post.rating_likes,
    rating_dislikes: post.rating_dislikes,
    total_visitors: post.total_visitors,
    total_favorites: post.total_favorites,
  };
}

/** Whether `caller` may see the post: published, or the caller's own draft. */
export function isVisibleTo(post: PostRecord, username: string): boolean {
  return post.publish || post.author === username;
}

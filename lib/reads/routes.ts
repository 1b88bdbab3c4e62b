import type { PublicReadRoute } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { ok } from '#lib/http/respond.ts';
import { allPosts, allPostsReads } from '#lib/lists/all.ts';
import { authoredPosts, authorReads, openAuthored } from '#lib/lists/author.ts';
import { openPostList } from '#lib/lists/list.ts';
import { POST_LISTS } from '#lib/lists/post-lists.ts';
import { openTagged, taggedPosts, taggedReads } from '#lib/lists/tagged.ts';
import { postReads, viewPost } from '#lib/posts/detail.ts';
import { postToApi } from '#lib/posts/post.ts';
import { profileToApi } from '#lib/profiles/profile.ts';
import { tagDetail, tagDetailReads } from '#lib/tags/detail.ts';
import { listTags, tagsListReads, withTagsTotal } from '#lib/tags/list.ts';
import { tagToApi } from '#lib/tags/tag.ts';
import { profileDetail, profileReads } from '#lib/users/detail.ts';

// The public reads of published content (docs/api.md, "Reading without an account"): what each
// answers, once, for their handlers (functions/) and for the server-rendered pages (lib/pages/),
// which ask them as a reader without an account.

/** GET /posts/detail/{slug}: a published post or the caller's draft; counts a caller's first visit (not on HEAD, not for an anonymous reader). */
export const postDetail: PublicReadRoute<undefined, undefined> = {
  auth: 'public-read',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read, method }) => ok(postToApi(await viewPost(caller, path.slug ?? '', read, { recordVisit: method !== 'HEAD' }))),
};

/** GET /posts: published posts, sorted, searched, paged; the page's entries are read in parallel with the token, the site's counts with it. */
export const allPostsList = {
  auth: 'public-read',
  reads: ({ query, body }) => allPostsReads(query, body),
  alongside: async ({ query, body }) => openPostList(POST_LISTS.all(), query, body),
  handler: async (request) => pagedResult(request, await allPosts(request.read, request.alongside), postToApi),
} satisfies PublicReadRoute<ReturnType<typeof openPostList>, undefined>;

/** GET /posts/tagged/{slug}: the tag's published posts, as GET /posts lists them; the tag is read with the token. */
export const taggedList = {
  auth: 'public-read',
  reads: ({ path }) => taggedReads(path.slug ?? ''),
  alongside: async ({ path, query, body }) => openTagged(path.slug ?? '', query, body),
  handler: async (request) => pagedResult(request, await taggedPosts(request.path.slug ?? '', request.read, request.alongside), postToApi),
} satisfies PublicReadRoute<Awaited<ReturnType<typeof openTagged>>, undefined>;

/** GET /posts/author/{username}: the user's published posts, as GET /posts lists them; the profile is read with the token. */
export const authoredList = {
  auth: 'public-read',
  reads: ({ path }) => authorReads(path.username ?? ''),
  alongside: async ({ path, query, body }) => openAuthored(path.username ?? '', query, body),
  handler: async (request) => pagedResult(request, await authoredPosts(request.path.username ?? '', request.read, request.alongside), postToApi),
} satisfies PublicReadRoute<Awaited<ReturnType<typeof openAuthored>>, undefined>;

/** GET /tags/detail/{slug}: one tag, read with the token. */
export const tagDetailRead: PublicReadRoute<undefined, undefined> = {
  auth: 'public-read',
  reads: ({ path }) => tagDetailReads(path.slug ?? ''),
  handler: async ({ path, read }) => ok(tagToApi(tagDetail(read, path.slug ?? ''))),
};

/** GET /tags: newest first; `q` searches titles. The page is read in parallel with the token, the count of tags with it. */
export const tagsList = {
  auth: 'public-read',
  reads: ({ query }) => tagsListReads(query),
  alongside: ({ query }) => listTags(query),
  handler: async (request) => pagedResult(request, withTagsTotal(request.read, request.alongside), tagToApi),
} satisfies PublicReadRoute<Awaited<ReturnType<typeof listTags>>, undefined>;

/** GET /users/detail/{username}: one profile, read with the token. */
export const profileDetailRead: PublicReadRoute<undefined, undefined> = {
  auth: 'public-read',
  reads: ({ path }) => profileReads(path.username ?? ''),
  handler: async ({ path, read }) => ok(profileToApi(profileDetail(read, path.username ?? ''))),
};

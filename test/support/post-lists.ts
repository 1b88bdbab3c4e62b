import { expect } from 'vitest';
import { unique, type ApiClient, type ApiResponse, type TestApi, type TestUser } from './api.ts';
import { nextLink } from './link.ts';

// What the suites of the post lists (posts-lists-v11, posts-lists-counters) read and make: lists
// that must hold exactly some posts, newest first, walked through their Links; tags and users of
// one test's own.

export type Post = Record<string, any>;

/** A lowercase word no other test uses: one word for the search (letters and digits). */
export const word = (prefix = 'w') => unique(prefix);

/**
 * `listed` holds exactly the posts `expected` (as they are), newest first. Posts created at once by
 * concurrent requests may share a `created` instant; their order among themselves is not checked.
 */
export function expectNewestFirst(listed: Post[], expected: Post[], label?: string) {
  const bySlug = (posts: Post[]) => [...posts].sort((a, b) => (a.slug < b.slug ? -1 : 1));
  expect(bySlug(listed), label).toEqual(bySlug(expected));
  const created = listed.map((post) => post.created as string);
  expect(created, label).toEqual([...created].sort().reverse());
}

/** A GET that must answer 200 with an array. */
export async function get(client: ApiClient, path: string, query?: Record<string, string>): Promise<ApiResponse<Post[]>> {
  const response = await client.get<Post[]>(path, query ? { query } : {});
  expect(response.status, `GET ${path} ${JSON.stringify(query ?? {})}: ${response.text.slice(0, 300)}`).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Array.isArray(response.body)).toBe(true);
  return response;
}

/** A post read by `user` (its first read counts a visit). */
export const view = (user: TestUser, post: Post) => user.api.get(`/posts/detail/${post.slug}`);

/** The helpers that need the file's API and the user who makes its tags. */
export function listHelpers(api: TestApi, tagMaker: TestUser) {
  return {
    /** A new tag, created with POST /tags. */
    async newTag(): Promise<{ title: string; slug: string }> {
      const response = await tagMaker.api.post('/tags', { form: { title: `Topic ${word('t')}` } });
      expect(response.status, response.text).toBe(201);
      return response.body;
    },
    /** Users made for one test (created and logged in at once). */
    newUsers: (count: number, prefix = 'u') => Promise.all(Array.from({ length: count }, () => api.user(prefix))),
    /** Follows Link from the first page to the end; each page at most `pageSize` items, each item once (by `key`). */
    async walk(client: ApiClient, path: string, query: Record<string, string> = {}, pageSize = 100, key = 'slug') {
      const responses = [await get(client, path, query)];
      for (let link = nextLink(responses[0]!); link; link = nextLink(responses.at(-1)!)) {
        const url = new URL(link);
        expect(url.pathname, link).toBe(new URL(`${api.url}${path}`).pathname);
        expect(url.searchParams.get('cursor'), link).toBeTruthy();
        responses.push(await get(client, link));
        expect(responses.length).toBeLessThan(200);
      }
      const pages = responses.map((response) => response.body);
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(pageSize);
      const posts = pages.flat();
      expect(new Set(posts.map((item) => item[key])).size, 'every item once').toBe(posts.length);
      return { pages, posts, responses };
    },
  };
}

import { expect } from 'vitest';
import { setModerator } from '#lib/auth/moderators.ts';
import { createPost, unique, type ApiClient, type TestUser } from './api.ts';
import { nextLink } from './link.ts';

// What the comment suites share (comments, reports, moderators): paths, a post to comment on, a
// comment made over HTTP, a moderator, and the walk of a paged list.

export const commentsPath = (slug: string) => `/posts/detail/${slug}/comments`;
export const commentPath = (id: string) => `/comments/detail/${id}`;
export const repliesPath = (id: string) => `${commentPath(id)}/replies`;
export const userCommentsPath = (username: string) => `/users/detail/${username}/comments`;
export const postReportPath = (slug: string) => `/posts/detail/${slug}/report`;
export const commentReportPath = (id: string) => `${commentPath(id)}/report`;
export const resolvePath = (id: string) => `/reports/detail/${id}/resolve`;
export const suspensionPath = (username: string) => `/users/detail/${username}/suspension`;

/** The key order of a comment (docs/api.md, Comments). */
export const COMMENT_KEYS = ['id', 'post', 'author', 'body', 'created', 'modified', 'edited', 'status', 'hidden_by', 'parent', 'in_reply_to', 'total_replies'];
/** The key order of a report (docs/api.md, Reports). */
export const REPORT_KEYS = ['id', 'reason', 'note', 'reporter', 'created', 'status', 'resolved', 'resolved_by', 'target', 'open_reports'];

/** A published post by `author` (or a draft with `publish: 'false'`). */
export async function publishedPost(author: TestUser, fields: Record<string, string> = {}): Promise<{ slug: string; [key: string]: unknown }> {
  return createPost(author.api, { title: unique('Commented '), description: 'x', publish: 'true', ...fields });
}

/** POST a comment (a reply with `parent`), which must answer 201; the comment. */
export async function comment(client: ApiClient, slug: string, body: string, parent?: string): Promise<Record<string, any>> {
  const response = await client.post(commentsPath(slug), { json: { body, ...(parent ? { parent } : {}) } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Makes the user a moderator (as `npm run admin -- set-moderator`), their token included. */
export async function makeModerator(user: TestUser): Promise<TestUser> {
  await setModerator(user.username, true);
  return user;
}

/** Every item of a paged list from `path`, following `Link`, and the pages' sizes. */
export async function walk(client: ApiClient, path: string, query: Record<string, string> = {}): Promise<{ items: any[]; pages: number[] }> {
  const items: any[] = [];
  const pages: number[] = [];
  let response = await client.get(path, { query });
  for (;;) {
    expect(response.status, response.text).toBe(200);
    items.push(...response.body);
    pages.push(response.body.length);
    const next = nextLink(response);
    if (!next) return { items, pages };
    const url = new URL(next);
    response = await client.get(`${url.pathname.replace('/api/v1', '')}${url.search}`);
  }
}

import type { Input } from '../validation.ts';

export const POST_SORTS = ['newest', 'featured', 'views', 'votes', 'active'] as const;
export type PostSort = (typeof POST_SORTS)[number];

/** `?sort=`: one of POST_SORTS; anything else lists the newest first. */
export function parseSort(value: string | undefined): PostSort {
  return (POST_SORTS as readonly string[]).includes(value ?? '') ? (value as PostSort) : 'newest';
}

const LIST_PARAMS = ['q', 'sort', 'page', 'page_size', 'cursor'] as const;

/**
 * The posts-list parameters: from the query string, each falling back to a form or JSON body of
 * the GET request (the reference service's clients send them there).
 */
export function listParams(query: Record<string, string | undefined>, body: Input): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = {};
  for (const name of LIST_PARAMS) {
    const fromBody = body.data[name];
    const value = query[name] ?? (typeof fromBody === 'string' || typeof fromBody === 'number' ? String(fromBody) : undefined);
    if (value !== undefined) params[name] = value;
  }
  return params;
}

import { afterEach, beforeEach, vi } from 'vitest';
import type { PostRecord } from '#lib/posts/post.ts';

// Values the unit tests build items and writes from (no database).

export const CREATED = '2026-01-05T14:12:15.258987+00:00';
export const MODIFIED = '2026-02-01T08:00:00.000001+00:00';
export const POST_ID = 'a0c1e2f3-0000-4000-8000-000000000001';

/** The table the writes of this file's tests name: lib/config.ts reads TABLE_NAME on use. */
export function useTableName(name: string): void {
  beforeEach(() => {
    vi.stubEnv('TABLE_NAME', name);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
}

/** A published post by alice, tagged Go and Rust, with these fields changed. */
export function postRecord(fields: Partial<PostRecord> = {}): PostRecord {
  return {
    id: POST_ID,
    slug: 'hello-world-2',
    slug_base: 'hello-world',
    author: 'alice',
    author_id: 7,
    title: 'Hello World',
    description: 'Some **Markdown**.',
    created: CREATED,
    modified: MODIFIED,
    publish: true,
    is_featured: false,
    tags: ['Go', 'Rust'],
    tag_slugs: ['go', 'rust'],
    keywords: 'Go, Rust',
    meta_description: null,
    rating_likes: 3,
    rating_dislikes: 1,
    total_visitors: 12,
    total_favorites: 2,
    total_comments: 0,
    comments_locked: false,
    removed: false,
    version: 4,
    text_version: 2,
    ...fields,
  };
}

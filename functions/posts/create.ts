import { endpoint } from '#lib/http/endpoint.ts';
import { created } from '#lib/http/respond.ts';
import { createPost, createReads } from '#lib/posts/create.ts';
import { postToApi } from '#lib/posts/post.ts';

/** POST /posts: a new post by the caller; unknown tags are created. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ body }) => createReads(body),
  handler: async ({ caller, body, read }) => created(postToApi(await createPost(caller, body, read))),
});

import { endpoint } from '#lib/http/endpoint.ts';
import { created } from '#lib/http/respond.ts';
import { createPost, createReads, parseCreate } from '#lib/posts/create.ts';
import { postToApi } from '#lib/posts/post.ts';

/** POST /posts: a new post by the caller; unknown tags are created. */
export const handler = endpoint({
  auth: 'token',
  prepare: ({ body }) => parseCreate(body),
  reads: (_request, input) => createReads(input),
  handler: async ({ caller, prepared, read }) => created(postToApi(await createPost(caller, prepared, read))),
});

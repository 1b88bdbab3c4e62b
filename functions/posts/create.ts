import { endpoint } from '../../lib/http/endpoint.ts';
import { created } from '../../lib/http/respond.ts';
import { createPost } from '../../lib/posts/write.ts';
import { toPost } from '../../lib/posts/record.ts';

/** POST /posts: a new post by the caller; unknown tags are created. */
export const handler = endpoint(
  async (request) => created(toPost(await createPost(request.readAsCaller, request.body))),
  { auth: 'required' },
);

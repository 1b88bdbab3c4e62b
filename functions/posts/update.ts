import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';
import { updatePost } from '../../lib/posts/write.ts';
import { toPost } from '../../lib/posts/record.ts';

/** PUT /posts/detail/{slug}: the author changes any subset of the fields. */
export const handler = endpoint(
  async (request) => ok(toPost(await updatePost(request.readAsCaller, request.path.slug ?? '', request.body))),
  { auth: 'required' },
);

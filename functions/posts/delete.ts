import { endpoint } from '../../lib/http/endpoint.ts';
import { noContent } from '../../lib/http/respond.ts';
import { deletePost } from '../../lib/posts/delete.ts';

/** DELETE /posts/detail/{slug}: the author removes the post. */
export const handler = endpoint(
  async (request) => {
    await deletePost(request.readAsCaller, request.path.slug ?? '');
    return noContent();
  },
  { auth: 'required' },
);

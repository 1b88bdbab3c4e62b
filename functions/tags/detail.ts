import { NotFound } from '../../lib/errors.ts';
import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';
import { tagKey, toTag } from '../../lib/tags.ts';

/** GET /tags/detail/{slug}: one tag. */
export const handler = endpoint(
  async (request) => {
    const key = tagKey(request.path.slug ?? '');
    if (!key) throw new NotFound();
    const { read } = await request.readAsCaller([key]);
    const tag = read.get(key);
    if (!tag) throw new NotFound();
    return ok(toTag(tag));
  },
  { auth: 'required' },
);

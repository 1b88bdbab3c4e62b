import { NotFound } from '../../lib/errors.ts';
import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';
import { getTag, toTag } from '../../lib/tags.ts';

/** GET /tags/detail/{slug}: one tag. */
export const handler = endpoint(
  async (request) => {
    const [, tag] = await Promise.all([request.caller(), getTag(request.path.slug ?? '')]);
    if (!tag) throw new NotFound();
    return ok(toTag(tag));
  },
  { auth: 'required' },
);

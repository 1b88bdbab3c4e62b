import { endpoint } from '../../lib/http/endpoint.ts';
import { created } from '../../lib/http/respond.ts';
import { parseTagInput } from '../../lib/tag-input.ts';
import { createTag, toTag } from '../../lib/tags.ts';

/** POST /tags: a new tag; 409 when its title or slug exists. */
export const handler = endpoint(
  async (request) => {
    await request.caller();
    const tag = await createTag(parseTagInput(request.body));
    return created(toTag(tag));
  },
  { auth: 'required' },
);

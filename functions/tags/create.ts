import { endpoint } from '#lib/http/endpoint.ts';
import { created } from '#lib/http/respond.ts';
import { createTag } from '#lib/tags/create.ts';
import { parseTagInput } from '#lib/tags/input.ts';
import { tagToApi } from '#lib/tags/tag.ts';

/** POST /tags: a new tag; 409 when its title or slug exists. */
export const handler = endpoint({
  auth: 'token',
  handler: async ({ caller, body }) => created(tagToApi(await createTag(caller, parseTagInput(body)))),
});

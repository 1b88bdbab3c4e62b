import { endpoint } from '#lib/http/endpoint.ts';
import { created } from '#lib/http/respond.ts';
import { createTag, createTagReads } from '#lib/tags/create.ts';
import { parseTagInput } from '#lib/tags/input.ts';
import { tagToApi } from '#lib/tags/tag.ts';

/** POST /tags: a new tag; 409 when its title or the slug given exists. */
export const handler = endpoint({
  auth: 'token',
  prepare: ({ body }) => parseTagInput(body),
  reads: (_request, input) => createTagReads(input),
  handler: async ({ caller, prepared, read }) => created(tagToApi(await createTag(caller, prepared, read))),
});

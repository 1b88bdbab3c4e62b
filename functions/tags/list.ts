import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { listTags } from '#lib/tags/list.ts';
import { tagToApi } from '#lib/tags/tag.ts';

/** GET /tags: newest first; `q` searches titles. The page is read in parallel with the token. */
export const handler = endpoint({
  auth: 'public-read',
  alongside: ({ query }) => listTags(query),
  handler: async (request) => pagedResult(request, request.alongside, tagToApi),
});

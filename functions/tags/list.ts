import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { listTags, tagsListReads, withTagsTotal } from '#lib/tags/list.ts';
import { tagToApi } from '#lib/tags/tag.ts';

/** GET /tags: newest first; `q` searches titles. The page is read in parallel with the token, the count of tags with it. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ query }) => tagsListReads(query),
  alongside: ({ query }) => listTags(query),
  handler: async (request) => pagedResult(request, withTagsTotal(request.read, request.alongside), tagToApi),
});

import { endpoint } from '../../lib/http/endpoint.ts';
import { pagedResult } from '../../lib/http/paged.ts';
import { PAGE_SIZES, parsePageRequest } from '../../lib/pagination.ts';
import { listTags, toTag } from '../../lib/tags.ts';

/** GET /tags: newest first; `q` searches titles. */
export const handler = endpoint(
  async (request) => {
    const pageRequest = parsePageRequest(request.query, PAGE_SIZES.tags);
    const [, page] = await Promise.all([request.caller(), listTags(pageRequest, request.query.q)]);
    return pagedResult(request, request.query, pageRequest, page, toTag);
  },
  { auth: 'required' },
);

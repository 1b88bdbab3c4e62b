import { endpoint } from '../../lib/http/endpoint.ts';
import { pagedResult } from '../../lib/http/paged.ts';
import { PAGE_SIZES, parsePageRequest } from '../../lib/pagination.ts';
import { listParams, parseSort } from '../../lib/posts/list-params.ts';
import { listPosts } from '../../lib/posts/read.ts';
import { postRecord, toPost } from '../../lib/posts/record.ts';

/** GET /posts: published posts, sorted, searched, paged. */
export const handler = endpoint(
  async (request) => {
    const params = listParams(request.query, request.body);
    const pageRequest = parsePageRequest(params, PAGE_SIZES.posts);
    const [, page] = await Promise.all([request.caller(), listPosts(pageRequest, parseSort(params.sort), params.q)]);
    return pagedResult(request, params, pageRequest, page, (item) => toPost(postRecord(item)));
  },
  { auth: 'required' },
);

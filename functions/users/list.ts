import { endpoint } from '../../lib/http/endpoint.ts';
import { pagedResult } from '../../lib/http/paged.ts';
import { PAGE_SIZES, parsePageRequest } from '../../lib/pagination.ts';
import { listUsers, toProfile } from '../../lib/users.ts';

/** GET /users: active users, newest first. */
export const handler = endpoint(
  async (request) => {
    const pageRequest = parsePageRequest(request.query, PAGE_SIZES.users);
    const [, page] = await Promise.all([request.caller(), listUsers(pageRequest)]);
    return pagedResult(request, request.query, pageRequest, page, toProfile);
  },
  { auth: 'required' },
);

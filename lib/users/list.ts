import type { Item } from '#lib/db/batch.ts';
import { listPartitions } from '#lib/db/keys.ts';
import { queryPage } from '#lib/db/query.ts';
import { PAGE_SIZES, parsePageRequest, type ListedPage } from '#lib/pager.ts';

/** GET /users: active users, newest first, one page. */
export async function listUsers(query: Record<string, string | undefined>): Promise<ListedPage<Item>> {
  const request = parsePageRequest(query, PAGE_SIZES.users);
  return { params: query, request, page: await queryPage({ index: 'lists', partition: listPartitions.users }, request) };
}

import type { BatchResult, Item } from '#lib/db/batch.ts';
import { listPartitions, type Key } from '#lib/db/keys.ts';
import { queryPage } from '#lib/db/query.ts';
import { activeUsers, activeUsersKeys } from '#lib/profiles/profile.ts';
import { PAGE_SIZES, parsePageRequest, type ListedPage } from '#lib/pager.ts';

/** GET /users: active users, newest first, one page. */
export async function listUsers(query: Record<string, string | undefined>): Promise<ListedPage<Item>> {
  const request = parsePageRequest(query, PAGE_SIZES.users);
  return { params: query, request, page: await queryPage({ index: 'lists', partition: listPartitions.users }, request) };
}

/** What GET /users reads with the token: the count of active users. */
export function usersListReads(): Key[] {
  return activeUsersKeys();
}

/** The page with the number of active users, from usersListReads()'s read. */
export function withUsersTotal(read: BatchResult, listed: ListedPage<Item>): ListedPage<Item> {
  return { ...listed, total: activeUsers(read) };
}

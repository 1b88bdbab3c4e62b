import type { Item } from '#lib/db/batch.ts';
import { listPartitions } from '#lib/db/keys.ts';
import { queryPage } from '#lib/db/query.ts';
import { PAGE_SIZES, parsePageRequest, type ListedPage } from '#lib/pager.ts';

/** GET /tags: tags newest first, one page; `q` matches a part of the title, case-insensitively. */
export async function listTags(query: Record<string, string | undefined>): Promise<ListedPage<Item>> {
  const request = parsePageRequest(query, PAGE_SIZES.tags);
  const search = query.q;
  const page = await queryPage(
    {
      index: 'lists',
      partition: listPartitions.tags,
      ...(search
        ? { filter: { expression: 'contains(#title_lc, :q)', names: { '#title_lc': 'title_lc' }, values: { ':q': search.toLowerCase() } } }
        : {}),
    },
    request,
  );
  return { params: query, request, page };
}

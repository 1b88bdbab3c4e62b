import type { BatchResult, Item } from '#lib/db/batch.ts';
import { listPartitions, type Key } from '#lib/db/keys.ts';
import { queryPage } from '#lib/db/query.ts';
import { PAGE_SIZES, parsePageRequest, type ListedPage } from '#lib/pager.ts';
import { tagsTotal, tagsTotalKeys } from './tag.ts';

/** GET /tags: tags newest first, one page; `q` matches a part of the title, case-insensitively. */
export async function listTags(query: Record<string, string | undefined>): Promise<ListedPage<Item>> {
  const request = parsePageRequest(query, PAGE_SIZES.tags);
  const search = query.q;
  const page = await queryPage(
    {
      index: 'lists',
      partition: listPartitions.tags,
      ...(search ? { filter: { expression: 'contains(#title_lc, :q)', names: { '#title_lc': 'title_lc' }, values: { ':q': search.toLowerCase() } } } : {}),
    },
    request,
  );
  return { params: query, request, page };
}

/** What GET /tags reads with the token: the count of tags, unless `q` filters the list (then it has no total). */
export function tagsListReads(query: Record<string, string | undefined>): Key[] {
  return query.q ? [] : tagsTotalKeys();
}

/** The page with the number of tags when it lists them all, from tagsListReads()'s read. */
export function withTagsTotal(read: BatchResult, listed: ListedPage<Item>): ListedPage<Item> {
  return listed.params.q ? listed : { ...listed, total: tagsTotal(read) };
}

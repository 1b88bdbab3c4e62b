import { expect } from 'vitest';

// The `Link` header of a paged list (docs/api.md, Paging): one `rel="next"` link, or none on the last page.

export const NEXT_LINK = /^<([^>]+)>; rel="next"$/;

/** The URL of the next page named by a response's `Link` header; undefined on the last page. */
export function nextLink(response: { headers: Headers }): string | undefined {
  const header = response.headers.get('link');
  if (header === null) return undefined;
  const match = NEXT_LINK.exec(header);
  expect(match, header).not.toBeNull();
  return match![1];
}

/** What a search walk needs of a client: a GET of a path or a whole link, with a query. */
interface Getter {
  get(path: string, options?: { query?: Record<string, string> }): Promise<{ status: number; body: unknown; headers: Headers }>;
}

/** The slugs of each page of a post list, following its `Link`s from the first page to the last (at most `most` pages). */
export async function walkPages(client: Getter, path: string, query: Record<string, string>, most = 200): Promise<string[][]> {
  let response = await client.get(path, { query });
  expect(response.status).toBe(200);
  const slugsOf = (body: unknown) => (body as { slug: string }[]).map((post) => post.slug);
  const pages = [slugsOf(response.body)];
  for (let link = nextLink(response); link; link = nextLink(response)) {
    response = await client.get(link);
    expect(response.status).toBe(200);
    pages.push(slugsOf(response.body));
    expect(pages.length).toBeLessThan(most);
  }
  return pages;
}

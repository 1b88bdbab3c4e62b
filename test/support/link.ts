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

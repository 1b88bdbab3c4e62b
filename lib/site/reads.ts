// The API answers a server-rendered page was made from, handed to the app in the page (a JSON
// data block) so that it starts from the same content instead of an empty "Loading" state.
// Both sides name an answer by the API path it came from (under /api/v1) and its query.

/** An API answer as the page carries it: status, the headers the app reads, the JSON body. */
export interface PreloadedAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type PreloadedAnswers = Record<string, PreloadedAnswer>;

/** The name of an API read: `path?query` with the query's names sorted (`/posts?page=1&page_size=20&sort=newest&view=summary`). */
export function readKey(path: string, query: Record<string, string | number | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** Posts on a page of every list of the site. */
export const POSTS_PAGE_SIZE = 20;

/** Tags on a page of /tags. */
export const TAGS_PAGE_SIZE = 100;

/** The id of the data block holding the answers. */
export const PRELOADED_ID = 'preloaded';

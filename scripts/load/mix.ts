// The traffic mix of `npm run load`, and of the capacity model in docs/scale.md, which quotes
// this table as renderMix() prints it (test/unit/load-mix.test.ts checks that they agree).
// Shares are percent of requests, chosen to resemble a community site: mostly reading lists and
// posts, few writes.

export type Group = 'lists' | 'detail' | 'search' | 'reactions' | 'writes' | 'login' | 'other';

export interface MixEntry {
  /** The operation kind, as the load report names it. */
  kind: string;
  group: Group;
  /** Percent of all requests. */
  share: number;
  /** The request, as sent (PAGE is LIST_PAGE_SIZE). */
  request: string;
}

/** What a site's client asks for on a list: a screenful, not the contract's default of 100. */
export const LIST_PAGE_SIZE = 20;

export const MIX: readonly MixEntry[] = [
  { kind: 'front list, newest', group: 'lists', share: 24, request: 'GET /posts?page_size=PAGE' },
  { kind: 'front list, votes', group: 'lists', share: 6, request: 'GET /posts?sort=votes&page_size=PAGE' },
  { kind: 'front list, views', group: 'lists', share: 4, request: 'GET /posts?sort=views&page_size=PAGE' },
  { kind: 'front list, featured', group: 'lists', share: 4, request: 'GET /posts?sort=featured&page_size=PAGE' },
  { kind: 'front list, active', group: 'lists', share: 2, request: 'GET /posts?sort=active&page_size=PAGE' },
  { kind: 'front list, page 2 (Link)', group: 'lists', share: 2, request: 'GET /posts?page_size=PAGE&cursor=… (the Link of page 1)' },
  { kind: 'tagged list', group: 'lists', share: 11, request: 'GET /posts/tagged/{tag}?page_size=PAGE' },
  { kind: 'author list', group: 'lists', share: 5, request: 'GET /posts/author/{user}?page_size=PAGE' },
  { kind: 'own posts', group: 'lists', share: 2, request: 'GET /posts/me?page_size=PAGE' },
  { kind: 'post detail, first visit', group: 'detail', share: 8, request: 'GET /posts/detail/{slug} by a user who has not read it' },
  { kind: 'post detail, repeat visit', group: 'detail', share: 12, request: 'GET /posts/detail/{slug} by a user who has' },
  { kind: 'search, front list', group: 'search', share: 6, request: 'GET /posts?q={word}&page_size=PAGE' },
  { kind: 'search, tagged list', group: 'search', share: 2, request: 'GET /posts/tagged/{tag}?q={word}&page_size=PAGE' },
  { kind: 'vote', group: 'reactions', share: 3, request: 'POST /posts/detail/{slug}/vote (up or down: new, switched or repeated)' },
  { kind: 'favorite or unfavorite', group: 'reactions', share: 2, request: 'POST or DELETE /posts/detail/{slug}/favorite' },
  { kind: 'post create', group: 'writes', share: 2, request: 'POST /posts (~1.5 KB, 1-3 known tags, published)' },
  { kind: 'post update', group: 'writes', share: 1, request: 'PUT /posts/detail/{slug} by its author (new description)' },
  { kind: 'login', group: 'login', share: 2, request: 'POST /login' },
  { kind: 'tags list', group: 'other', share: 0.5, request: 'GET /tags' },
  { kind: 'user detail', group: 'other', share: 0.5, request: 'GET /users/detail/{user}' },
  { kind: "a user's favorites", group: 'other', share: 0.5, request: 'GET /users/detail/{user}/favorites?page_size=PAGE' },
  { kind: 'RSS feed', group: 'other', share: 0.5, request: 'GET /feed (no token)' },
];

export const MIX_TOTAL = MIX.reduce((sum, entry) => sum + entry.share, 0);

/** The mix entry a number in [0, 1) falls on, each taking its share of the interval. */
export function pickEntry(unit: number): MixEntry {
  let point = unit * MIX_TOTAL;
  for (const entry of MIX) {
    if (point < entry.share) return entry;
    point -= entry.share;
  }
  return MIX[MIX.length - 1]!;
}

/** The mix as the Markdown table that docs/scale.md quotes. */
export function renderMix(): string[] {
  const lines = ['| operation kind | group | share | request |', '|---|---|---|---|'];
  for (const entry of MIX) lines.push(`| ${entry.kind} | ${entry.group} | ${entry.share}% | \`${entry.request.replaceAll('PAGE', String(LIST_PAGE_SIZE))}\` |`);
  return lines;
}

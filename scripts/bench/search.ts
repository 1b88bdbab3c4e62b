import { measureRequest, seedPosts, type RequestFigures, type SeedFigures } from './paging.ts';
import type { BenchStack } from './stack.ts';

// Part 5: search (`q` on GET /posts) at 1,000, 10,000 and 100,000 posts, each size seeded straight
// into a fresh table (paging.ts seedPosts: the posts' items and their search postings). The posts
// are small in words (a title `Bench post <i>` and a description of one to three words: four
// postings a post, five or six with a searched word), so that 100,000 of them load in minutes.

export const SEARCH_SIZES = [1_000, 10_000, 100_000] as const;

/** How many posts carry the rare word, at every size: what its search returns stays the same. */
export const RARE_MATCHES = 30;
/** One post in COMMON_EVERY carries the common word: its matches grow with the site. */
export const COMMON_EVERY = 100;

/**
 * The words searched for. A search reads the index partition of its word's first letter
 * (lib/db/keys.ts postingPartition), and on a real site every letter's partition holds frequent
 * words: these share `s` with `seeded`, which every post carries, so that each search reads a
 * range of a partition that grows with the site. `absent` begins no word.
 */
export const SEARCH_WORDS = { rare: 'sandpiper', common: 'skylark', absent: 'sparrow' } as const;

/** The rows measured at each size, by their names in the report. */
export const SEARCH_ROWS = {
  rare: `q=${SEARCH_WORDS.rare} (${RARE_MATCHES} posts match at every size)`,
  rareByViews: `q=${SEARCH_WORDS.rare}&sort=views (${RARE_MATCHES} posts match)`,
  common: `q=${SEARCH_WORDS.common} (1 post in ${COMMON_EVERY} matches)`,
  absent: `q=${SEARCH_WORDS.absent} (no post matches)`,
} as const;

/** Unmeasured passes over the requests of a size before its measured ones. */
const WARM_UP_PASSES = 5;

export interface SearchResults {
  rows: RequestFigures[];
  seeds: SeedFigures[];
}

/** Whether post `i` of `count` carries the rare word: RARE_MATCHES posts spread evenly over the site. */
function carriesRare(i: number, count: number): boolean {
  const step = Math.max(1, Math.floor(count / RARE_MATCHES));
  return i % step === 0 && i / step < RARE_MATCHES;
}

/** The description of post `i` of `count`: `Seeded`, and the searched words it carries. */
export function searchDescription(i: number, count: number): string {
  const words = ['Seeded'];
  if (carriesRare(i, count)) words.push(SEARCH_WORDS.rare);
  if (i % COMMON_EVERY === COMMON_EVERY / 2) words.push(SEARCH_WORDS.common);
  return `${words.join(' ')}.`;
}

export async function measureSearch(
  stack: BenchStack,
  repeats: number,
  sizes: readonly number[] = SEARCH_SIZES,
  progress: (message: string) => void = () => undefined,
): Promise<SearchResults> {
  const rows: RequestFigures[] = [];
  const seeds: SeedFigures[] = [];
  for (const posts of sizes) {
    await stack.freshTable();
    const user = await stack.login();
    const seed = await seedPosts(posts, user.username, (i) => searchDescription(i, posts), progress);
    seeds.push(seed);
    progress(`${posts.toLocaleString('en-US')} posts seeded (${seed.items.toLocaleString('en-US')} items) in ${seed.seconds.toFixed(1)} s`);
    const requests: [name: string, query: string][] = [
      [SEARCH_ROWS.rare, `q=${SEARCH_WORDS.rare}`],
      [SEARCH_ROWS.rareByViews, `q=${SEARCH_WORDS.rare}&sort=views`],
      [SEARCH_ROWS.common, `q=${SEARCH_WORDS.common}`],
      [SEARCH_ROWS.absent, `q=${SEARCH_WORDS.absent}`],
    ];
    const url = (query: string) => `${stack.server.url}/posts?${query}`;
    // Unmeasured passes first: each size has a new emulator, cold after a bulk load (its JIT, its heap).
    for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
      for (const [, query] of requests) {
        const response = await fetch(url(query), { headers: { Authorization: `Token ${user.token}` } });
        if (response.status !== 200) throw new Error(`${url(query)}: ${response.status}`);
        await response.arrayBuffer();
      }
    }
    for (const [name, query] of requests) rows.push(await measureRequest(name, posts, url(query), user.token, repeats));
    const rare = rows.find((row) => row.posts === posts && row.name === SEARCH_ROWS.rare)!;
    if (rare.items !== RARE_MATCHES) throw new Error(`${posts} posts: q=${SEARCH_WORDS.rare} found ${rare.items} posts, not ${RARE_MATCHES}`);
  }
  return { rows, seeds };
}

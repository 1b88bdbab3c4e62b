import { slugify } from '../../../lib/slugs/slugify.ts';
import { readKey } from '../../../lib/site/reads.ts';
import { takePreloaded } from '../preloaded.ts';
import { api, nextPage, outcome } from './client.ts';

// A post names its tags by title; the tag pages are addressed by slug. A title's slug is, most
// often, the API's own derivation of it (lib/slugs/slugify.ts, the same code): one read of that
// tag, whose title says whether it is this one. A tag whose slug was chosen at its creation, or
// got a `-1` because another title took the base, is found by searching its title. So a post
// costs a request per tag, whatever the number of the site's tags. A tag's slug never changes:
// what was found is kept for the page's life.

/** Pages of a title search to read at most (each up to 100 tags whose titles contain it). */
const SEARCH_PAGES = 5;

const found = new Map<string, Promise<string | undefined>>();

async function search(title: string, key: string): Promise<string | undefined> {
  let query: { q: string; page_size: number; page?: number; cursor?: string } = { q: title, page_size: 100 };
  for (let read = 0; read < SEARCH_PAGES; read++) {
    const result = await outcome(() => api.GET('/tags', { params: { query } }));
    if (!result.ok) return undefined;
    const tag = result.data.find((candidate) => candidate.title.toLowerCase() === key);
    if (tag) return tag.slug;
    const next = nextPage(result.response);
    if (!next) return undefined;
    query = { ...query, ...next };
  }
  return undefined;
}

async function lookUp(title: string, key: string): Promise<string | undefined> {
  const guess = slugify(title);
  if (guess) {
    const result = await outcome(() => api.GET('/tags/detail/{slug}', { params: { path: { slug: guess } } }));
    if (result.ok && result.data.title.toLowerCase() === key) return result.data.slug;
    // No answer (offline, a 5xx): no link this time, and another page asks again.
    if (!result.ok && result.failure.kind !== 'not-found') return undefined;
  }
  return search(title, key);
}

/** The slug of a tag by its title, or undefined when it cannot be found now. */
function slugOf(title: string): Promise<string | undefined> {
  const key = title.toLowerCase();
  let slug = found.get(key);
  if (!slug) {
    slug = lookUp(title, key);
    found.set(key, slug);
    slug.then((known) => known ?? found.delete(key));
  }
  return slug;
}

/** The API read that finds most tags of a title (its slug derived from the title), as the server preloads it. */
export function tagReadKey(title: string): string {
  return readKey(`/tags/detail/${encodeURIComponent(slugify(title))}`);
}

/** Title (lower case) to slug, of the titles whose tag the server read for this page (web/src/preloaded.ts). */
export function preloadedTagSlugs(titles: string[]): Map<string, string> {
  const slugs = new Map<string, string>();
  for (const title of titles) {
    const answer = takePreloaded(tagReadKey(title));
    const tag = answer?.status === 200 ? (answer.body as { title?: unknown; slug?: unknown }) : undefined;
    const key = title.toLowerCase();
    if (typeof tag?.title === 'string' && typeof tag.slug === 'string' && tag.title.toLowerCase() === key) {
      slugs.set(key, tag.slug);
      found.set(key, Promise.resolve(tag.slug));
    }
  }
  return slugs;
}

/** Title (lower case) to slug, for the titles given; a title not found is left out. */
export async function tagSlugs(titles: string[]): Promise<Map<string, string>> {
  const slugs = await Promise.all(titles.map(async (title) => [title.toLowerCase(), await slugOf(title)] as const));
  return new Map(slugs.filter((entry): entry is readonly [string, string] => entry[1] !== undefined));
}

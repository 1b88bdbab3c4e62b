import { api, outcome } from './client.ts';

// A post names its tags by title; the tag pages are addressed by slug. The slugs of the titles a
// page shows, from the tag list (one request for up to 500 tags), else by searching the title.

let known: Promise<Map<string, string>> | undefined;

async function allTags(): Promise<Map<string, string>> {
  const result = await outcome(() => api.GET('/tags', { params: { query: { page_size: 500 } } }));
  const map = new Map<string, string>();
  if (result.ok) for (const tag of result.data) map.set(tag.title.toLowerCase(), tag.slug);
  return map;
}

/** Title (lower case) to slug, for the titles given; a title not found is left out. */
export async function tagSlugs(titles: string[]): Promise<Map<string, string>> {
  known ??= allTags();
  const map = await known;
  const missing = titles.filter((title) => !map.has(title.toLowerCase()));
  await Promise.all(
    missing.map(async (title) => {
      const result = await outcome(() => api.GET('/tags', { params: { query: { q: title, page_size: 500 } } }));
      if (!result.ok) return;
      const tag = result.data.find((t) => t.title.toLowerCase() === title.toLowerCase());
      if (tag) map.set(tag.title.toLowerCase(), tag.slug);
    }),
  );
  return map;
}

/** Forget the slugs (a post just created tags). */
export function forgetTagSlugs(): void {
  known = undefined;
}

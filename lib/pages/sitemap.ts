import { batchGet, type Item } from '#lib/db/batch.ts';
import { keyOf, listPartitions, postModifiedOfActive, sortKeyMonth } from '#lib/db/keys.ts';
import { listRangePages, type ListQuery } from '#lib/db/query.ts';
import { INDEXES, PARTITION_KEY, SORT_KEY } from '#lib/db/table.ts';
import { xmlText } from '#lib/feed/xml.ts';

// The sitemap (spec site-pages §6): /sitemap.xml is always an index of children under /sitemaps/.
//
// - `pages.xml`: `/` and `/tags`.
// - `posts-YYYY-MM.xml`: the published posts created in that month (UTC), each with its `lastmod`.
//   A post's child is fixed by its creation time. Read from the `POSTS` list's entries (by
//   creation, one `begins_with` Query range), then the same entries' table items for `modified`
//   (their `ActiveSK`): no post text, no summary.
// - `tags-YYYY-MM.xml`: the tags created in that month that carry a published post (`total_posts`).
// - `profiles-YYYY-MM.xml`: the active users who joined in that month and have a published post
//   (their profile's `total_posts` counts published posts).
//
// The index lists a month's child only when it holds a URL: it reads each list's first and last
// entry, then one small probe per month in between (docs/data-model.md, "The sitemap").

/** The sitemaps.org protocol's limits of one file: URLs, and bytes uncompressed. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Probes of the index sent at once (one per month and kind). */
const PROBES_IN_FLIGHT = 16;
/** Items a filtered probe reads per call (before its filter), until one matches. */
const FILTERED_PROBE_PAGE = 100;
/** Entries of the posts list read per call when building a child: the table reads that follow are one BatchGetItem round per page. */
const POSTS_PAGE = 1000;

interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

const hasPublishedPost = { expression: '#total > :zero', names: { '#total': 'total_posts' }, values: { ':zero': 0 } };

/** A kind of monthly child: the list it is cut from, and the URLs of one page of its items. */
interface MonthlyKind {
  name: 'posts' | 'tags' | 'profiles';
  list: ListQuery;
  urls(items: Item[], origin: string): Promise<SitemapUrl[]>;
}

const KINDS: readonly MonthlyKind[] = [
  {
    name: 'posts',
    list: { index: 'postsByCreated', partition: listPartitions.posts },
    urls: async (items, origin) => {
      // The index holds the entry's slug but not its `modified`: the entries' own items (about 300
      // bytes each) do, in ActiveSK. An entry gone since the Query (unpublished, deleted) is left out.
      const read = await batchGet(items.map(keyOf), [PARTITION_KEY, SORT_KEY, 'slug', INDEXES.postsByActive.sortKey], { consistent: false });
      const urls: SitemapUrl[] = [];
      for (const item of items) {
        const entry = read.get(keyOf(item));
        if (typeof entry?.slug !== 'string') continue;
        const modified = postModifiedOfActive(String(entry[INDEXES.postsByActive.sortKey] ?? ''));
        const lastmod = modified === undefined ? undefined : w3cSeconds(modified);
        urls.push({ loc: `${origin}/posts/${encodeURIComponent(entry.slug)}`, ...(lastmod ? { lastmod } : {}) });
      }
      return urls;
    },
  },
  {
    name: 'tags',
    list: { index: 'lists', partition: listPartitions.tags, filter: hasPublishedPost },
    urls: (items, origin) =>
      Promise.resolve(items.filter((tag) => typeof tag.slug === 'string').map((tag) => ({ loc: `${origin}/tags/${encodeURIComponent(String(tag.slug))}` }))),
  },
  {
    name: 'profiles',
    list: { index: 'lists', partition: listPartitions.users, filter: hasPublishedPost },
    urls: (items, origin) =>
      Promise.resolve(
        items.filter((user) => typeof user.username === 'string').map((user) => ({ loc: `${origin}/users/${encodeURIComponent(String(user.username))}` })),
      ),
  },
];

const PAGES_CHILD = 'pages.xml';
const MONTHLY_CHILD = /^(posts|tags|profiles)-(\d{4})-(0[1-9]|1[0-2])\.xml$/;
const childName = (kind: MonthlyKind, month: string) => `${kind.name}-${month}.xml`;

/** The origin without a trailing slash: every URL is `{origin}{path}`. */
const originOf = (origin: string) => origin.replace(/\/+$/, '');

/**
 * A stored timestamp (`2026-01-05T14:12:15.258987+00:00`) as the W3C datetime of a sitemap, to the
 * second: `2026-01-05T14:12:15+00:00`. Undefined for a value that is not a timestamp.
 */
export function w3cSeconds(timestamp: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(timestamp);
  if (match) return `${match[1]}T${match[2]}${match[3] === 'Z' ? '+00:00' : match[3]}`;
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? undefined : `${date.toISOString().slice(0, 19)}+00:00`;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Every month from `first` to `last` (`YYYY-MM`, both included); none when either is not a month. */
function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  if (!MONTH.test(first) || !MONTH.test(last)) return months;
  let [year, month] = first.split('-').map(Number) as [number, number];
  for (let at = `${first}`; at <= last;) {
    months.push(at);
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
    at = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
  }
  return months;
}

async function mapInFlight<T, R>(values: readonly T[], inFlight: number, run: (value: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(values.length);
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < values.length; at = next++) results[at] = await run(values[at]!);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, values.length) }, worker));
  return results;
}

/** The month of the first (or last) item of a kind's list, filter aside: one Query, `Limit 1`. */
async function endMonth(kind: MonthlyKind, forward: boolean): Promise<string | undefined> {
  const list: ListQuery = { index: kind.list.index, partition: kind.list.partition };
  for await (const page of listRangePages(list, { forward, limit: 1 })) {
    const item = page[0];
    if (item) return sortKeyMonth.of(String(item[INDEXES[list.index].sortKey]));
  }
  return undefined;
}

/** Whether a kind's month holds a URL: its first item (matching the filter), read a small page at a time. */
async function monthHasUrl(kind: MonthlyKind, month: string): Promise<boolean> {
  const limit = kind.list.filter ? FILTERED_PROBE_PAGE : 1;
  for await (const page of listRangePages(kind.list, { beginsWith: sortKeyMonth.prefix(month), limit })) if (page.length > 0) return true;
  return false;
}

/** The months of a kind that hold a URL now, oldest first. */
async function monthsWithUrls(kind: MonthlyKind): Promise<string[]> {
  const [first, last] = await Promise.all([endMonth(kind, true), endMonth(kind, false)]);
  if (first === undefined || last === undefined) return [];
  const months = monthsBetween(first, last);
  const found = await mapInFlight(months, PROBES_IN_FLIGHT, (month) => monthHasUrl(kind, month));
  return months.filter((_, at) => found[at]);
}

/** The names of the sitemap's children now (under /sitemaps/): `pages.xml`, then each kind's months that hold a URL. */
export async function sitemapChildren(): Promise<string[]> {
  const months = await Promise.all(KINDS.map(monthsWithUrls));
  return [PAGES_CHILD, ...KINDS.flatMap((kind, at) => months[at]!.map((month) => childName(kind, month)))];
}

/** `/sitemap.xml`: the sitemap index (sitemaps.org 0.9) of the children under `{origin}/sitemaps/`. */
export async function sitemapIndexXml(origin: string): Promise<string> {
  const base = originOf(origin);
  const children = await sitemapChildren();
  const entries = children.map((name) => `<sitemap><loc>${xmlText(`${base}/sitemaps/${name}`)}</loc></sitemap>\n`).join('');
  return `${XML_DECLARATION}<sitemapindex xmlns="${NAMESPACE}">\n${entries}</sitemapindex>\n`;
}

function urlElement({ loc, lastmod }: SitemapUrl): string {
  return `<url><loc>${xmlText(loc)}</loc>${lastmod ? `<lastmod>${xmlText(lastmod)}</lastmod>` : ''}</url>\n`;
}

/** A urlset of at most SITEMAP_MAX_URLS URLs and SITEMAP_MAX_BYTES bytes: those past either limit are left out. */
function urlsetXml(urls: readonly SitemapUrl[]): string {
  const head = `${XML_DECLARATION}<urlset xmlns="${NAMESPACE}">\n`;
  const tail = '</urlset>\n';
  let bytes = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const parts: string[] = [];
  for (const url of urls.slice(0, SITEMAP_MAX_URLS)) {
    const part = urlElement(url);
    bytes += Buffer.byteLength(part);
    if (bytes > SITEMAP_MAX_BYTES) break;
    parts.push(part);
  }
  return `${head}${parts.join('')}${tail}`;
}

/** The URLs of a kind's month, oldest first, at most SITEMAP_MAX_URLS: a paginated Query of that month's range alone. */
async function monthUrls(kind: MonthlyKind, month: string, origin: string): Promise<SitemapUrl[]> {
  const urls: SitemapUrl[] = [];
  const limit = kind.name === 'posts' ? POSTS_PAGE : undefined;
  for await (const page of listRangePages(kind.list, { beginsWith: sortKeyMonth.prefix(month), ...(limit ? { limit } : {}) })) {
    urls.push(...(await kind.urls(page.slice(0, SITEMAP_MAX_URLS - urls.length), origin)));
    if (urls.length >= SITEMAP_MAX_URLS) break;
  }
  return urls;
}

/**
 * `/sitemaps/{name}`: the child sitemap (a urlset, sitemaps.org 0.9), or undefined (404) for a name
 * that is not a child: not one of the names the index can list, or a month holding no URL now.
 */
export async function sitemapXml(name: string, origin: string): Promise<string | undefined> {
  const base = originOf(origin);
  if (name === PAGES_CHILD) return urlsetXml([{ loc: `${base}/` }, { loc: `${base}/tags` }]);
  const match = MONTHLY_CHILD.exec(name);
  if (!match) return undefined;
  const kind = KINDS.find((candidate) => candidate.name === match[1])!;
  const urls = await monthUrls(kind, `${match[2]}-${match[3]}`, base);
  return urls.length === 0 ? undefined : urlsetXml(urls);
}

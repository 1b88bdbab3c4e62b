import { batchGet } from '#lib/db/batch.ts';
import { EMPTY_BODY } from '#lib/http/body.ts';
import { entityTag, type Validators } from '#lib/http/conditional.ts';
import { openPostList } from '#lib/lists/list.ts';
import { POST_LISTS } from '#lib/lists/post-lists.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { tagDetail, tagDetailReads } from '#lib/tags/detail.ts';
import { rssDocument } from './document.ts';
import { feedLinks } from './links.ts';
import { latestFeedRemoval } from '#lib/posts/feed-removals.ts';
import { nowMs } from '#lib/time.ts';
import { siteName } from '#lib/config.ts';

// GET /feed: the 20 newest published posts (of one tag with ?tag=) as RSS 2.0. Read as page 1 of
// GET /posts (or /posts/tagged/{slug}) with the feed's size, in two round trips: the list's
// entries, the tag and the newest removal from the feeds in parallel, then the posts.

/** Posts in a feed. */
export const FEED_SIZE = 20;

/** A feed document with its validators. */
export interface Feed extends Validators {
  xml: string;
}

/** Started now, awaited later: a rejection left unawaited (after another read failed) is not unhandled. */
function started<T>(step: () => Promise<T>): Promise<T> {
  const promise = new Promise<T>((resolve) => resolve(step()));
  promise.catch(() => undefined);
  return promise;
}

/**
 * How long after a removal the document may still change by it: the list is read from an index
 * and the posts eventually consistent, which on AWS may show a removed post for a moment.
 */
const REMOVAL_SETTLES_MS = 1000;

const parsed = (iso: string | undefined) => {
  const ms = iso === undefined ? NaN : Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
};

/**
 * The document's dates. Its content last changed at its posts' newest `modified`, or at the newest
 * removal of a post from the feeds (which no listed post's `modified` shows). A copy is current
 * for an If-Modified-Since from the second of the newest `modified` on (as HTTP compares), but
 * only from the whole second after a removal has settled: a copy fetched in the second of a
 * removal, or before it settled, may predate it. Last-Modified is never in the future.
 */
function dates(posts: readonly PostRecord[], removal: string | undefined, now: number) {
  const modified = Math.max(0, ...posts.map((post) => parsed(post.modified)));
  const removed = parsed(removal);
  const changed = Math.max(modified, removed);
  const currentSince = Math.max(Math.floor(modified / 1000) * 1000, removed === 0 ? 0 : Math.ceil((removed + REMOVAL_SETTLES_MS) / 1000) * 1000);
  return { changed, lastModified: Math.min(now, currentSince), currentSince };
}

/** The feed of every published post, or of the tag `tagSlug` (unknown: 404), for the API at `base`. */
export async function readFeed(tagSlug: string | undefined, base: string): Promise<Feed> {
  const list = openPostList(tagSlug === undefined ? POST_LISTS.all() : POST_LISTS.tagged(tagSlug), { page_size: String(FEED_SIZE) }, EMPTY_BODY);
  const tagRead = tagSlug === undefined ? undefined : started(() => batchGet(tagDetailReads(tagSlug)));
  const removal = started(() => latestFeedRemoval());
  const tag = tagSlug === undefined ? undefined : tagDetail(await tagRead!, tagSlug);
  const posts = (await list.read()).page.items.slice(0, FEED_SIZE);
  const { changed, lastModified, currentSince } = dates(posts, await removal, nowMs());
  const tagTitle = tag === undefined ? undefined : String(tag.title);
  const xml = rssDocument(
    {
      title: tagTitle === undefined ? siteName() : `${siteName()}: ${tagTitle}`,
      description: tagTitle === undefined ? 'The newest published posts.' : `The newest published posts tagged ${tagTitle}.`,
      links: feedLinks(base, tagSlug),
      lastBuildDate: changed,
    },
    posts,
  );
  return { xml, etag: entityTag(xml), lastModified, currentSince };
}

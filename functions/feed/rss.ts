import { readFeed } from '#lib/feed/rss.ts';
import { conditionalResult } from '#lib/http/conditional.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { requestBase } from '#lib/http/request.ts';

const FEED_HEADERS = { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'no-cache' };

/**
 * GET /feed: the newest published posts as RSS 2.0 (`?tag=<slug>`: of one tag). No token needed:
 * an Authorization header is not looked at. A conditional request whose copy is current gets 304.
 */
export const handler = endpoint({
  auth: 'none',
  parseBody: false,
  handler: async ({ event, query }) => {
    const feed = await readFeed(query.tag, requestBase(event));
    return conditionalResult(event.headers ?? {}, feed, { status: 200, headers: FEED_HEADERS, raw: { data: feed.xml } });
  },
});

import type { PostRecord } from '#lib/posts/post.ts';
import { element } from './xml.ts';
import type { FeedLinks } from './links.ts';

// The RSS 2.0 document, written as Django's Rss201rev2Feed writes it: the Atom namespace on
// <rss> for the self link, and the Dublin Core namespace declared on each <dc:creator>.

const ATOM = 'http://www.w3.org/2005/Atom';
const DUBLIN_CORE = 'http://purl.org/dc/elements/1.1/';

/** How much of a description stands for a post without a meta_description: code points, not UTF-16 units. */
export const SUMMARY_CHARACTERS = 300;

export interface Channel {
  title: string;
  description: string;
  links: FeedLinks;
  /** Milliseconds: the feed's Last-Modified. */
  lastBuildDate: number;
}

/** An RFC 822 date, as Django writes it (`Mon, 05 Jan 2026 14:12:15 +0000`). */
export function rfc822(ms: number): string {
  return new Date(ms).toUTCString().replace(/GMT$/, '+0000');
}

/** The post's meta_description, or the start of its description when it has none. */
export function summary(post: PostRecord): string {
  if (post.meta_description !== null && post.meta_description.trim() !== '') return post.meta_description;
  return Array.from(post.description).slice(0, SUMMARY_CHARACTERS).join('');
}

function item(post: PostRecord, links: FeedLinks): string {
  const link = links.post(post.slug);
  return [
    '<item>',
    element('title', post.title),
    element('link', link),
    element('description', summary(post)),
    element('dc:creator', post.author, { 'xmlns:dc': DUBLIN_CORE }),
    element('pubDate', rfc822(Date.parse(post.created))),
    element('guid', link),
    ...post.tags.map((tag) => element('category', tag)),
    '</item>',
  ].join('');
}

/** The document: the channel, then its posts in the order given. */
export function rssDocument(channel: Channel, posts: readonly PostRecord[]): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>\n',
    `<rss version="2.0" xmlns:atom="${ATOM}">`,
    '<channel>',
    element('title', channel.title),
    element('link', channel.links.channel),
    element('description', channel.description),
    element('atom:link', '', { href: channel.links.self, rel: 'self' }),
    element('lastBuildDate', rfc822(channel.lastBuildDate)),
    ...posts.map((post) => item(post, channel.links)),
    '</channel>',
    '</rss>',
  ].join('');
}

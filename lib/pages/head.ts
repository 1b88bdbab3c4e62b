import { html, jsonBlock } from './escape.ts';

// The head of a page (docs/site.md, "What a page holds"): its title and description, the links
// and Open Graph, Twitter and article tags that link previews and crawlers read, the feeds, and
// the one JSON-LD block of a post.

export type OgType = 'website' | 'article' | 'profile';

export interface Head {
  /** The `<title>`: the page's subject, then ` · ` and the site's name (the home page: the name alone). */
  subject: string | null;
  description: string;
  ogType: OgType;
  /** `{origin}{path}`, the path with its parameters encoded: the canonical URL and og:url. */
  canonical: string;
  /** `noindex`: a robots meta in the head. */
  noindex: boolean;
  /** Extra `<meta property>` tags, in order (article:*, profile:username). */
  properties?: [string, string][];
  /** Feeds besides the site's: a tag's. */
  feeds?: { title: string; href: string }[];
  /** The page's JSON-LD (a post's Article). */
  jsonLd?: unknown;
}

/** The `<title>` text of a page. */
export function titleOf(subject: string | null, siteName: string): string {
  return subject === null ? siteName : `${subject} · ${siteName}`;
}

const meta = (attribute: 'name' | 'property', key: string, content: string) => `<meta ${attribute}="${key}" content="${html(content)}">`;

/** The head's HTML for `head`, on a site named `siteName`. */
export function headHtml(head: Head, siteName: string): string {
  const ogTitle = head.subject ?? siteName;
  const lines = [
    `<title>${html(titleOf(head.subject, siteName))}</title>`,
    meta('name', 'description', head.description),
    meta('name', 'application-name', siteName),
    ...(head.noindex ? [meta('name', 'robots', 'noindex')] : []),
    `<link rel="canonical" href="${html(head.canonical)}">`,
    `<link rel="alternate" type="application/rss+xml" title="${html(siteName)}" href="/api/v1/feed">`,
    ...(head.feeds ?? []).map((feed) => `<link rel="alternate" type="application/rss+xml" title="${html(feed.title)}" href="${html(feed.href)}">`),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:type', head.ogType),
    meta('property', 'og:title', ogTitle),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', head.canonical),
    ...(head.properties ?? []).map(([key, content]) => meta('property', key, content)),
    meta('name', 'twitter:card', 'summary'),
    meta('name', 'twitter:title', ogTitle),
    meta('name', 'twitter:description', head.description),
    ...(head.jsonLd === undefined ? [] : [`<script type="application/ld+json">${jsonBlock(head.jsonLd)}</script>`]),
  ];
  return lines.join('\n    ');
}

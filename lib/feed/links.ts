import { siteUrl } from '#lib/config.ts';
import { API_PREFIX } from '#lib/routes.ts';

// The addresses a feed names, from the API's base as the request reached it (lib/http/request.ts,
// requestBase: never a host the client chose).

export interface FeedLinks {
  /** A post's link and guid. */
  post(slug: string): string;
  /** The channel's link: the site, or the API list the feed mirrors. */
  channel: string;
  /** The feed's own address (atom:link rel="self"). */
  self: string;
}

/** The links of the feed of all posts (or of the tag `tagSlug`) served from `base`. */
export function feedLinks(base: string, tagSlug?: string): FeedLinks {
  const site = siteUrl();
  const api = `${base}${API_PREFIX}`;
  const tag = tagSlug === undefined ? undefined : encodeURIComponent(tagSlug);
  return {
    post: (slug) => (site ? `${site}/posts/${encodeURIComponent(slug)}` : `${api}/posts/detail/${encodeURIComponent(slug)}`),
    channel: site ? `${site}/` : tag === undefined ? `${api}/posts` : `${api}/posts/tagged/${tag}`,
    self: tag === undefined ? `${api}/feed` : `${api}/feed?tag=${tag}`,
  };
}

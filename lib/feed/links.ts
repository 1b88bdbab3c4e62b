import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { siteUrl } from '#lib/config.ts';
import { API_PREFIX } from '#lib/routes.ts';

// The addresses a feed names. A feed reader keeps them, so they come from what API Gateway says
// the request was for (requestContext.domainName: the API's own or custom domain), never from a
// client's X-Forwarded-Host; the scheme is API Gateway's X-Forwarded-Proto (https on AWS).

/** `scheme://host` of the API as the request reached it. */
export function requestBase(event: APIGatewayProxyEventV2): string {
  const host = event.requestContext?.domainName || event.headers?.host || 'localhost';
  const proto = event.headers?.['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  return `${proto}://${host}`;
}

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

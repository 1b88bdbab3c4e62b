import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { publicCacheSeconds, publicReads, siteName, siteUrl } from '#lib/config.ts';
import { describeError, log } from '#lib/log.ts';
import { withBudget } from '#lib/retry.ts';
import { emptyUsage, withDynamoUsage } from '#lib/db/usage.ts';
import { entityTag, noneMatch } from '#lib/http/conditional.ts';
import { SITE_NOINDEX_HEADERS } from '#lib/site/headers.ts';
import { DISTRIBUTION_DOMAIN_HEADER } from '#lib/site/origin.ts';
import { APP_QUERY_PARAMETERS, matchRoute } from '#lib/site/routes.ts';
import { pageData, notFoundPage, siteDescription, type PageContext } from './data.ts';
import { pageDocument } from './document.ts';
import { headHtml, type Head } from './head.ts';
import { renderApp, pageTemplate } from './render.ts';
import { robotsTxt } from './robots.ts';
import { sitemapIndexXml, sitemapXml } from './sitemap.ts';

// The answer of the page function (docs/site.md, "Pages for crawlers and link previews"): the
// path's page, 301 or 404, the sitemap and robots.txt; its caching and validation headers. What
// the distribution adds (compression, the security headers) it adds to every answer alike.

type Result = APIGatewayProxyStructuredResultV2;

interface Answer {
  status: number;
  type: string;
  body: string;
  noindex?: boolean;
  location?: string;
}

const HTML = 'text/html; charset=utf-8';

/** The longest a shared cache keeps a page: edits show within it (s-maxage). */
export const PAGE_CACHE_LIMIT_SECONDS = 30;

/** Cache-Control of every answer: shared caches keep it P = min(publicCacheSeconds, 30) seconds, browsers revalidate. */
export function pageCacheControl(): string {
  const seconds = Math.min(publicCacheSeconds(), PAGE_CACHE_LIMIT_SECONDS);
  return seconds === 0 ? 'public, no-cache' : `public, max-age=0, s-maxage=${seconds}`;
}

const HOST = /^[a-z0-9.-]+(:[0-9]{1,5})?$/i;

/** The site's address: the settings', else the distribution's as CloudFront's function gives it (never the viewer's Host). */
function originOf(event: APIGatewayProxyEventV2): string {
  const configured = siteUrl();
  if (configured) return configured;
  const domain = event.headers?.[DISTRIBUTION_DOMAIN_HEADER];
  if (domain && HOST.test(domain)) return `https://${domain}`;
  throw new Error(`No site address: set SITE_URL, or serve the pages through the distribution (${DISTRIBUTION_DOMAIN_HEADER}).`);
}

/** The app's shell: the page the app renders in the browser, never indexed. */
async function shell(context: PageContext, status = 200): Promise<Answer> {
  const head: Head = {
    subject: null,
    description: siteDescription(context.siteName),
    ogType: 'website',
    canonical: `${context.origin}${context.path}`,
    noindex: true,
  };
  return { status, type: HTML, body: pageDocument(await pageTemplate(), headHtml(head, context.siteName)), noindex: true };
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The page of a path (its route, or none: the 404 page). */
async function rendered(url: string, context: PageContext, match: ReturnType<typeof matchRoute>): Promise<Answer> {
  const data = match ? await pageData(match, context) : notFoundPage(context);
  if (data.kind === 'moved') return { status: 301, type: HTML, body: '', location: data.location };
  // The app's router decodes the path: one that does not decode is rendered as any unknown path.
  const [template, app] = await Promise.all([pageTemplate(), renderApp(decodes(url) ? url : '/404', data.answers, context.siteName)]);
  return {
    status: data.status,
    type: HTML,
    body: pageDocument(template, headHtml(data.head, context.siteName), { html: app, answers: data.answers }),
    noindex: data.head.noindex,
  };
}

async function answerOf(event: APIGatewayProxyEventV2): Promise<Answer> {
  const context: PageContext = { origin: originOf(event), siteName: siteName(), path: event.rawPath };
  const path = event.rawPath;
  const query = new URLSearchParams(event.rawQueryString ?? '');
  if (path === '/robots.txt') return { status: 200, type: 'text/plain; charset=utf-8', body: robotsTxt(context.origin, publicReads()) };
  const sitemap = path === '/sitemap.xml' || path.startsWith('/sitemaps/');
  // Public reads off: the app behind its login, nothing to index, no sitemap.
  if (!publicReads()) return shell(context, sitemap ? 404 : 200);
  if (path === '/sitemap.xml') return { status: 200, type: 'application/xml', body: await sitemapIndexXml(context.origin) };
  if (sitemap) {
    const xml = await sitemapXml(path.slice('/sitemaps/'.length), context.origin);
    return xml === undefined ? rendered(path, context, undefined) : { status: 200, type: 'application/xml', body: xml };
  }
  const match = matchRoute(path);
  if (!match && path.length > 1 && path.endsWith('/') && matchRoute(path.slice(0, -1))?.route.rendered) {
    return { status: 301, type: HTML, body: '', location: `${context.origin}${path.slice(0, -1)}` };
  }
  if (match && (!match.route.rendered || APP_QUERY_PARAMETERS.some((name) => query.has(name)))) return shell(context);
  return rendered(path, context, match);
}

/** The page function's answer to a function URL event (payload 2.0). */
export async function pageResult(event: APIGatewayProxyEventV2): Promise<Result> {
  const method = event.requestContext?.http?.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    return {
      statusCode: 405,
      headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      body: 'Method Not Allowed\n',
    };
  }
  let answer: Answer;
  // What the page cost: DynamoDB calls and the read units they report (ReturnConsumedCapacity), in its log line.
  const usage = emptyUsage();
  try {
    answer = await withDynamoUsage(usage, () => withBudget(() => answerOf(event)));
    log.info('page answered', { path: event.rawPath, status: answer.status, dynamodbCalls: usage.calls, readUnits: usage.readUnits });
  } catch (error) {
    log.error('page failed', { path: event.rawPath, ...describeError(error) });
    return {
      statusCode: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '5' },
      body: 'The site is busy. Please try again shortly.\n',
    };
  }
  const tag = entityTag(answer.body);
  const headers: Record<string, string> = {
    'content-type': answer.type,
    'cache-control': pageCacheControl(),
    etag: tag,
    ...(answer.noindex || !publicReads() ? SITE_NOINDEX_HEADERS : {}),
    ...(answer.location ? { location: answer.location } : {}),
  };
  const ifNoneMatch = event.headers?.['if-none-match'];
  if (answer.status === 200 && ifNoneMatch !== undefined && noneMatch(ifNoneMatch, tag)) {
    delete headers['content-type'];
    return { statusCode: 304, headers };
  }
  // HEAD: the function URL (and the local server) send the headers of GET, Content-Length included, without the body.
  return { statusCode: answer.status, headers, body: answer.body };
}

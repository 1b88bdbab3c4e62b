// The security headers every page of the site is served with: the CloudFront response-headers
// policy of the deployed stack (infra/) and the local server (scripts/local/) both take them from
// here, so what a browser gets locally is what it gets deployed.

/**
 * The Content-Security-Policy of the site: scripts, styles and API calls from the site's own
 * origin only (no inline script, no eval); images also from https hosts, since posts link them;
 * no plugins, no framing, no foreign form targets or base URL.
 */
export const SITE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** HSTS: two years, subdomains included (browsers ignore it over plain http, as locally). */
export const SITE_HSTS_SECONDS = 63_072_000;

/** The site's security headers by name (lower case), values as sent. */
export const SITE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': SITE_CONTENT_SECURITY_POLICY,
  'strict-transport-security': `max-age=${SITE_HSTS_SECONDS}; includeSubDomains`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'cross-origin-opener-policy': 'same-origin',
};

/** What keeps a whole site out of search results while public reads are off: every answer outside the API carries it. */
export const SITE_NOINDEX_HEADERS: Readonly<Record<string, string>> = { 'x-robots-tag': 'noindex' };

/** The headers every answer outside the API gets: the security headers, and with public reads off the noindex one. */
export function siteHeaders(publicReads: boolean): Readonly<Record<string, string>> {
  return publicReads ? SITE_SECURITY_HEADERS : { ...SITE_SECURITY_HEADERS, ...SITE_NOINDEX_HEADERS };
}

// Where the pages' absolute URLs start (canonical links, Open Graph, the sitemap, robots.txt):
// the site's address from the settings (SITE_URL), never a request's Host or X-Forwarded-Host.
// Deployed without a siteUrl or a domain of its own, the address is the distribution's, which
// the stack cannot name before the distribution exists: the distribution's viewer-request
// function copies it from CloudFront's own context (not from any header the viewer sent) into
// this header, overwriting whatever the viewer put there, and the page function reads it.

/** The header CloudFront's viewer-request function sets to the distribution's domain name. */
export const DISTRIBUTION_DOMAIN_HEADER = 'x-distribution-domain';

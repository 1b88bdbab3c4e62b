// robots.txt (spec site-pages §6), generated: the longest match wins, so the feed (`?tag=`
// included) is allowed while the rest of the API is not. With public reads off there is no
// sitemap (/sitemap.xml is 404), so no `Sitemap` line.

/** The body of `/robots.txt`: four lines with public reads on, the same without `Sitemap` when off; each ends with a newline. */
export function robotsTxt(origin: string, publicReads: boolean): string {
  const lines = ['User-agent: *', 'Allow: /api/v1/feed', 'Disallow: /api/'];
  if (publicReads) lines.push(`Sitemap: ${origin.replace(/\/+$/, '')}/sitemap.xml`);
  return lines.map((line) => `${line}\n`).join('');
}

// PLACEHOLDER until branch pages-sitemap lands.
export function robotsTxt(origin: string, publicReads: boolean): string {
  return `User-agent: *\nAllow: /api/v1/feed\nDisallow: /api/\n${publicReads ? `Sitemap: ${origin}/sitemap.xml\n` : ''}`;
}

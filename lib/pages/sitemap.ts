// PLACEHOLDER until branch pages-sitemap lands.
export async function sitemapIndexXml(_origin: string): Promise<string> {
  return '';
}
export async function sitemapXml(_name: string, _origin: string): Promise<string | undefined> {
  return undefined;
}

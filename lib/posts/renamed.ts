// PLACEHOLDER until the rename records land (branch pages-sitemap).
export async function renamedTarget(_slug: string): Promise<{ kind: 'moved'; slug: string } | { kind: 'gone' }> {
  return { kind: 'gone' };
}

import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { tagDetail, tagDetailReads } from '#lib/tags/detail.ts';
import { tagToApi } from '#lib/tags/tag.ts';

/** GET /tags/detail/{slug}: one tag, read with the token. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => tagDetailReads(path.slug ?? ''),
  handler: async ({ path, read }) => ok(tagToApi(tagDetail(read, path.slug ?? ''))),
});

import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postReads } from '#lib/posts/detail.ts';
import { removeVote } from '#lib/votes/remove.ts';

/** DELETE /posts/detail/{slug}/vote: removes the caller's vote (200 also when there was none). */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read }) => ok(await removeVote(caller, path.slug ?? '', read)),
});

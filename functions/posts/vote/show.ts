import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postReads } from '#lib/posts/detail.ts';
import { showVote } from '#lib/votes/show.ts';

/** GET /posts/detail/{slug}/vote: the caller's vote on a post they can see, with its counts. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read }) => ok(await showVote(caller, path.slug ?? '', read)),
});

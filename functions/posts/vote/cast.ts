import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postReads } from '#lib/posts/detail.ts';
import { castVote } from '#lib/votes/cast.ts';

/** POST /posts/detail/{slug}/vote: votes a post up or down (not one's own). */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read, body }) => ok(await castVote(caller, path.slug ?? '', read, body)),
});

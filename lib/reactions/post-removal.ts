import { removeComments } from '#lib/comments/removal.ts';
import { parsePostEntry, postLists } from '#lib/db/keys.ts';
import { removeFavorites } from '#lib/favorites/favorite.ts';
import { removeVisits } from '#lib/posts/visits.ts';
import type { Reaction } from '#lib/streams/consumer.ts';
import type { TableChange } from '#lib/streams/records.ts';
import { removePostReports } from '#lib/reports/removal.ts';
import { removeVotes } from '#lib/votes/vote.ts';

// What follows a post's deletion, outside its transaction: the table's stream consumer
// (functions/streams/table.ts) sees the post's `mine` list entry removed, which exists exactly as
// long as the post (lib/posts/entries.ts), and removes what the post leaves behind: its visits,
// votes and favorites (lowering each holder's profile count), its comments and the reports of it
// and of them, which may be too many for any transaction. Idempotent: a record delivered again
// finds nothing left to remove.

/** The id of the post a change deleted: the removal of its `mine` entry; undefined for any other change. */
export function deletedPostId(change: TableChange): string | undefined {
  if (change.kind !== 'REMOVE') return undefined;
  const entry = parsePostEntry(change.oldImage ?? change.keys);
  return entry?.list === postLists.mine ? entry.postId : undefined;
}

/** After a post's deletion: remove its visits, votes, favorites, comments and reports. */
export const postRemoval: Reaction<string> = {
  name: 'post-removal',
  select: deletedPostId,
  apply: async (postId) => {
    await Promise.all([removeVisits(postId), removeVotes(postId), removeFavorites(postId), removeComments(postId), removePostReports(postId)]);
  },
};

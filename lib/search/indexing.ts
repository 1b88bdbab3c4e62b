import { parsePostText } from '#lib/db/keys.ts';
import type { Reaction } from '#lib/streams/consumer.ts';
import type { TableChange } from '#lib/streams/records.ts';
import { applyPostingChange, indexedPost, postingChange, type IndexedPost } from './postings.ts';

// Keeps the search index (postings.ts) in step with the posts: the table's stream consumer
// (functions/streams/table.ts) hands it every change of a post's text item (create, update,
// rename, feature, delete). Counts never write the text item, so they never reach the index.

interface TextChange {
  before?: IndexedPost;
  after?: IndexedPost;
}

/** The post texts a change replaced; undefined for any item but a post's text. */
export function textChange(change: TableChange): TextChange | undefined {
  if (parsePostText(change.keys) === undefined) return undefined;
  const before = indexedPost(change.oldImage);
  const after = indexedPost(change.newImage);
  if (!before && !after) return undefined;
  return { ...(before ? { before } : {}), ...(after ? { after } : {}) };
}

export const searchIndexing: Reaction<TextChange> = {
  name: 'search-index',
  select: textChange,
  apply: ({ before, after }) => applyPostingChange(postingChange(before, after)),
};

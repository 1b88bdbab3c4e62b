import { parsePostText } from '#lib/db/keys.ts';
import type { Reaction } from '#lib/streams/consumer.ts';
import type { TableChange } from '#lib/streams/records.ts';
import { stateBacklog, withdrawBacklog } from './backlog.ts';
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

/**
 * When the texts of `changes` were written (epoch ms), told by their `modified`: the texts a write
 * dated (a create, an edit, a rename, a publish), not those it left undated (featuring) nor removals.
 */
export function changeTimes(changes: readonly TableChange[]): number[] {
  return changes.flatMap((change) => {
    if (parsePostText(change.keys) === undefined || typeof change.newImage?.modified !== 'string') return [];
    if (change.oldImage?.modified === change.newImage.modified) return [];
    const time = Date.parse(change.newImage.modified);
    return Number.isNaN(time) ? [] : [time];
  });
}

export const searchIndexing: Reaction<TextChange> = {
  name: 'search-index',
  select: textChange,
  apply: ({ before, after }) => applyPostingChange(postingChange(before, after)),
  // How far behind the index runs, for a search to read past its fresh window (backlog.ts).
  beforeBatch: async (changes) => {
    const times = changeTimes(changes);
    if (times.length > 0) await stateBacklog(Math.min(...times));
  },
  afterBatch: async (changes) => {
    const times = changeTimes(changes);
    if (times.length > 0) await withdrawBacklog(Math.max(...times));
  },
};

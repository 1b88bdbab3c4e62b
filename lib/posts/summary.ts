import type { BatchResult, Item } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { ValidationError } from '#lib/errors.ts';
import { postFromItems, postFromRead, postKeys, postTextItem, type PostRecord, type PostSummary } from './post.ts';

// A post's summary item (`POST#<slug>` / `SUMMARY`): its text item without the description, with
// the excerpt and reading time computed from it (summarize.ts, which only the changes of a text
// load: it carries the Markdown parser). Written with the text, in the same transaction
// (changes.ts), so a list of summaries (`view=summary`) reads it and the stats, whose sizes do not
// grow with the description: 20 summaries of 100,000-character posts cost what 20 of 1,000 do.

/** What `view` a list answers in: whole posts (the default) or summaries. */
export const POST_VIEWS = ['full', 'summary'] as const;
export type PostView = (typeof POST_VIEWS)[number];

/** `view=`: absent lists whole posts; `summary` summaries; any other value is refused as DRF refuses a choice. */
export function parseView(value: string | undefined): PostView {
  if (value === undefined) return 'full';
  if (value === 'summary') return 'summary';
  throw new ValidationError({ view: [`"${value}" is not a valid choice.`] });
}

/** The summary item of a post: its text item less the description, plus its summary (summarize.ts). */
export function postSummaryItem(post: PostRecord, summary: PostSummary): Item {
  const item: Item = { ...postTextItem(post), ...keys.postSummary(post.slug), ...summary };
  delete item.description;
  return item;
}

/** What a read of the post under `slug` for a list asks for in `view`: text or summary, and stats. */
export function listedPostKeys(slug: string, view: PostView): Key[] {
  return view === 'summary' ? [keys.postSummary(slug), keys.postStats(slug)] : postKeys(slug);
}

/**
 * The post under `slug` in a read made with listedPostKeys, as a list shows it: in summary view
 * without its description (empty here) and with `summary`. Undefined when it is gone, or, in
 * summary view, when it has no summary item yet (a post written before summaries: `needsText`).
 */
export function listedPostFromRead(read: BatchResult, slug: string, view: PostView): PostRecord | undefined {
  if (view === 'full') return postFromRead(read, slug);
  const summary = read.get(keys.postSummary(slug));
  const post = summary && postFromItems({ ...summary, description: '' }, read.get(keys.postStats(slug)));
  if (!post) return undefined;
  return { ...post, summary: { excerpt: String(summary.excerpt), reading_time_minutes: Number(summary.reading_time_minutes) } };
}

/** Whether a summary read found the post's stats but no summary item: its summary must come from its text. */
export function needsText(read: BatchResult, slug: string): boolean {
  return !read.get(keys.postSummary(slug)) && read.get(keys.postStats(slug)) !== undefined;
}

import { excerptOf, readingTimeMinutes } from './excerpt.ts';
import type { PostRecord, PostSummary } from './post.ts';

// A post's summary from its text: what a change that writes the text gives its summary item
// (changes.ts). Apart from summary.ts so that only the functions that write a text, and a list
// meeting a post stored before summaries (listed.ts, lazily), load the Markdown parser.

export function summaryOf(post: Pick<PostRecord, 'description' | 'meta_description'>): PostSummary {
  return { excerpt: excerptOf(post), reading_time_minutes: readingTimeMinutes(post.description) };
}

// How long each post field may be: enforced by input.ts, published in the OpenAPI document (which
// imports this alone, not the parser and the slugify library it loads).

export const POST_LIMITS = {
  title: 200,
  description: 100_000,
  keywords: 500,
  meta_description: 1_000,
  /** One post's write touches each of its tags in the same transaction (at most 100 items). */
  tags: 20,
  /**
   * A post item must stay under DynamoDB's 400 KB: this bounds the description in bytes as well as
   * in characters (100,000 four-byte characters would be 400,000 bytes).
   */
  descriptionBytes: 300_000,
} as const;

/** How many post slug candidates (`base`, `base-1`, ...) a create or rename reads with its other reads. */
export const POST_SLUG_WINDOW = 5;

/** A summary's excerpt: at most this many Unicode code points before the `…` a cut adds (excerpt.ts). */
export const EXCERPT_LENGTH = 300;
/** A summary's reading time: words a minute (excerpt.ts). */
export const WORDS_PER_MINUTE = 265;

// How long each post field may be: enforced by input.ts, published in the OpenAPI document (which
// imports this alone, not the parser and the slugify library it loads).

export const POST_LIMITS = {
  title: 200,
  description: 50_000,
  keywords: 500,
  meta_description: 500,
  tags: 20,
  /**
   * A post item holds the text twice (as written, and lower-cased for search) and must stay under
   * DynamoDB's 400 KB: this bounds the description in bytes as well as in characters.
   */
  descriptionBytes: 150_000,
} as const;

/** How many post slug candidates (`base`, `base-1`, ...) a create or rename reads with its other reads. */
export const POST_SLUG_WINDOW = 5;

// Every key string of the table is built here and nowhere else.

export interface Key {
  PK: string;
  SK: string;
}

/** Width of zero-padded counters inside sort keys, so they order as strings. */
const COUNTER_WIDTH = 12;

export function padCounter(value: number): string {
  return String(Math.max(0, Math.trunc(value))).padStart(COUNTER_WIDTH, '0');
}

export const keys = {
  userIdCounter: (): Key => ({ PK: 'COUNTER#USER_ID', SK: 'COUNTER' }),
  userProfile: (username: string): Key => ({ PK: `USER#${username}`, SK: 'PROFILE' }),
  userCredentials: (username: string): Key => ({ PK: `USER#${username}`, SK: 'CREDENTIALS' }),
  token: (tokenHash: string): Key => ({ PK: `TOKEN#${tokenHash}`, SK: 'TOKEN' }),
  tag: (slug: string): Key => ({ PK: `TAG#${slug}`, SK: 'TAG' }),
  /** Claims a tag title case-insensitively; holds the tag's slug and title. */
  tagTitle: (title: string): Key => ({ PK: `TAGTITLE#${title.toLowerCase()}`, SK: 'TAGTITLE' }),
  /** A post lives under its current slug, so the key itself claims the slug. */
  post: (slug: string): Key => ({ PK: `POST#${slug}`, SK: 'POST' }),
  /** One per (post, user): keyed by the post's stable id so it survives renames. */
  visit: (postId: string, userId: number): Key => ({ PK: `VISIT#${postId}`, SK: `USER#${padCounter(userId)}` }),
  visitsOf: (postId: string): string => `VISIT#${postId}`,
};

/** Partition values of the list indexes. */
export const listPartitions = {
  users: 'USERS',
  tags: 'TAGS',
  posts: 'POSTS',
  featured: 'FEATURED',
  tokensOf: (username: string) => `TOKENS#${username}`,
};

/** Sort keys of the list indexes; each ends in a unique id so ties have a stable order. */
export const listSortKeys = {
  user: (dateJoined: string, id: number) => `${dateJoined}#${padCounter(id)}`,
  tag: (created: string, slug: string) => `${created}#${slug}`,
  token: (created: string) => created,
  postCreated: (created: string, id: string) => `${created}#${id}`,
  postViews: (visitors: number, created: string, id: string) => `${padCounter(visitors)}#${created}#${id}`,
  postVotes: (likes: number, created: string, id: string) => `${padCounter(likes)}#${created}#${id}`,
  postActive: (modified: string, created: string, id: string) => `${modified}#${created}#${id}`,
};

// Every key string of the table is built here and nowhere else.

export interface Key {
  PK: string;
  SK: string;
}

/** The primary key of an item read or built (its other attributes left out). */
export function keyOf(item: { PK?: unknown; SK?: unknown }): Key {
  return { PK: String(item.PK), SK: String(item.SK) };
}

/** One string per primary key: what maps and sets of items are keyed by. */
export function keyString(key: { PK: unknown; SK: unknown }): string {
  return `${String(key.PK)}\u0000${String(key.SK)}`;
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
  /** A post's text lives under its current slug, so the key itself claims the slug. */
  post: (slug: string): Key => ({ PK: `POST#${slug}`, SK: 'POST' }),
  /** A post's counters, beside its text so that one read finds both (not in any index: a count costs one small write). */
  postStats: (slug: string): Key => ({ PK: `POST#${slug}`, SK: 'STATS' }),
  /** A post's summary (its text without the description, with its excerpt), beside its text: what a list of summaries reads instead. */
  postSummary: (slug: string): Key => ({ PK: `POST#${slug}`, SK: 'SUMMARY' }),
  /**
   * The rename record of a slug (lib/posts/renamed.ts): beside where a post's text was, it names the
   * post (by id) that last left `slug` by a rename; a later rename away from the same slug
   * overwrites it, and the delete of a post holding `slug` deletes it.
   */
  slugLeft: (slug: string): Key => ({ PK: `POST#${slug}`, SK: 'LEFT' }),
  /** A post's entry in one list (postLists), keyed by the post's stable id so that it survives renames. */
  postEntry: (postId: string, list: string): Key => ({ PK: `ENTRY#${postId}`, SK: list }),
  /** One per (post, user): keyed by the post's stable id so it survives renames. */
  visit: (postId: string, userId: number): Key => ({ PK: `VISIT#${postId}`, SK: `USER#${padCounter(userId)}` }),
  visitsOf: (postId: string): string => `VISIT#${postId}`,
  /** A user's one vote on a post: keyed by the post's stable id, like a visit. */
  vote: (postId: string, userId: number): Key => ({ PK: `VOTE#${postId}`, SK: `USER#${padCounter(userId)}` }),
  votesOf: (postId: string): string => `VOTE#${postId}`,
  /** A user's favorite of a post: keyed by the post's stable id, like a visit; listed per user through GSI1. */
  favorite: (postId: string, userId: number): Key => ({ PK: `FAVORITE#${postId}`, SK: `USER#${padCounter(userId)}` }),
  favoritesOf: (postId: string): string => `FAVORITE#${postId}`,
  /**
   * One term of one post in the search index (lib/search/postings.ts): a partition per term,
   * sorted by the post's creation (the key of its entry by creation), so that a term's posts are
   * read newest first, a page at a time.
   */
  posting: (term: string, created: string, postId: string): Key => ({ PK: termPartition(term), SK: listSortKeys.postCreated(created, postId) }),
  /** The progress of a rebuild of the search index (lib/search/reindex.ts), in the search table: no term begins with `#`. */
  reindexState: (): Key => ({ PK: '#REINDEX', SK: 'STATE' }),
  /**
   * A published post that left the feeds (deleted, unpublished or untagged) at `at` (lib/posts/feed-removals.ts):
   * one item per removal, so concurrent removals never contend; the newest is the feeds' last change.
   */
  feedRemoval: (at: string, postId: string): Key => ({ PK: 'FEED#REMOVALS', SK: `${at}#${postId}` }),
  feedRemovals: 'FEED#REMOVALS',
  /** Claims a username case-insensitively (sign-up refuses `bob` once `Bob` exists); holds the username. */
  usernameClaim: (username: string): Key => ({ PK: `USERNAME#${username.toLowerCase()}`, SK: 'USERNAME' }),
  /**
   * One fixed window of a rate limit (lib/auth/rate-limits.ts): `limit` names it, `subject` is a
   * digest of what is counted (an address, a username, both), `windowStart` the window's epoch second.
   */
  rateCounter: (limit: string, subject: string, windowStart: number): Key => ({ PK: `LIMIT#${limit}#${subject}`, SK: `WINDOW#${windowStart}` }),
  /**
   * Tickets handed to the writes that found `candidate` the first free slug of `base`
   * (lib/slugs/tickets.ts): one counter per kind of slug ('post', 'tag'), base and candidate per
   * window starting at epoch second `windowStart`.
   */
  slugTickets: (kind: string, base: string, candidate: number, windowStart: number): Key => ({
    PK: `SLUGTICKETS#${kind}#${base}`,
    SK: `CANDIDATE#${candidate}#WINDOW#${windowStart}`,
  }),
  /**
   * One shard of a total that many writes change (lib/db/totals.ts): the total is the sum of its
   * shards, each in a partition of its own, so that no item is hot and no two writes need the same one.
   */
  totalShard: (total: string, shard: number): Key => ({ PK: `TOTAL#${total}#${shard}`, SK: 'TOTAL' }),
  /** A user's post counts, by user id (a token names it, so GET /posts/me reads them with the token). */
  userPostTotals: (userId: number): Key => ({ PK: `TOTAL#USERPOSTS#${padCounter(userId)}`, SK: 'TOTAL' }),
  /** Run-time sign-up setting (open or closed), set by the admin CLI. */
  signupSetting: (): Key => ({ PK: 'SETTING#SIGNUP', SK: 'SETTING' }),
  /**
   * A comment's head (lib/comments/comment.ts): found by the comment's id alone, it says where the
   * comment is (its post, its thread, its sort key) and holds its small state, so that a request
   * naming the id reads it with the token.
   */
  commentHead: (id: string): Key => ({ PK: `COMMENT#${id}`, SK: 'COMMENT' }),
  /** A post's top-level comments, oldest first, each followed by the copies of its first replies (keyed by the post's stable id). */
  threadsOf: (postId: string): string => `THREADS#${postId}`,
  thread: (postId: string, sortKey: string): Key => ({ PK: `THREADS#${postId}`, SK: sortKey }),
  /** The copy of one of a thread's first replies, right after the thread in its post's partition: a page of threads is one Query. */
  replyPreview: (postId: string, threadSortKey: string, replySortKey: string): Key => ({
    PK: `THREADS#${postId}`,
    SK: `${threadSortKey}${PREVIEW_SEPARATOR}${replySortKey}`,
  }),
  /** A thread's replies, oldest first, in a partition of their own: a thread's size never weighs on a page of threads. */
  repliesOf: (threadId: string): string => `REPLIES#${threadId}`,
  reply: (threadId: string, sortKey: string): Key => ({ PK: `REPLIES#${threadId}`, SK: sortKey }),
  /**
   * The reports of one post and of its comments (lib/reports): for each reported target (`target`:
   * reportTargets) an item of its open reports, and one report per user beside it. Keyed by the
   * post's stable id, so that a deleted post's reports go with one Query.
   */
  reportsOf: (postId: string): string => `REPORTED#${postId}`,
  reportedTarget: (postId: string, target: string): Key => ({ PK: `REPORTED#${postId}`, SK: target }),
  report: (postId: string, target: string, userId: number): Key => ({ PK: `REPORTED#${postId}`, SK: `${target}#USER#${padCounter(userId)}` }),
  /** A report's head: where the report with this id is (resolve names the id alone). */
  reportHead: (id: string): Key => ({ PK: `REPORT#${id}`, SK: 'REPORT' }),
};

/** Between a thread's sort key and a reply's in a reply preview's sort key: below every character of a sort key's own. */
const PREVIEW_SEPARATOR = '#';

/**
 * The sort keys of a post's threads partition past a thread and the copies of its replies: every
 * later thread's key is above it (threads' keys all have one length), the copies' are below.
 */
export function afterThread(threadSortKey: string): string {
  return `${threadSortKey}${String.fromCharCode(PREVIEW_SEPARATOR.charCodeAt(0) + 1)}`;
}

/** Whether a sort key of a threads partition is a thread's (not a reply preview's). */
export function isThreadSortKey(sortKey: string): boolean {
  return sortKey.split(PREVIEW_SEPARATOR).length === 2;
}

/** What a report is about, as the sort keys of a post's reports partition name it. */
export const reportTargets = {
  post: 'POST',
  comment: (commentId: string) => `COMMENT#${commentId}`,
};

/** The comment a reported target's sort key names (reportTargets.comment), or undefined for a post's. */
export function parseReportTarget(target: string): { commentId?: string } {
  const prefix = reportTargets.comment('');
  return target.startsWith(prefix) ? { commentId: target.slice(prefix.length) } : {};
}

/** The reports of one target: the sort keys of its users' reports in the post's partition. */
export function reportsOfTarget(target: string): { from: string; to: string } {
  return { from: `${target}#USER#`, to: `${target}#USER#\u{10FFFF}` };
}

/** The comment id of a comment head's key (keys.commentHead), or undefined for any other key: what the stream consumer recognizes. */
export function parseCommentHead(key: { PK?: unknown; SK?: unknown }): string | undefined {
  const prefix = keys.commentHead('');
  const { PK, SK } = key;
  if (typeof PK !== 'string' || SK !== prefix.SK || !PK.startsWith(prefix.PK) || PK === prefix.PK) return undefined;
  return PK.slice(prefix.PK.length);
}

/** The author's user id named by a post's `mine` list entry (its partition, listPartitions.mine). */
export function mineAuthorId(listPartition: string): number | undefined {
  const prefix = listPartitions.mine(0).slice(0, -String(padCounter(0)).length);
  return listPartition.startsWith(prefix) ? Number(listPartition.slice(prefix.length)) : undefined;
}

/** The search index partition of a term (lib/search/terms.ts). */
export function termPartition(term: string): string {
  return `TERM#${term}`;
}

/** Partition values of the list indexes. */
export const listPartitions = {
  users: 'USERS',
  tags: 'TAGS',
  tokensOf: (username: string) => `TOKENS#${username}`,
  /** Published posts. */
  posts: 'POSTS',
  /** Published featured posts. */
  featured: 'FEATURED',
  /** Published posts carrying a tag. */
  tagged: (tagSlug: string) => `TAGGED#${tagSlug}`,
  /** A user's published posts (by username: the author page's path names it). */
  authored: (username: string) => `AUTHORED#${username}`,
  /** All of a user's posts, published and drafts (by user id: a token names it, lib/auth/tokens.ts). */
  mine: (userId: number) => `MINE#${padCounter(userId)}`,
  /** A user's favorites, newest first (by username: the favorites page's path names it). */
  favoritesOf: (username: string) => `FAVORITES#${username}`,
  /** A user's comments, newest first (by username: the user's comments page's path names it). */
  commentsOf: (username: string) => `COMMENTS#${username}`,
  /** The reported targets with open reports, by their newest report (GET /reports). */
  openReports: 'REPORTS',
};

/**
 * The sort keys of a post's list entries (`keys.postEntry`): which list an entry stands for. The
 * `mine` entry exists exactly as long as the post, so its removal is the post's deletion: what the
 * table's stream consumer reacts to.
 */
export const postLists = {
  mine: 'MINE',
  authored: 'AUTHORED',
  posts: 'POSTS',
  featured: 'FEATURED',
  tagged: (tagSlug: string) => `TAGGED#${tagSlug}`,
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
  favorite: (created: string, postId: string) => `${created}#${postId}`,
  /** A comment's place in its thread or partition, and in its author's list: oldest first by creation, then id. */
  comment: (created: string, id: string) => `${created}#${id}`,
  /** A reported target among the open ones: by its newest report. */
  openReport: (created: string, reportId: string) => `${created}#${reportId}`,
};

/**
 * A post's key by creation (`listSortKeys.postCreated`) read from its key by activity
 * (`listSortKeys.postActive`, `modified#created#id`), or undefined for a value that is not one.
 */
export function postCreatedOfActive(active: string): string | undefined {
  const at = active.indexOf('#');
  return at > 0 ? active.slice(at + 1) : undefined;
}

/** A post's `modified` read from its key by activity (`listSortKeys.postActive`, `modified#created#id`). */
export function postModifiedOfActive(active: string): string | undefined {
  const at = active.indexOf('#');
  return at > 0 ? active.slice(0, at) : undefined;
}

/**
 * The sort keys of one calendar month (`YYYY-MM`) in a list whose sort keys start with an ISO
 * timestamp (posts by `CreatedSK`, tags' and users' `GSI1SK`): a `begins_with` prefix. What the
 * sitemap's children are cut by (lib/pages/sitemap.ts).
 */
export const sortKeyMonth = {
  prefix: (month: string): string => month,
  of: (sortKey: string): string => sortKey.slice(0, 7),
};

/** The slug of the post whose text item this key is (`keys.post`), or undefined for any other key. */
export function parsePostText(key: { PK?: unknown; SK?: unknown }): string | undefined {
  const { PK, SK } = key;
  const prefix = keys.post('');
  if (typeof PK !== 'string' || SK !== prefix.SK || !PK.startsWith(prefix.PK) || PK === prefix.PK) return undefined;
  return PK.slice(prefix.PK.length);
}

/**
 * The post and list a post's list entry key names (`keys.postEntry`), or undefined for any other
 * key: how a consumer of the table's stream recognizes an entry (lib/reactions/post-removal.ts).
 */
export function parsePostEntry(key: { PK?: unknown; SK?: unknown }): { postId: string; list: string } | undefined {
  const prefix = keys.postEntry('', '').PK;
  const { PK, SK } = key;
  if (typeof PK !== 'string' || typeof SK !== 'string' || !PK.startsWith(prefix) || PK.length === prefix.length) return undefined;
  return { postId: PK.slice(prefix.length), list: SK };
}

import { searchTableOf } from '#lib/config.ts';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#lib/db/client.ts';
import { postEntries } from '#lib/posts/entries.ts';
import { postFromItems } from '#lib/posts/post.ts';
import { hashToken } from '#lib/auth/tokens.ts';
import { keys, listPartitions, listSortKeys } from '#lib/db/keys.ts';
import { indexedPost, indexedTerms, postingFromItem } from '#lib/search/postings.ts';

// Helpers for the reliability and security suites: read the whole table without going through
// the API, check every invariant of the data model from the base items, and keep the figures of
// a run.

export type Item = Record<string, any>;

/** Every item of the table and of its search table (strongly consistent, all pages, in parallel segments). */
export async function scanTable(table: string): Promise<Item[]> {
  const segments = 4;
  const parts = await Promise.all(
    [table, searchTableOf(table)]
      .flatMap((table) => Array.from({ length: segments }, (_, segment) => ({ table, segment })))
      .map(async ({ table, segment }) => {
        const items: Item[] = [];
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await db().send(
            new ScanCommand({
              TableName: table,
              ConsistentRead: true,
              Segment: segment,
              TotalSegments: segments,
              ...(startKey ? { ExclusiveStartKey: startKey } : {}),
            }),
          );
          items.push(...((page.Items ?? []) as Item[]));
          startKey = page.LastEvaluatedKey;
        } while (startKey);
        return items;
      }),
  );
  return parts.flat().sort((a, b) => `${a.PK}\u0000${a.SK}`.localeCompare(`${b.PK}\u0000${b.SK}`));
}

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value instanceof Set) return [...value].map(stable).sort();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, stable((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** A digest of the whole table: equal digests mean nothing was written. */
export function fingerprint(items: Item[]): string {
  return createHash('sha256')
    .update(JSON.stringify(stable(items)))
    .digest('hex');
}

/** The items that differ between two scans, by key (for failure messages). */
export function tableDiff(before: Item[], after: Item[]): string[] {
  const key = (item: Item) => `${item.PK} | ${item.SK}`;
  const old = new Map(before.map((item) => [key(item), JSON.stringify(stable(item))]));
  const now = new Map(after.map((item) => [key(item), JSON.stringify(stable(item))]));
  const changes: string[] = [];
  for (const [k, v] of now)
    if (!old.has(k)) changes.push(`added ${k}`);
    else if (old.get(k) !== v) changes.push(`changed ${k}`);
  for (const k of old.keys()) if (!now.has(k)) changes.push(`removed ${k}`);
  return changes;
}

export interface InvariantOptions {
  /** Tokens known to be revoked (logged out): their records must be gone. */
  revokedTokens?: string[];
  /** Tokens known to be live: their records must be there. */
  liveTokens?: string[];
}

// FEED#: the feeds' removal items (lib/posts/feed-removals.ts), written by deletes and unpublishes.
const KNOWN_PREFIXES = [
  'USER#',
  'TOKEN#',
  'TAG#',
  'TAGTITLE#',
  'POST#',
  'ENTRY#',
  'VISIT#',
  'COUNTER#',
  'TERM#',
  // The search index's rebuild state (lib/search/reindex.ts).
  '#REINDEX',
  'FEED#',
  'USERNAME#',
  'LIMIT#',
  'SETTING#',
  'VOTE#',
  'FAVORITE#',
  'SLUGTICKETS#',
  'TOTAL#',
  // Comments (lib/comments/comment.ts) and reports (lib/reports/report.ts).
  'COMMENT#',
  'THREADS#',
  'REPLIES#',
  'REPORTED#',
  'REPORT#',
];

/**
 * Recomputes every counter from the base items and checks every link, claim and index key of the
 * data model (docs/data-model.md). Returns the problems found; [] when the table is consistent.
 */
export function invariantProblems(items: Item[], options: InvariantOptions = {}): string[] {
  const problems: string[] = [];
  const starts = (prefix: string) => items.filter((item) => String(item.PK).startsWith(prefix));
  for (const item of items) {
    if (!KNOWN_PREFIXES.some((prefix) => String(item.PK).startsWith(prefix))) problems.push(`unknown item ${item.PK} | ${item.SK}`);
  }
  const texts = starts('POST#').filter((item) => item.SK === 'POST');
  const stats = new Map(
    starts('POST#')
      .filter((item) => item.SK === 'STATS')
      .map((item) => [String(item.PK), item]),
  );
  const entries = starts('ENTRY#');
  const tags = starts('TAG#');
  const claims = starts('TAGTITLE#');
  const profiles = starts('USER#').filter((item) => item.SK === 'PROFILE');
  const credentials = starts('USER#').filter((item) => item.SK === 'CREDENTIALS');
  const visits = starts('VISIT#');
  const tokens = starts('TOKEN#');

  // Users: a profile and credentials each, same id.
  const profileByName = new Map(profiles.map((p) => [String(p.username), p]));
  for (const c of credentials) {
    const p = profileByName.get(String(c.username));
    if (!p) problems.push(`credentials without profile: ${c.username}`);
    else if (Number(p.id) !== Number(c.id)) problems.push(`id mismatch for ${c.username}`);
  }
  const userIds = new Set(profiles.map((p) => Number(p.id)));
  // Username claims (sign-up): each names a user whose lower-cased username is its key.
  for (const claim of starts('USERNAME#')) {
    const p = profileByName.get(String(claim.username));
    if (!p || claim.PK !== `USERNAME#${String(claim.username).toLowerCase()}`) problems.push(`username claim of no user: ${claim.PK}`);
  }

  // Posts: text and stats under the slug, unique id and slug; exactly the list entries their
  // state calls for (lib/posts/entries.ts), with their current sort keys.
  const posts: Item[] = [];
  for (const text of texts) {
    const post = postFromItems(text, stats.get(String(text.PK)));
    if (!post) problems.push(`post ${text.PK}: stats missing or of another post`);
    else posts.push(post);
    if (post && stats.get(String(text.PK))!.text_version !== text.text_version) problems.push(`post ${text.PK}: text and stats of different versions`);
    stats.delete(String(text.PK));
  }
  for (const orphan of stats.keys()) problems.push(`stats without a post: ${orphan}`);
  const postIds = new Map<string, Item>();
  const slugs = new Set<string>();
  const expectedEntries = new Map<string, string>();
  for (const post of posts) {
    if (`POST#${post.slug}` !== texts.find((text) => text.id === post.id)?.PK) problems.push(`post ${post.id} not keyed by its slug ${post.slug}`);
    if (postIds.has(String(post.id))) problems.push(`post id ${post.id} stored twice (${post.slug}, ${postIds.get(String(post.id))!.slug})`);
    postIds.set(String(post.id), post);
    if (slugs.has(String(post.slug))) problems.push(`slug ${post.slug} twice`);
    slugs.add(String(post.slug));
    if (!profileByName.has(String(post.author))) problems.push(`post ${post.slug} by unknown author ${post.author}`);
    for (const entry of postEntries(post as never)) expectedEntries.set(`${entry.PK} | ${entry.SK}`, JSON.stringify(stable(entry)));
    if (!Array.isArray(post.tags) || !Array.isArray(post.tag_slugs) || post.tags.length !== post.tag_slugs.length) {
      problems.push(`post ${post.slug}: tags and tag_slugs differ`);
    } else if (new Set(post.tag_slugs).size !== post.tag_slugs.length) problems.push(`post ${post.slug}: a tag twice`);
  }
  for (const entry of entries) {
    const key = `${entry.PK} | ${entry.SK}`;
    const expected = expectedEntries.get(key);
    if (!expected) problems.push(`list entry of no post, or of a list the post is not in: ${key}`);
    else if (expected !== JSON.stringify(stable(entry))) problems.push(`list entry ${key} does not match its post`);
    expectedEntries.delete(key);
  }
  for (const missing of expectedEntries.keys()) problems.push(`list entry missing: ${missing}`);

  // Tags: one claim per tag on its lower-cased title, pointing back; every link resolves.
  const tagBySlug = new Map(tags.map((tag) => [String(tag.slug), tag]));
  for (const tag of tags) {
    if (tag.PK !== `TAG#${tag.slug}` || tag.SK !== 'TAG') problems.push(`tag ${tag.PK} not keyed by its slug`);
    const claim = claims.filter((c) => c.PK === `TAGTITLE#${String(tag.title).toLowerCase()}`);
    if (claim.length !== 1 || claim[0]!.slug !== tag.slug || claim[0]!.title !== tag.title) problems.push(`tag ${tag.slug}: title claim missing or wrong`);
    const expected = posts.filter((post) => post.publish === true && Array.isArray(post.tag_slugs) && post.tag_slugs.includes(tag.slug)).length;
    if (Number(tag.total_posts) !== expected) problems.push(`tag ${tag.slug}: total_posts ${tag.total_posts}, published posts carrying it ${expected}`);
    const featured = posts.filter(
      (post) => post.publish === true && post.is_featured === true && Array.isArray(post.tag_slugs) && post.tag_slugs.includes(tag.slug),
    ).length;
    if (Number(tag.featured_posts ?? 0) !== featured)
      problems.push(`tag ${tag.slug}: featured_posts ${tag.featured_posts}, published featured posts carrying it ${featured}`);
  }
  for (const claim of claims) {
    const tag = tagBySlug.get(String(claim.slug));
    if (!tag || `TAGTITLE#${String(tag.title).toLowerCase()}` !== claim.PK) problems.push(`orphan title claim ${claim.PK}`);
  }
  for (const post of posts) {
    (post.tag_slugs ?? []).forEach((slug: string, i: number) => {
      const tag = tagBySlug.get(slug);
      if (!tag) problems.push(`post ${post.slug}: link to missing tag ${slug}`);
      else if (post.tags[i] !== tag.title) problems.push(`post ${post.slug}: tag title ${post.tags[i]} is not ${tag.title}`);
    });
  }

  // Users' counters.
  for (const profile of profiles) {
    const mine = posts.filter((post) => post.author === profile.username && post.publish === true);
    if (Number(profile.total_posts ?? 0) !== mine.length)
      problems.push(`user ${profile.username}: total_posts ${profile.total_posts}, published ${mine.length}`);
    const featured = mine.filter((post) => post.is_featured === true).length;
    if (Number(profile.total_featured_posts ?? 0) !== featured)
      problems.push(`user ${profile.username}: total_featured_posts ${profile.total_featured_posts}, featured ${featured}`);
  }

  // Totals: the site's (summed over their shards) and each user's own post counts, from the posts.
  const shardSum = (total: string, attribute: string) => starts(`TOTAL#${total}#`).reduce((sum, shard) => sum + Number(shard[attribute] ?? 0), 0);
  const totals: [string, number, number][] = [
    ['published posts', shardSum('POSTS', 'posts'), posts.filter((post) => post.publish === true).length],
    ['published featured posts', shardSum('POSTS', 'featured'), posts.filter((post) => post.publish === true && post.is_featured === true).length],
    ['active users', shardSum('USERS', 'active'), profiles.filter((profile) => profile.is_active === true).length],
    ['tags', shardSum('TAGS', 'tags'), tags.length],
  ];
  for (const [name, counted, expected] of totals) if (counted !== expected) problems.push(`total of ${name}: ${counted}, expected ${expected}`);
  const userTotals = new Map(starts('TOTAL#USERPOSTS#').map((item) => [Number(String(item.PK).slice('TOTAL#USERPOSTS#'.length)), item]));
  for (const profile of profiles) {
    const own = posts.filter((post) => Number(post.author_id) === Number(profile.id));
    const counts = userTotals.get(Number(profile.id));
    const expected = {
      posts: own.length,
      published: own.filter((post) => post.publish === true).length,
      featured: own.filter((post) => post.is_featured === true).length,
      published_featured: own.filter((post) => post.publish === true && post.is_featured === true).length,
    };
    for (const [name, value] of Object.entries(expected)) {
      if (Number(counts?.[name] ?? 0) !== value) problems.push(`user ${profile.username}: own ${name} ${counts?.[name]}, expected ${value}`);
    }
  }

  // Visits: each of an existing post and user, once per user; the post counts them.
  const visitsByPost = new Map<string, Item[]>();
  for (const visit of visits) {
    const postId = String(visit.PK).slice('VISIT#'.length);
    if (!postIds.has(postId)) problems.push(`${ORPHAN_VISIT} ${visit.PK} | ${visit.SK} (post gone)`);
    if (!userIds.has(Number(visit.user_id))) problems.push(`visit by unknown user ${visit.user_id}`);
    const list = visitsByPost.get(postId) ?? [];
    list.push(visit);
    visitsByPost.set(postId, list);
  }
  for (const post of posts) {
    const list = visitsByPost.get(String(post.id)) ?? [];
    if (Number(post.total_visitors) !== list.length) problems.push(`post ${post.slug}: total_visitors ${post.total_visitors}, visits ${list.length}`);
    if (new Set(list.map((v) => Number(v.user_id))).size !== list.length) problems.push(`post ${post.slug}: a user visited twice`);
  }

  // Votes: one per (post, user), up or down, of an existing user and (until the stream consumer
  // removes them) post, never by its author; the post counts them.
  const votesByPost = new Map<string, Item[]>();
  for (const vote of starts('VOTE#')) {
    const postId = String(vote.PK).slice('VOTE#'.length);
    const post = postIds.get(postId);
    if (!post) problems.push(`${ORPHAN_VOTE} ${vote.PK} | ${vote.SK} (post gone)`);
    else if (Number(post.author_id) === Number(vote.user_id)) problems.push(`post ${post.slug}: its author voted on it`);
    if (!userIds.has(Number(vote.user_id))) problems.push(`vote by unknown user ${vote.user_id}`);
    if (vote.vote !== 'up' && vote.vote !== 'down') problems.push(`vote ${vote.PK} | ${vote.SK} is neither up nor down`);
    if (keys.vote(postId, Number(vote.user_id)).SK !== vote.SK) problems.push(`vote ${vote.PK} | ${vote.SK} not keyed by its user`);
    votesByPost.set(postId, [...(votesByPost.get(postId) ?? []), vote]);
  }
  for (const post of posts) {
    const list = votesByPost.get(String(post.id)) ?? [];
    const up = list.filter((vote) => vote.vote === 'up').length;
    if (Number(post.rating_likes) !== up) problems.push(`post ${post.slug}: rating_likes ${post.rating_likes}, up votes ${up}`);
    if (Number(post.rating_dislikes) !== list.length - up)
      problems.push(`post ${post.slug}: rating_dislikes ${post.rating_dislikes}, down votes ${list.length - up}`);
  }

  // Favorites: one per (post, user), of an existing user and (until the stream consumer removes
  // them) post, listed under the holder; the post counts them, and so does the holder's profile
  // (orphans included: the consumer removes each with its holder's decrement).
  const favoritesByPost = new Map<string, Item[]>();
  const favoritesByHolder = new Map<string, number>();
  for (const favorite of starts('FAVORITE#')) {
    const postId = String(favorite.PK).slice('FAVORITE#'.length);
    if (!postIds.has(postId)) problems.push(`${ORPHAN_FAVORITE} ${favorite.PK} | ${favorite.SK} (post gone)`);
    const holder = profileByName.get(String(favorite.username));
    if (!holder || Number(holder.id) !== Number(favorite.user_id))
      problems.push(`favorite ${favorite.PK} | ${favorite.SK} of unknown user ${favorite.username}`);
    if (keys.favorite(postId, Number(favorite.user_id)).SK !== favorite.SK || favorite.post_id !== postId)
      problems.push(`favorite ${favorite.PK} | ${favorite.SK} not keyed by its post and user`);
    if (
      favorite.GSI1PK !== listPartitions.favoritesOf(String(favorite.username)) ||
      favorite.GSI1SK !== listSortKeys.favorite(String(favorite.created), postId)
    ) {
      problems.push(`favorite ${favorite.PK} | ${favorite.SK}: list keys do not match`);
    }
    favoritesByPost.set(postId, [...(favoritesByPost.get(postId) ?? []), favorite]);
    favoritesByHolder.set(String(favorite.username), (favoritesByHolder.get(String(favorite.username)) ?? 0) + 1);
  }
  for (const post of posts) {
    const held = (favoritesByPost.get(String(post.id)) ?? []).length;
    if (Number(post.total_favorites) !== held) problems.push(`post ${post.slug}: total_favorites ${post.total_favorites}, favorites ${held}`);
  }
  for (const profile of profiles) {
    const held = favoritesByHolder.get(String(profile.username)) ?? 0;
    if (Number(profile.total_favorites ?? 0) !== held)
      problems.push(`user ${profile.username}: total_favorites ${profile.total_favorites}, favorites held ${held}`);
  }

  // Search index: exactly one posting per (term, post), with the post's author and the words the
  // post has past the term. The slug a posting names is where the post was when the posting was
  // written (a rename rewrites only the terms it changed), so it is not compared.
  const postings = new Map(starts('TERM#').map((item) => [`${item.PK} | ${item.SK}`, item]));
  for (const text of texts) {
    const post = indexedPost(text);
    if (!post) continue;
    for (const [term, words] of indexedTerms(post)) {
      const key = keys.posting(term, post.created, post.id);
      const item = postings.get(`${key.PK} | ${key.SK}`);
      postings.delete(`${key.PK} | ${key.SK}`);
      if (!item) {
        problems.push(`${SEARCH_INDEX} posting missing: ${key.PK} | ${key.SK}`);
        continue;
      }
      const posting = postingFromItem(item);
      if (
        posting.post_id !== post.id ||
        posting.text_version > post.text_version ||
        posting.words.join(' ') !== words ||
        JSON.stringify([posting.author, posting.author_id]) !== JSON.stringify([post.author, post.author_id])
      ) {
        problems.push(`${SEARCH_INDEX} posting ${key.PK} | ${key.SK} does not match its post`);
      }
    }
  }
  for (const orphan of postings.keys()) problems.push(`${SEARCH_INDEX} posting of no post or of a term it lost: ${orphan}`);

  // Tokens: hashes only, of existing active users, with an expiry.
  for (const token of tokens) {
    const hash = String(token.PK).slice('TOKEN#'.length);
    if (!/^[0-9a-f]{64}$/.test(hash)) problems.push(`token key is not a SHA-256: ${token.PK}`);
    const owner = profileByName.get(String(token.username));
    if (!owner || owner.is_active !== true) problems.push(`token of missing or inactive user ${token.username}`);
    else if (Number(owner.id) !== Number(token.user_id)) problems.push(`token of ${token.username} with another user's id`);
    if (typeof token.expires_at !== 'number') problems.push(`token without expires_at: ${token.PK}`);
  }
  problems.push(...commentProblems(items, postIds));
  problems.push(...reportProblems(items, postIds));

  const tokenKeys = new Set(tokens.map((token) => String(token.PK)));
  for (const token of options.revokedTokens ?? []) if (tokenKeys.has(`TOKEN#${hashToken(token)}`)) problems.push('a revoked token is still stored');
  for (const token of options.liveTokens ?? []) if (!tokenKeys.has(`TOKEN#${hashToken(token)}`)) problems.push('a live token is missing');
  return problems;
}

/** What a copy of a comment holds in common with it (lib/comments/comment.ts). */
const COPIED = [
  'id',
  'post_id',
  'thread',
  'thread_sk',
  'sk',
  'in_reply_to',
  'author',
  'author_id',
  'body',
  'created',
  'modified',
  'edited',
  'status',
  'hidden_by',
];

/**
 * Comments: each comment's item and head agree; a thread counts its replies (item and head), a
 * placeholder has some, and the first replies of a thread are copied right after it, as they are;
 * a post counts its published comments; each comment is in its author's list unless a placeholder;
 * the newest sort keys the post and the threads remember are the newest. A deleted post's comments
 * are orphans until the stream consumer removes them.
 */
function commentProblems(items: Item[], postIds: Map<string, Item>): string[] {
  const problems: string[] = [];
  const heads = new Map(items.filter((item) => String(item.PK).startsWith('COMMENT#')).map((item) => [String(item.id), item]));
  const partitionItems = (prefix: string) => items.filter((item) => String(item.PK).startsWith(prefix));
  const threadsByPost = new Map<string, Item[]>();
  const copies = new Map<string, Item>();
  for (const item of partitionItems('THREADS#')) {
    const postId = String(item.PK).slice('THREADS#'.length);
    if (String(item.SK).split('#').length === 2) threadsByPost.set(postId, [...(threadsByPost.get(postId) ?? []), item]);
    else copies.set(`${item.PK} | ${item.SK}`, item);
  }
  const repliesByThread = new Map<string, Item[]>();
  for (const reply of partitionItems('REPLIES#')) {
    const threadId = String(reply.PK).slice('REPLIES#'.length);
    repliesByThread.set(threadId, [...(repliesByThread.get(threadId) ?? []), reply]);
  }
  const seen = new Set<string>();
  const published = new Map<string, number>();
  const check = (comment: Item, where: string) => {
    seen.add(String(comment.id));
    const head = heads.get(String(comment.id));
    if (!postIds.has(String(comment.post_id))) problems.push(`${ORPHAN_COMMENT} ${where} (post gone)`);
    if (!head) return problems.push(`comment ${where} without its head`);
    for (const name of ['post_id', 'thread', 'thread_sk', 'sk', 'status']) {
      if (JSON.stringify(head[name] ?? null) !== JSON.stringify(comment[name] ?? null)) problems.push(`comment ${where}: head's ${name} differs`);
    }
    if (comment.SK !== comment.sk || comment.sk !== listSortKeys.comment(String(comment.created), String(comment.id)))
      problems.push(`comment ${where} not keyed by its place`);
    const listed = comment.status !== 'deleted';
    const listKeys = listed
      ? [listPartitions.commentsOf(String(comment.author)), listSortKeys.comment(String(comment.created), String(comment.id))]
      : [undefined, undefined];
    if (comment.GSI1PK !== listKeys[0] || comment.GSI1SK !== listKeys[1]) problems.push(`comment ${where}: its author's list keys are wrong`);
    if (comment.status === 'published') published.set(String(comment.post_id), (published.get(String(comment.post_id)) ?? 0) + 1);
  };
  for (const [postId, threads] of threadsByPost) {
    const post = postIds.get(postId);
    for (const thread of threads) {
      const where = `${thread.PK} | ${thread.SK}`;
      check(thread, where);
      if (post?.last_thread !== undefined && String(thread.sk) > String(post.last_thread)) problems.push(`thread ${where} sorts after its post's last_thread`);
      const replies = (repliesByThread.get(String(thread.id)) ?? []).sort((a, b) => String(a.SK).localeCompare(String(b.SK)));
      repliesByThread.delete(String(thread.id));
      const head = heads.get(String(thread.id));
      if (Number(thread.total_replies) !== replies.length || Number(head?.total_replies) !== replies.length)
        problems.push(`thread ${where}: total_replies ${thread.total_replies} (head ${head?.total_replies}), replies ${replies.length}`);
      if (thread.status === 'deleted' && replies.length === 0) problems.push(`placeholder ${where} without replies`);
      replies.forEach((reply, at) => {
        const replyWhere = `${reply.PK} | ${reply.SK}`;
        check(reply, replyWhere);
        if (reply.thread !== thread.id || reply.thread_sk !== thread.sk || reply.post_id !== postId) problems.push(`reply ${replyWhere} names another thread`);
        if (head?.last_reply !== undefined && String(reply.sk) > String(head.last_reply))
          problems.push(`reply ${replyWhere} sorts after its thread's last_reply`);
        const copyKey = keys.replyPreview(postId, String(thread.sk), String(reply.sk));
        const copy = copies.get(`${copyKey.PK} | ${copyKey.SK}`);
        copies.delete(`${copyKey.PK} | ${copyKey.SK}`);
        const first = at < 3;
        if (first !== (heads.get(String(reply.id))?.preview === true)) problems.push(`reply ${replyWhere}: preview flag ${!first}, position ${at}`);
        if (first && !copy) problems.push(`reply ${replyWhere}: one of the first replies, not copied`);
        if (!first && copy) problems.push(`reply ${replyWhere}: copied, not one of the first replies`);
        if (copy && COPIED.some((name) => JSON.stringify(copy[name] ?? null) !== JSON.stringify(reply[name] ?? null)))
          problems.push(`reply ${replyWhere}: its copy differs`);
        if (copy && (copy.GSI1PK !== undefined || copy.GSI1SK !== undefined)) problems.push(`reply ${replyWhere}: its copy is in a list`);
      });
    }
  }
  for (const [threadId, replies] of repliesByThread)
    for (const reply of replies) problems.push(`${ORPHAN_COMMENT} reply ${reply.PK} | ${reply.SK} (thread ${threadId} gone)`);
  for (const key of copies.keys()) problems.push(`${ORPHAN_COMMENT} reply copy ${key} of no reply`);
  for (const [id, head] of heads) if (!seen.has(id)) problems.push(`${ORPHAN_COMMENT} head ${head.PK} of no comment`);
  for (const [postId, post] of postIds) {
    if (Number(post.total_comments ?? 0) !== (published.get(postId) ?? 0))
      problems.push(`post ${post.slug}: total_comments ${post.total_comments}, published comments ${published.get(postId) ?? 0}`);
  }
  return problems;
}

/**
 * Reports: each of an existing target and reporter, with its head, once per user and target; a
 * target's item counts its open reports (those of its current round), is listed while it has any,
 * by its newest; a reported comment's head says so. A deleted target's reports are orphans until
 * the stream consumer removes them.
 */
function reportProblems(items: Item[], postIds: Map<string, Item>): string[] {
  const problems: string[] = [];
  const heads = new Map(items.filter((item) => String(item.PK).startsWith('REPORT#')).map((item) => [String(item.id), item]));
  const commentHeads = new Map(items.filter((item) => String(item.PK).startsWith('COMMENT#')).map((item) => [String(item.id), item]));
  const reportItems = items.filter((item) => String(item.PK).startsWith('REPORTED#'));
  const targets = new Map(reportItems.filter((item) => !String(item.SK).includes('#USER#')).map((item) => [`${item.PK} | ${item.SK}`, item]));
  const byTarget = new Map<string, Item[]>();
  for (const report of reportItems.filter((item) => String(item.SK).includes('#USER#'))) {
    const where = `${report.PK} | ${report.SK}`;
    const targetId = `${report.PK} | ${report.target}`;
    byTarget.set(targetId, [...(byTarget.get(targetId) ?? []), report]);
    if (report.SK !== `${report.target}#USER#${String(report.reporter_id).padStart(12, '0')}`)
      problems.push(`report ${where} not keyed by its target and reporter`);
    const head = heads.get(String(report.id));
    heads.delete(String(report.id));
    if (!head || head.post_id !== report.post_id || head.target !== report.target || Number(head.reporter_id) !== Number(report.reporter_id))
      problems.push(`report ${where}: head missing or wrong`);
    const commentId = String(report.target).startsWith('COMMENT#') ? String(report.target).slice('COMMENT#'.length) : undefined;
    const gone = !postIds.has(String(report.post_id)) || (commentId !== undefined && (commentHeads.get(commentId)?.status ?? 'deleted') === 'deleted');
    if (gone) problems.push(`${ORPHAN_REPORT} ${where} (target gone)`);
    if (commentId && !gone && commentHeads.get(commentId)?.reported !== true) problems.push(`report ${where}: its comment's head does not say reported`);
  }
  for (const [targetId, target] of targets) {
    const reports = byTarget.get(targetId) ?? [];
    byTarget.delete(targetId);
    const round = Array.isArray(target.resolutions) ? target.resolutions.length : 0;
    const open = reports.filter((report) => Number(report.round) === round).sort((a, b) => String(a.created).localeCompare(String(b.created)));
    if (Number(target.open_reports ?? 0) !== open.length)
      problems.push(`reported target ${targetId}: open_reports ${target.open_reports}, open ${open.length}`);
    if (reports.some((report) => Number(report.round) > round)) problems.push(`reported target ${targetId}: a report of a round to come`);
    const newest = open.at(-1);
    if (newest && (target.GSI1PK !== listPartitions.openReports || target.GSI1SK !== listSortKeys.openReport(String(newest.created), String(newest.id))))
      problems.push(`reported target ${targetId}: not listed by its newest open report`);
    if (!newest && (target.GSI1PK !== undefined || target.GSI1SK !== undefined)) problems.push(`reported target ${targetId}: listed without open reports`);
    if (reports.length === 0) problems.push(`${ORPHAN_REPORT} target ${targetId} without reports`);
  }
  for (const [targetId] of byTarget) problems.push(`reports of ${targetId} without their target's item`);
  for (const head of heads.values()) problems.push(`${ORPHAN_REPORT} head ${head.PK} of no report`);
  return problems;
}

const ORPHAN_COMMENT = 'orphan comment';
const ORPHAN_REPORT = 'orphan report';
const ORPHAN_VISIT = 'orphan visit';
const ORPHAN_VOTE = 'orphan vote';
const ORPHAN_FAVORITE = 'orphan favorite';
export const SEARCH_INDEX = 'search index:';

/**
 * The table once the stream consumer has caught up (it runs after the transactions): the visits,
 * votes and favorites of deleted posts removed and the search index in step with the posts. Scans until neither is
 * pending, for up to `timeoutMs`; the last scan then shows whatever is still wrong.
 */
export async function settledTable(table: string, timeoutMs = 15_000): Promise<Item[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await scanTable(table);
    const pending = invariantProblems(items).some((problem) =>
      [ORPHAN_VISIT, ORPHAN_VOTE, ORPHAN_FAVORITE, ORPHAN_COMMENT, ORPHAN_REPORT, SEARCH_INDEX].some((kind) => problem.startsWith(kind)),
    );
    if (!pending || Date.now() > deadline) return items;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Writes the figures of a run to test-results/reliability/<name>.json and prints them. */
export function recordFigures(name: string, figures: Record<string, unknown>): void {
  const dir = join(process.cwd(), 'test-results', 'reliability');
  mkdirSync(dir, { recursive: true });
  const text = JSON.stringify({ name, recordedAt: new Date().toISOString(), ...figures }, null, 2);
  writeFileSync(join(dir, `${name}.json`), `${text}\n`);
  console.info(`[figures] ${name}\n${text}`);
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A count per key. */
export function tally(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

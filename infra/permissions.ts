import type { Route } from '#lib/routes.ts';

// What each function may do to the table. A TransactWriteItems call needs, per item it holds,
// the action of that item (Put → PutItem, Update → UpdateItem, Delete → DeleteItem,
// ConditionCheck → ConditionCheckItem); there is no IAM action for the transaction itself.

export type DynamoAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem' | 'BatchWriteItem';

/** Actions that change data; a read-only function holds none of them. */
export const WRITE_ACTIONS: readonly DynamoAction[] = ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'BatchWriteItem'];

export interface TableAccess {
  /** Actions on the table itself. */
  table: readonly DynamoAction[];
  /** Actions on its indexes (`<table arn>/index/*`): only Query applies to an index. */
  indexes: readonly DynamoAction[];
  /** Actions on the search index's table (lib/db/table.ts createSearchTableInput); none if absent. */
  search?: readonly DynamoAction[];
}

/**
 * Each table-using route's function, by handler module: exactly what its code sends. An
 * authenticated handler reads the caller's token alone (GetItem), or together with the items it
 * needs (BatchGetItem); one that fails before its own read (a bad body, a path that cannot name an
 * item) still reads the token alone, since a bad token must be answered 401 first. The IAM guard
 * of the local stack (scripts/local/iam-guard.ts) enforces these in every API test, and
 * test/api/iam.test.ts checks that each function uses every permission it is granted.
 */
export const TABLE_ACCESS: Readonly<Record<string, TableAccess>> = {
  // the token
  'auth/check': { table: ['GetItem'], indexes: [] },
  // the token and the count of active users in one BatchGetItem (the token alone for a request
  // refused before its read: a page that is no number, a body over the limit); a page of the users
  // list (by number: a keys-only skip on the same index)
  'users/list': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'] },
  // token and profile in one BatchGetItem
  'users/detail': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  // the token and the count of tags in one BatchGetItem (the token alone with q); a page of the tags list
  'tags/list': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'] },
  'tags/detail': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  // the token with the page's entries from an index (by number: a keys-only skip first); then the
  // posts' text and stats items in one BatchGetItem; a search Queries the postings of its words in
  // the search table, and in an order the postings do not carry reads a few more of them with
  // BatchGetItem (lib/lists/search.ts)
  'posts/list': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'], search: ['Query', 'BatchGetItem'] },
  'posts/mine': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'], search: ['Query', 'BatchGetItem'] },
  // as posts/list, with the tag (or the profile) read in the token's BatchGetItem (the token alone
  // for a path that cannot name one)
  'posts/tagged': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'], search: ['Query', 'BatchGetItem'] },
  'posts/author': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'], search: ['Query', 'BatchGetItem'] },
  // no token: the page of entries from an index || the tag (BatchGetItem) || the newest removal from
  // the feeds (Query of the table); then the posts' text and stats items in one BatchGetItem
  'feed/rss': { table: ['BatchGetItem', 'Query'], indexes: ['Query'] },
  // credentials and the three failure counters in one BatchGetItem; a failure: TransactWriteItems
  // Update of the counters; a success: TransactWriteItems Put token, Update profile (last_login),
  // ConditionCheck credentials, Delete the pair's counter
  'auth/login': { table: ['BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem', 'DeleteItem'], indexes: [] },
  // a conditional Delete of the token, alone in a TransactWriteItems (idempotent when resent); no read
  'auth/logout': { table: ['DeleteItem'], indexes: [] },
  // token and profile in one BatchGetItem; TransactWriteItems: ConditionCheck token, Update profile
  'users/update': { table: ['GetItem', 'BatchGetItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // sign-up: UpdateItem of the address's attempt counter || BatchGetItem of the sign-up setting and
  // the username's claim and profile; UpdateItem of the user id counter; TransactWriteItems: Put
  // profile, credentials, username claim and token
  'users/signup': { table: ['UpdateItem', 'BatchGetItem', 'PutItem'], indexes: [] },
  // token and credentials in one BatchGetItem (the token alone for a path that cannot name a user);
  // Query of the user's tokens on the lists index; TransactWriteItems: Update credentials,
  // ConditionCheck the caller's token, Delete the other tokens; BatchWriteItem deletes the tokens
  // beyond one transaction and any the index showed late
  'users/password': { table: ['GetItem', 'BatchGetItem', 'UpdateItem', 'ConditionCheckItem', 'DeleteItem', 'BatchWriteItem'], indexes: ['Query'] },
  // a slug given: the token; a slug derived from the title: the token, the title's claim and the
  // slug candidates in one BatchGetItem, then UpdateItem of the slug ticket (lib/slugs/tickets.ts);
  // TransactWriteItems: ConditionCheck token, Put tag, Put title claim
  'tags/create': { table: ['GetItem', 'BatchGetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'], indexes: [] },
  // token, slug candidates and tags in one BatchGetItem (more candidates: another BatchGetItem);
  // UpdateItem of the slug ticket (lib/slugs/tickets.ts); TransactWriteItems: ConditionCheck token, Put post and new tags, Update author and tag counters
  'posts/create': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // token, post text and stats in one BatchGetItem; TransactWriteItems: ConditionCheck token, Put visit (only if new),
  // Put stats and list entries (total_visitors and the views sort key)
  'posts/detail': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'ConditionCheckItem'], indexes: [] },
  // token, post, new slug candidates and tags in one BatchGetItem; TransactWriteItems: ConditionCheck token, Put post
  // items and entries, Delete the old slug's items on a rename and entries of lists left, Put new
  // tags and the feeds' removal item of a post unpublished or untagged (lib/posts/feed-removals.ts),
  // Update counters
  'posts/update': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'DeleteItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // token and post in one BatchGetItem; TransactWriteItems: ConditionCheck token, Delete post items and entries, Update
  // counters (its visits are removed by the stream consumer), Put the feeds' removal item of a
  // published post (lib/posts/feed-removals.ts)
  'posts/delete': { table: ['GetItem', 'BatchGetItem', 'DeleteItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'], indexes: [] },
  // token and post in one BatchGetItem (the token alone for a path that cannot name a post); GetItem
  // of the caller's vote or favorite
  'posts/vote/show': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  'posts/favorite/show': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  // as show; TransactWriteItems: ConditionCheck token, Put (or Delete) vote conditioned on the vote
  // read, Put stats (version) and the entries whose votes sort key moves
  'posts/vote/cast': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'ConditionCheckItem'], indexes: [] },
  'posts/vote/remove': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem'], indexes: [] },
  // token and post in one BatchGetItem; TransactWriteItems: ConditionCheck token, Put (or Delete)
  // favorite, Put stats (version), Update the caller's profile total_favorites
  'posts/favorite/add': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  'posts/favorite/remove': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'DeleteItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // token and post in one BatchGetItem (the token alone for a path that cannot name a post); a
  // Query of each of the post's tag lists on an index, in parallel; the chosen posts' text and
  // stats in one BatchGetItem
  'posts/related': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'] },
  // token and profile in one BatchGetItem (the token alone for a name that cannot exist) || Query of
  // the user's favorites on GSI1; BatchGetItem of the posts (and, for renamed ones, their entries)
  'users/favorites': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'] },
  // token and post in one BatchGetItem (the token alone for a path that cannot name a post); one
  // Query of the post's threads partition (a page by number: a keys-only walk of it first)
  'posts/comments/list': { table: ['GetItem', 'BatchGetItem', 'Query'], indexes: [] },
  // token, post and the head of the comment answered in one BatchGetItem (the token alone for a
  // path that cannot name a post); TransactWriteItems: ConditionCheck token, the post's mine
  // entry and the comment answered, Put the comment, its head and a first reply's copy, Update the
  // post's stats, the thread's item and head, the caller's two rate counters
  'posts/comments/create': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // token and the comment's head in one BatchGetItem (the token alone for a path that cannot be an
  // id); the comment and its post's mine entry in one BatchGetItem
  'comments/detail': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  // as comments/detail; TransactWriteItems: ConditionCheck token and the post's mine entry, Update
  // the comment, its head and the post's stats, Put a first reply's copy
  'comments/update': { table: ['GetItem', 'BatchGetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'], indexes: [] },
  // as comments/detail, with the thread's head || a Query of the thread's first replies;
  // TransactWriteItems: ConditionCheck token and mine entry, Delete (or Update, a placeholder) the
  // comment, its head and its copy, Update the thread's item and head (Delete them with a
  // placeholder's last reply) and the post's stats, Put the next reply's copy and Update its head
  'comments/delete': { table: ['GetItem', 'BatchGetItem', 'Query', 'DeleteItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'], indexes: [] },
  // token and the thread's head in one BatchGetItem; a Query of its replies partition || the
  // post's mine entry (BatchGetItem)
  'comments/replies': { table: ['GetItem', 'BatchGetItem', 'Query'], indexes: [] },
  // token and profile in one BatchGetItem (the token alone for a name that cannot exist) || Query of
  // the user's comments on GSI1; BatchGetItem of their posts' mine entries
  'users/comments': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'] },
  // token and post in one BatchGetItem (the token alone for a path that cannot name a post); the
  // caller's report and the target's item in one BatchGetItem
  'posts/report/show': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  // as posts/report/show; TransactWriteItems: ConditionCheck token, Put report and its head, Update the target's item
  'posts/report/file': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // token and the comment's head in one BatchGetItem (the token alone for a path that cannot be an
  // id); the comment, its post's entry, the caller's report and the target's item in one BatchGetItem
  'comments/report/show': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  // as comments/report/show; TransactWriteItems: ConditionCheck token, Put report and its head,
  // Update the target's item and the comment's head; hiding it: Update the comment and the post's
  // stats, Put a first reply's copy, ConditionCheck the post's entry
  'comments/report/file': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // the token || a Query of the open reports on GSI1; BatchGetItem of the targets (comments and
  // their posts' entries; posts' summaries and stats, a renamed post's entry, summary and stats)
  'reports/list': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'] },
  // token and the report's head in one BatchGetItem (the token alone for a path that cannot be an
  // id); the report, its target's item and the target in one BatchGetItem (a post renamed since:
  // one more); TransactWriteItems: ConditionCheck token, Update the target's item; a comment's
  // Update (item, head, post's stats) and Put (a first reply's copy); a post's change as an
  // update makes it (Put, Delete, Update), with the feeds' removal item
  'reports/resolve': { table: ['GetItem', 'BatchGetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem'], indexes: [] },
  // token, the user's profile and credentials in one BatchGetItem (the token alone for a name that cannot exist)
  'users/suspension/show': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  // as users/suspension/show; the user's tokens listed (Query on GSI1); TransactWriteItems:
  // ConditionCheck the caller's token, Update credentials, profile and the active users' count,
  // Delete the tokens; BatchWriteItem deletes those beyond one transaction and those the index showed late
  'users/suspension/suspend': { table: ['GetItem', 'BatchGetItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'BatchWriteItem'], indexes: ['Query'] },
  // as users/suspension/show; TransactWriteItems: ConditionCheck token, Update credentials, profile and the active users' count
  'users/suspension/reinstate': { table: ['GetItem', 'BatchGetItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // The site's page function (infra/page-function.ts), not a route, anonymous: a post, its slug's
  // claim or the redirect its old slug left, and the items a page shows (GetItem, BatchGetItem);
  // a list's entries and the sitemap's from the indexes (Query)
  'site/page': { table: ['GetItem', 'BatchGetItem'], indexes: ['Query'] },
  // The table's stream consumer (infra/streams.ts), not a route: after a post's deletion, Query of
  // its visits on the table and BatchWriteItem deleting them (lib/reactions/post-removal.ts); after a change
  // of a post's text, in the search table BatchWriteItem of its new postings, checked with a
  // BatchGetItem of the post's stats (and, when a newer text came first, of its mine entry and
  // text, then BatchWriteItem again), conditional DeleteItem of the postings of dropped terms, and
  // on a rename BatchGetItem of the index's rebuild state in the search table (lib/search/postings.ts).
  // Reading the stream itself is the event source's grant (STREAM_READ_ACTIONS).
  // Also after a deletion: Query and BatchWriteItem of its votes, Query of its favorites and
  // TransactWriteItems of Delete favorite + Update holder's profile (lib/favorites/favorite.ts);
  // Query and BatchWriteItem of its comments and reports, and of a deleted comment's reports
  // (lib/comments/removal.ts, lib/reports/removal.ts).
  'streams/table': {
    table: ['Query', 'BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'UpdateItem'],
    indexes: [],
    search: ['BatchGetItem', 'BatchWriteItem', 'DeleteItem'],
  },
};

/** Routes that never touch the table (the API's documentation): no permission at all. */
export const NO_ACCESS: TableAccess = { table: [], indexes: [] };

/** The table access of a route's function. */
export function tableAccess(route: Pick<Route, 'handler' | 'access'>): TableAccess {
  if (route.access === 'none') return NO_ACCESS;
  const access = TABLE_ACCESS[route.handler];
  if (!access) throw new Error(`No table permissions are declared for the handler "${route.handler}" (infra/permissions.ts).`);
  return access;
}

export const iamActions = (actions: readonly DynamoAction[]): string[] => actions.map((action) => `dynamodb:${action}`);

/**
 * The role policy statements of a table access: the stack grants these (infra/api-function.ts) and
 * the local IAM guard enforces the same.
 */
export function tableStatements(access: TableAccess, tableArn: string, searchTableArn: string): { actions: string[]; resources: string[] }[] {
  return [
    ...(access.table.length > 0 ? [{ actions: iamActions(access.table), resources: [tableArn] }] : []),
    ...(access.indexes.length > 0 ? [{ actions: iamActions(access.indexes), resources: [`${tableArn}/index/*`] }] : []),
    ...(access.search?.length ? [{ actions: iamActions(access.search), resources: [searchTableArn] }] : []),
  ];
}

/** What Lambda's event source mapping does with the consumer's role to read the table's stream. */
export type StreamAction = 'ListStreams' | 'DescribeStream' | 'GetShardIterator' | 'GetRecords';

/**
 * The stream grants of a stream consumer's role: CDK's DynamoEventSource gives exactly these
 * (Table.grantStreamRead), ListStreams on `*` (it names no stream) and the reads on the stream.
 */
export const STREAM_READ_ACTIONS: { anyResource: readonly StreamAction[]; stream: readonly StreamAction[] } = {
  anyResource: ['ListStreams'],
  stream: ['DescribeStream', 'GetRecords', 'GetShardIterator'],
};

/** The role policy statements for reading the stream `streamArn` (the local IAM guard enforces them too). */
export function streamStatements(streamArn: string): { actions: string[]; resources: string[] }[] {
  return [
    { actions: STREAM_READ_ACTIONS.anyResource.map((action) => `dynamodb:${action}`), resources: ['*'] },
    { actions: STREAM_READ_ACTIONS.stream.map((action) => `dynamodb:${action}`), resources: [streamArn] },
  ];
}

import type { Route } from '#lib/routes.ts';

// What each function may do to the table. A TransactWriteItems call needs, per item it holds,
// the action of that item (Put → PutItem, Update → UpdateItem, Delete → DeleteItem,
// ConditionCheck → ConditionCheckItem); there is no IAM action for the transaction itself.

export type DynamoAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'BatchWriteItem';

/** Actions that change data; a read-only function holds none of them. */
export const WRITE_ACTIONS: readonly DynamoAction[] = ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'BatchWriteItem'];

export interface TableAccess {
  /** Actions on the table itself. */
  table: readonly DynamoAction[];
  /** Actions on its indexes (`<table arn>/index/*`): only Query applies to an index. */
  indexes: readonly DynamoAction[];
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
  // the token; a page of the users list (by number: a keys-only skip on the same index)
  'users/list': { table: ['GetItem'], indexes: ['Query'] },
  // token and profile in one BatchGetItem
  'users/detail': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  'tags/list': { table: ['GetItem'], indexes: ['Query'] },
  'tags/detail': { table: ['GetItem', 'BatchGetItem'], indexes: [] },
  'posts/list': { table: ['GetItem'], indexes: ['Query'] },
  // credentials GetItem; TransactWriteItems: Put token, Update profile (last_login), ConditionCheck credentials
  'auth/login': { table: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // a conditional DeleteItem of the token; no read
  'auth/logout': { table: ['DeleteItem'], indexes: [] },
  // token and profile in one BatchGetItem; UpdateItem of the profile
  'users/update': { table: ['GetItem', 'BatchGetItem', 'UpdateItem'], indexes: [] },
  // the token; TransactWriteItems: Put tag, Put title claim
  'tags/create': { table: ['GetItem', 'PutItem'], indexes: [] },
  // token, slug candidates and tags in one BatchGetItem (more candidates: another BatchGetItem);
  // TransactWriteItems: Put post and new tags, Update author and tag counters
  'posts/create': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'], indexes: [] },
  // token and post in one BatchGetItem; TransactWriteItems: Put visit (only if new), Put post
  // (total_visitors)
  'posts/detail': { table: ['GetItem', 'BatchGetItem', 'PutItem'], indexes: [] },
  // token, post, new slug candidates and tags in one BatchGetItem; TransactWriteItems: Put post,
  // Delete old slug on a rename, Put new tags, Update counters
  'posts/update': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'DeleteItem', 'UpdateItem'], indexes: [] },
  // token and post in one BatchGetItem; TransactWriteItems: Delete post, Update counters; then
  // Query of the post's visits on the table and BatchWriteItem deleting them
  'posts/delete': { table: ['GetItem', 'BatchGetItem', 'Query', 'DeleteItem', 'UpdateItem', 'BatchWriteItem'], indexes: [] },
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
export function tableStatements(access: TableAccess, tableArn: string): { actions: string[]; resources: string[] }[] {
  return [
    ...(access.table.length > 0 ? [{ actions: iamActions(access.table), resources: [tableArn] }] : []),
    ...(access.indexes.length > 0 ? [{ actions: iamActions(access.indexes), resources: [`${tableArn}/index/*`] }] : []),
  ];
}

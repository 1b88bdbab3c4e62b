import type { Route } from '../lib/routes.ts';

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

/** Every 'read' route: read access to the table and its indexes, nothing else. */
export const READ_ACCESS: TableAccess = { table: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['Query'] };

/**
 * Every 'read-write' route, by handler module: exactly what its code path sends. Every handler with
 * `auth: 'required'` reads the caller's token first (GetItem on the token item).
 */
export const READ_WRITE_ACCESS: Readonly<Record<string, TableAccess>> = {
  // credentials GetItem; TransactWriteItems: Put token, Update profile (last_login), ConditionCheck credentials
  'auth/login': { table: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], indexes: [] },
  // a conditional DeleteItem of the token; no read
  'auth/logout': { table: ['DeleteItem'], indexes: [] },
  // token and profile GetItem; UpdateItem of the profile
  'users/update': { table: ['GetItem', 'UpdateItem'], indexes: [] },
  // token GetItem; TransactWriteItems: Put tag, Put title claim
  'tags/create': { table: ['GetItem', 'PutItem'], indexes: [] },
  // token GetItem; BatchGetItem of slug candidates and tags; TransactWriteItems: Put post and new
  // tags, Update author and tag counters
  'posts/create': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'], indexes: [] },
  // token and post GetItem; TransactWriteItems: Put visit, Put post (total_visitors)
  'posts/detail': { table: ['GetItem', 'PutItem'], indexes: [] },
  // token GetItem; BatchGetItem; TransactWriteItems: Put post, Delete old slug on a rename, Put new
  // tags, Update counters
  'posts/update': { table: ['GetItem', 'BatchGetItem', 'PutItem', 'DeleteItem', 'UpdateItem'], indexes: [] },
  // token and post GetItem; TransactWriteItems: Delete post, Update counters; then Query of the
  // post's visits on the table and BatchWriteItem deleting them
  'posts/delete': { table: ['GetItem', 'Query', 'DeleteItem', 'UpdateItem', 'BatchWriteItem'], indexes: [] },
};

/** Routes that never touch the table (the API's documentation): no permission at all. */
export const NO_ACCESS: TableAccess = { table: [], indexes: [] };

/** The table access of a route's function. */
export function tableAccess(route: Pick<Route, 'handler' | 'access'>): TableAccess {
  if (route.access === 'none') return NO_ACCESS;
  if (route.access === 'read') return READ_ACCESS;
  const access = READ_WRITE_ACCESS[route.handler];
  if (!access) throw new Error(`No table permissions are declared for the read-write handler "${route.handler}" (infra/permissions.ts).`);
  return access;
}

export const iamActions = (actions: readonly DynamoAction[]): string[] => actions.map((action) => `dynamodb:${action}`);

// IAM as DynamoDB applies it to a Lambda function's role: the actions and resources a request
// needs, and whether the role's identity-based policy allows each of them. DynamoDB authorizes
// every item of a batch or transaction on its own: a TransactWriteItems needs PutItem,
// UpdateItem, DeleteItem or ConditionCheckItem per item (there is no action for the transaction
// itself), a Query on an index needs dynamodb:Query on `<table arn>/index/<name>`.
// Sources: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/api-permissions-reference.html
// and https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html

/** One Allow statement: IAM action names (`dynamodb:GetItem`) and resource ARN patterns. */
export interface PolicyStatement {
  actions: readonly string[];
  resources: readonly string[];
}

export interface Permission {
  action: string;
  resource: string;
}

const CREDENTIAL = /Credential=([^/,\s]+)\//;

/** The access key a SigV4 `Authorization` header was signed with: who is calling. */
export function signingAccessKey(authorization: string | undefined): string | undefined {
  return CREDENTIAL.exec(authorization ?? '')?.[1];
}

/** The same header, naming another access key (DynamoDB Local checks no signature). */
export function signedAs(authorization: string | undefined, accessKeyId: string): string {
  return (authorization ?? '').replace(CREDENTIAL, `Credential=${accessKeyId}/`);
}

/** The account the local stack pretends to run in (ARNs need one). */
export const LOCAL_ACCOUNT = '000000000000';

export const tableArn = (region: string, table: string): string => `arn:aws:dynamodb:${region}:${LOCAL_ACCOUNT}:table/${table}`;

/** DynamoDB Local writes this region in its ARNs, whatever region its callers sign for. */
export const DYNAMODB_LOCAL_REGION = 'ddblocal';

/**
 * An ARN of DynamoDB Local (`arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/<label>`) as
 * DynamoDB in `region` writes it: what the role policies name, and what Lambda's events carry.
 */
export function inRegion(arn: string, region: string): string {
  return arn.replace(`arn:aws:dynamodb:${DYNAMODB_LOCAL_REGION}:`, `arn:aws:dynamodb:${region}:`);
}

/**
 * The stream a shard iterator reads. On AWS an iterator is opaque (IAM knows its stream); DynamoDB
 * Local's begin with the stream's ARN and a `|`.
 */
export function iteratorStreamArn(iterator: unknown): string | undefined {
  if (typeof iterator !== 'string') return undefined;
  const arn = iterator.split('|')[0]!;
  return /^arn:aws:dynamodb:[^:]+:\d+:table\/[^/]+\/stream\/.+$/.test(arn) ? arn : undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON parsed from outside, read field by field
type Json = Record<string, any>;

/** The permissions one DynamoDB request needs, from its operation (X-Amz-Target) and body. */
export function requiredPermissions(operation: string, body: Json, region: string): Permission[] {
  const table = (name: unknown) => tableArn(region, String(name));
  const needs = (action: string, resource: string): Permission => ({ action: `dynamodb:${action}`, resource });
  switch (operation) {
    case 'Query':
    case 'Scan':
      return [needs(operation, body.IndexName ? `${table(body.TableName)}/index/${body.IndexName}` : table(body.TableName))];
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.keys(body.RequestItems ?? {}).map((name) => needs(operation, table(name)));
    case 'TransactWriteItems':
      return (body.TransactItems ?? []).flatMap((item: Json) => {
        const [kind, request] = Object.entries(item)[0] ?? [];
        const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' }[kind ?? ''];
        return action ? [needs(action, table((request as Json).TableName))] : [];
      });
    case 'TransactGetItems':
      return (body.TransactItems ?? []).map((item: Json) => needs('GetItem', table(item.Get?.TableName)));
    case 'ListTables':
      return [needs(operation, `arn:aws:dynamodb:${region}:${LOCAL_ACCOUNT}:table/*`)];
    // DynamoDB Streams (the same endpoint locally): on the stream; ListStreams names none.
    case 'DescribeStream':
    case 'GetShardIterator':
      return [needs(operation, typeof body.StreamArn === 'string' ? inRegion(body.StreamArn, region) : '*')];
    case 'GetRecords': {
      const stream = iteratorStreamArn(body.ShardIterator);
      return [needs(operation, stream ? inRegion(stream, region) : '*')];
    }
    case 'ListStreams':
      return [needs(operation, '*')];
    default:
      // GetItem, PutItem, UpdateItem, DeleteItem, DescribeTable, CreateTable, ...: the table itself.
      return [needs(operation, body.TableName === undefined ? '*' : table(body.TableName))];
  }
}

/** IAM's wildcard match: `*` any run of characters, `?` any one character. */
function wildcard(pattern: string, value: string, flags = ''): boolean {
  const regex = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${regex}$`, flags).test(value);
}

/** The first permission of the request that no statement allows (implicit deny), if any. */
export function deniedPermission(statements: readonly PolicyStatement[], needed: readonly Permission[]): Permission | undefined {
  return needed.find(
    (permission) =>
      !statements.some(
        (statement) =>
          // Action names are case-insensitive; resource ARNs are not.
          statement.actions.some((action) => wildcard(action, permission.action, 'i')) &&
          statement.resources.some((resource) => wildcard(resource, permission.resource)),
      ),
  );
}

/** DynamoDB's answer to a request its caller's role does not allow (HTTP 400). */
export function accessDeniedBody(principal: string, permission: Permission): string {
  return JSON.stringify({
    __type: 'com.amazon.coral.service#AccessDeniedException',
    Message:
      `User: ${principal} is not authorized to perform: ${permission.action} on resource: ${permission.resource} ` +
      `because no identity-based policy allows the ${permission.action} action`,
  });
}

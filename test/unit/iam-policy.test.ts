import { describe, expect, it } from 'vitest';
import { deniedPermission, requiredPermissions, tableArn } from '../../scripts/local/iam-policy.ts';

// What the IAM guard asks of a role for each DynamoDB request, as DynamoDB authorizes it.

const REGION = 'us-east-1';
const TABLE = tableArn(REGION, 'posts');

describe('requiredPermissions', () => {
  it('needs the operation on the table for a single-item call', () => {
    expect(requiredPermissions('GetItem', { TableName: 'posts' }, REGION)).toEqual([{ action: 'dynamodb:GetItem', resource: TABLE }]);
    expect(requiredPermissions('UpdateItem', { TableName: 'posts' }, REGION)).toEqual([{ action: 'dynamodb:UpdateItem', resource: TABLE }]);
  });

  it('needs Query on the index for a Query of an index, on the table otherwise', () => {
    expect(requiredPermissions('Query', { TableName: 'posts', IndexName: 'GSI1' }, REGION)).toEqual([
      { action: 'dynamodb:Query', resource: `${TABLE}/index/GSI1` },
    ]);
    expect(requiredPermissions('Query', { TableName: 'posts' }, REGION)).toEqual([{ action: 'dynamodb:Query', resource: TABLE }]);
  });

  it('needs the batch action itself, on each table of the batch', () => {
    const body = { RequestItems: { posts: { Keys: [] }, other: { Keys: [] } } };
    expect(requiredPermissions('BatchGetItem', body, REGION)).toEqual([
      { action: 'dynamodb:BatchGetItem', resource: TABLE },
      { action: 'dynamodb:BatchGetItem', resource: tableArn(REGION, 'other') },
    ]);
  });

  it("needs the stream reads on the stream, written with the region (DynamoDB Local's ARNs say ddblocal)", () => {
    const local = 'arn:aws:dynamodb:ddblocal:000000000000:table/posts/stream/2026-01-01T00:00:00.000';
    const stream = `${TABLE}/stream/2026-01-01T00:00:00.000`;
    expect(requiredPermissions('DescribeStream', { StreamArn: local }, REGION)).toEqual([{ action: 'dynamodb:DescribeStream', resource: stream }]);
    expect(requiredPermissions('GetShardIterator', { StreamArn: local, ShardId: 'x' }, REGION)).toEqual([
      { action: 'dynamodb:GetShardIterator', resource: stream },
    ]);
    // An iterator of DynamoDB Local names its stream; one that does not needs the read on anything.
    expect(requiredPermissions('GetRecords', { ShardIterator: `${local}|001|c2hhcmQ=` }, REGION)).toEqual([
      { action: 'dynamodb:GetRecords', resource: stream },
    ]);
    expect(requiredPermissions('GetRecords', { ShardIterator: 'opaque' }, REGION)).toEqual([{ action: 'dynamodb:GetRecords', resource: '*' }]);
    expect(requiredPermissions('ListStreams', { TableName: 'posts' }, REGION)).toEqual([{ action: 'dynamodb:ListStreams', resource: '*' }]);
    // A grant on the stream covers its reads, and only its.
    const grant = [{ actions: ['dynamodb:GetRecords'], resources: [stream] }];
    expect(deniedPermission(grant, requiredPermissions('GetRecords', { ShardIterator: `${local}|001|x` }, REGION))).toBeUndefined();
    expect(deniedPermission(grant, requiredPermissions('GetRecords', { ShardIterator: 'opaque' }, REGION))).toBeDefined();
  });

  it('needs the action of each item of a transaction, and none for the transaction', () => {
    const body = {
      TransactItems: [
        { Put: { TableName: 'posts' } },
        { Update: { TableName: 'posts' } },
        { Delete: { TableName: 'posts' } },
        { ConditionCheck: { TableName: 'posts' } },
      ],
    };
    expect(requiredPermissions('TransactWriteItems', body, REGION).map((p) => p.action)).toEqual([
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:ConditionCheckItem',
    ]);
  });
});

describe('deniedPermission', () => {
  const policy = [
    { actions: ['dynamodb:GetItem', 'dynamodb:PutItem'], resources: [TABLE] },
    { actions: ['dynamodb:Query'], resources: [`${TABLE}/index/*`] },
  ];

  it('allows what a statement grants, actions compared without case', () => {
    expect(deniedPermission(policy, [{ action: 'dynamodb:getitem', resource: TABLE }])).toBeUndefined();
    expect(deniedPermission(policy, [{ action: 'dynamodb:Query', resource: `${TABLE}/index/GSI1` }])).toBeUndefined();
  });

  it('refuses the first permission no statement grants', () => {
    const needed = [
      { action: 'dynamodb:GetItem', resource: TABLE },
      { action: 'dynamodb:BatchGetItem', resource: TABLE },
    ];
    expect(deniedPermission(policy, needed)).toEqual(needed[1]);
  });

  it('does not let an index grant cover the table, or one table another', () => {
    expect(deniedPermission(policy, [{ action: 'dynamodb:Query', resource: TABLE }])).toBeDefined();
    expect(deniedPermission(policy, [{ action: 'dynamodb:GetItem', resource: tableArn(REGION, 'posts-other') }])).toBeDefined();
    expect(deniedPermission(policy, [{ action: 'dynamodb:GetItem', resource: `${TABLE}/index/GSI1` }])).toBeDefined();
  });

  it('refuses everything to a role without statements', () => {
    expect(deniedPermission([], [{ action: 'dynamodb:GetItem', resource: TABLE }])).toBeDefined();
  });
});

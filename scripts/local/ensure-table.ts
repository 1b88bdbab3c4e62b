import {
  CreateTableCommand,
  DescribeTableCommand,
  type CreateTableCommandInput,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { dynamodb } from '#lib/db/client.ts';
import { searchTableOf } from '#lib/config.ts';
import { createSearchTableInput, createTableInput, TTL_ATTRIBUTE } from '#lib/db/table.ts';

async function describe(tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await dynamodb().send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
    return undefined;
  }
}

/**
 * Creates a table and waits for it. A create that the SDK retried after a timeout (DynamoDB Local
 * under load can take longer than the client's request timeout) finds the table its first attempt
 * made: that is success too.
 */
async function create(input: CreateTableCommandInput): Promise<void> {
  const client = dynamodb();
  try {
    await client.send(new CreateTableCommand(input));
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceInUseException') throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: input.TableName! });
}

/**
 * Creates the table from its single definition when it does not exist yet, and its search table
 * (the table's name and `-search`, as the local functions are told). Returns true if the table was
 * created. A table kept from before its definition had a stream (`.data/`) gets the stream; one
 * kept from before the search table existed gets an empty search table (posts written before then
 * are indexed again when their text next changes).
 */
export async function ensureTable(tableName: string): Promise<boolean> {
  const client = dynamodb();
  const searchTable = searchTableOf(tableName);
  if (!(await describe(searchTable))) {
    await create(createSearchTableInput(searchTable));
  }
  const existing = await describe(tableName);
  const input = createTableInput(tableName);
  if (existing) {
    const wanted = input.StreamSpecification;
    if (wanted?.StreamEnabled && !existing.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: wanted }));
    }
    return false;
  }
  await create(input);
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }));
  return true;
}

/** The ARN of the table's stream as DynamoDB Local names it (region `ddblocal`), or undefined without one. */
export async function tableStreamArn(tableName: string): Promise<string | undefined> {
  const table = await describe(tableName);
  return table?.StreamSpecification?.StreamEnabled ? table.LatestStreamArn : undefined;
}

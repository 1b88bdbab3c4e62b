import { randomUUID } from 'node:crypto';
import type { DynamoDBBatchResponse } from 'aws-lambda';
import type { LocalEventSource, LocalFunction } from './deployment.ts';
import { tableStreamArn } from './ensure-table.ts';
import type { FunctionRuntime, InvokeOutcome } from './function-runtime.ts';
import { checkPattern, passesFilters } from './event-filter.ts';
import { inRegion } from './iam-policy.ts';

// Lambda's event source mapping on the table's DynamoDB stream, played locally against DynamoDB
// Local (docs/streams.md): it reads each shard of the stream in order, a parent shard before its
// children, and invokes the consumer with batches shaped exactly as Lambda sends them, through the
// same function runtime as the gateway (handlers from source, or the bundles of cdk.out). It reads
// the stream as Lambda does, with the function's role: its stream calls are signed with the
// function's access key and pass the IAM guard, which checks them against the role's grants. The
// mapping's settings come from the deployment (infra/streams.ts with the default settings, or the
// template with those it was synthesized with): batch size, partial batch responses, split on
// error, retry attempts. Not played: a parallelization factor above 1, a batching window and a
// maximum record age (none is set by default); a mapping with them is told once at start.
//
// Where it differs from AWS, on purpose: it starts at LATEST when the stack starts (a mapping is
// "created" at each `npm start`; the deployed one starts at TRIM_HORIZON once), shards open at
// start from their newest record and shards found later from their oldest; and since DynamoDB
// Local rounds ApproximateCreationDateTime down to the minute where DynamoDB rounds it to the
// second, the poller gives each record the second it first read it in, if that is within the minute.

/** Lambda polls a DynamoDB stream's shards four times a second. */
export const DEFAULT_POLL_INTERVAL_MS = 250;
/** How often the shards are listed again, for new ones (at once when a shard closes). */
export const DEFAULT_SHARD_REFRESH_MS = 2000;

/** A stream record as DynamoDB Streams' GetRecords answers it (the JSON Lambda passes on). */
interface WireRecord {
  eventID: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  eventVersion?: string;
  eventSource?: string;
  awsRegion?: string;
  dynamodb: {
    ApproximateCreationDateTime?: number;
    Keys: Record<string, unknown>;
    NewImage?: Record<string, unknown>;
    OldImage?: Record<string, unknown>;
    SequenceNumber: string;
    SizeBytes: number;
    StreamViewType: string;
  };
  userIdentity?: unknown;
}

interface Shard {
  id: string;
  parentId?: string;
  /** Where the next iterator starts (after an expired iterator too). */
  position: { type: 'LATEST' | 'TRIM_HORIZON' } | { type: 'AFTER_SEQUENCE_NUMBER'; sequenceNumber: string };
  iterator?: string;
  /** Read and not yet delivered; with the time each record was first read. */
  buffer: { record: WireRecord; readAt: number }[];
  /** Closed and every record delivered. */
  done: boolean;
  /** Failed invocations since the shard last moved on. */
  attempts: number;
  /** The most records the next batch may hold (smaller after a split). */
  batchLimit: number;
}

/** A batch Lambda gave up on: what it would send to the on-failure destination. */
export interface DiscardedBatch {
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  batchSize: number;
  /** `Function.Error` (it threw, crashed, timed out) or `Function.PartialFailure` (batchItemFailures). */
  condition: string;
}

export interface StreamPollerOptions {
  /** The event source mapping (from the deployment) and the function it invokes. */
  source: LocalEventSource;
  fn: LocalFunction;
  /** The runtime the gateway invokes its functions with. */
  runtime: FunctionRuntime;
  /** The IAM guard: the stream is read through it, as the function's role. */
  guardUrl: string;
  tableName: string;
  region: string;
  pollIntervalMs?: number;
  shardRefreshMs?: number;
  /** Where failures are told (a failed batch, a batch given up, a stream error); default: stderr. */
  report?: (message: string) => void;
  /** Called for each batch given up on (the on-failure destination). */
  onDiscard?: (batch: DiscardedBatch) => void;
}

export interface StreamPollerStats {
  invocations: number;
  records: number;
  /** Invocations that failed, wholly or from one record on. */
  failedInvocations: number;
  discardedBatches: number;
}

export interface StreamPoller {
  /** The stream read (as DynamoDB Local names it). */
  readonly streamArn: string;
  readonly stats: StreamPollerStats;
  /**
   * Resolves once everything written to the table before the call has been delivered and
   * answered: a round of polls that began after the call found nothing left to read or deliver.
   */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops polling; resolves when the invocation in flight, if any, has answered. */
  stop(): Promise<void>;
}

class StreamError extends Error {
  constructor(
    override readonly name: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Lambda's reading of a partial batch response (https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-batchfailurereporting.html):
 * the index of the first record to deliver again, or undefined when the batch succeeded. A null or
 * empty response, or an empty or null list, is a success; invalid JSON, or an item identifier that
 * is empty, null, under another key or not a sequence number of the batch, fails the whole batch.
 */
export function checkpointOf(payload: string, batch: readonly { dynamodb: { SequenceNumber: string } }[]): number | undefined {
  let response: unknown;
  try {
    response = payload.trim() === '' ? null : JSON.parse(payload);
  } catch {
    return 0;
  }
  if (response === null || typeof response !== 'object') return undefined;
  const failures = (response as Partial<DynamoDBBatchResponse>).batchItemFailures;
  if (failures === null || failures === undefined) return undefined;
  if (!Array.isArray(failures)) return 0;
  if (failures.length === 0) return undefined;
  let first = Infinity;
  for (const failure of failures as unknown[]) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    const index = typeof id === 'string' && id !== '' ? batch.findIndex((record) => record.dynamodb.SequenceNumber === id) : -1;
    if (index < 0) return 0;
    first = Math.min(first, index);
  }
  return first;
}

/** DynamoDB Local's minute-rounded creation time, made as precise as the moment the record was read allows. */
function creationSeconds(recorded: number | undefined, readAt: number): number | undefined {
  if (recorded === undefined) return undefined;
  if (recorded % 60 !== 0) return recorded;
  return Math.floor(Math.min(readAt / 1000, recorded + 59));
}

/**
 * The settings of a mapping that the poller does not play (it reads one batch per shard at a time,
 * delivers what it read at once, and gives records up for their retries only), as words; none with
 * Lambda's defaults, which are the stack's.
 */
export function unplayedSettings(
  source: Pick<LocalEventSource, 'parallelizationFactor' | 'maximumBatchingWindowSeconds' | 'maximumRecordAgeSeconds'>,
): string[] {
  return [
    ...(source.parallelizationFactor > 1 ? [`parallelization factor ${source.parallelizationFactor}`] : []),
    ...(source.maximumBatchingWindowSeconds > 0 ? [`batching window ${source.maximumBatchingWindowSeconds} s`] : []),
    ...(source.maximumRecordAgeSeconds !== undefined ? [`maximum record age ${source.maximumRecordAgeSeconds} s`] : []),
  ];
}

/** Starts polling the table's stream for one event source mapping; resolves once it reads from LATEST. */
export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const { source, fn, runtime, region } = options;
  source.filters.forEach((pattern) => checkPattern(pattern));
  const pollInterval = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const refreshEvery = options.shardRefreshMs ?? DEFAULT_SHARD_REFRESH_MS;
  const report = options.report ?? ((message: string) => console.error(`stream: ${message}`));
  const unplayed = unplayedSettings(source);
  if (unplayed.length > 0) report(`${fn.name}'s mapping has settings the local poller does not play: ${unplayed.join(', ')} (docs/streams.md)`);
  // The stream's ARN as CloudFormation resolves it for the mapping (here: DescribeTable).
  const streamArn = await tableStreamArn(options.tableName);
  if (!streamArn) throw new Error(`The table ${options.tableName} has no stream.`);
  if (inRegion(streamArn, region) !== source.streamArn) {
    throw new Error(`The table's stream is ${inRegion(streamArn, region)}, the deployment's ${source.streamArn}: start the stack again.`);
  }

  // DynamoDB Streams' JSON API, signed as the function (the guard reads the access key; DynamoDB
  // Local checks no signature).
  const call = async <T>(operation: string, body: Record<string, unknown>): Promise<T> => {
    const date = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const response = await fetch(options.guardUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.0',
        'X-Amz-Target': `DynamoDBStreams_20120810.${operation}`,
        'X-Amz-Date': date,
        Authorization: `AWS4-HMAC-SHA256 Credential=${fn.name}/${date.slice(0, 8)}/${region}/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=${'0'.repeat(64)}`,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (!response.ok) {
      const type = String(parsed.__type ?? 'StreamError')
        .split('#')
        .pop()!;
      throw new StreamError(type, String(parsed.Message ?? parsed.message ?? text));
    }
    return parsed as T;
  };

  const shards = new Map<string, Shard>();
  const stats: StreamPollerStats = { invocations: 0, records: 0, failedInvocations: 0, discardedBatches: 0 };
  let nextRefresh = 0;
  let stopped = false;
  let wake: (() => void) | undefined;
  let lastError = '';
  /** Rounds that ended with nothing to do, and the waiters on one that starts after their call. */
  let round = 0;
  const waiters: { after: number; done: () => void; fail: (error: Error) => void }[] = [];

  const newShard = (id: string, parentId: string | undefined, position: Shard['position']): Shard => ({
    id,
    ...(parentId ? { parentId } : {}),
    position,
    buffer: [],
    done: false,
    attempts: 0,
    batchLimit: source.batchSize,
  });

  /** Lists the stream's shards: those open at start are read from LATEST, later ones from their oldest record. */
  const refresh = async (initial: boolean) => {
    let start: string | undefined;
    do {
      const answer = await call<{
        StreamDescription: {
          Shards?: { ShardId: string; ParentShardId?: string; SequenceNumberRange?: { EndingSequenceNumber?: string } }[];
          LastEvaluatedShardId?: string;
        };
      }>('DescribeStream', { StreamArn: streamArn, ...(start ? { ExclusiveStartShardId: start } : {}) });
      for (const found of answer.StreamDescription.Shards ?? []) {
        if (shards.has(found.ShardId)) continue;
        const closed = found.SequenceNumberRange?.EndingSequenceNumber !== undefined;
        const shard = newShard(found.ShardId, found.ParentShardId, { type: initial ? 'LATEST' : 'TRIM_HORIZON' });
        // Closed before the mapping started: nothing in it is new.
        if (initial && closed) shard.done = true;
        shards.set(found.ShardId, shard);
      }
      start = answer.StreamDescription.LastEvaluatedShardId;
    } while (start);
    nextRefresh = Date.now() + refreshEvery;
  };

  const iteratorOf = async (shard: Shard): Promise<string> => {
    const answer = await call<{ ShardIterator: string }>('GetShardIterator', {
      StreamArn: streamArn,
      ShardId: shard.id,
      ShardIteratorType: shard.position.type,
      ...('sequenceNumber' in shard.position ? { SequenceNumber: shard.position.sequenceNumber } : {}),
    });
    return answer.ShardIterator;
  };

  /** A shard is read once its parent, if the mapping knows it, is done (records of a key stay in order). */
  const readable = (shard: Shard) => !shard.done && !(shard.parentId && shards.get(shard.parentId)?.done === false);

  const lambdaRecord = ({ record, readAt }: Shard['buffer'][number]) => {
    const stream = record.dynamodb;
    const created = creationSeconds(stream.ApproximateCreationDateTime, readAt);
    return {
      eventID: record.eventID,
      eventName: record.eventName,
      eventVersion: record.eventVersion ?? '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: region,
      dynamodb: {
        ...(created === undefined ? {} : { ApproximateCreationDateTime: created }),
        Keys: stream.Keys,
        ...(stream.NewImage ? { NewImage: stream.NewImage } : {}),
        ...(stream.OldImage ? { OldImage: stream.OldImage } : {}),
        SequenceNumber: stream.SequenceNumber,
        SizeBytes: stream.SizeBytes,
        StreamViewType: stream.StreamViewType,
      },
      eventSourceARN: source.streamArn,
      ...(record.userIdentity ? { userIdentity: record.userIdentity } : {}),
    };
  };

  /** Delivers the shard's next batch; true when it moved on (so the shard is read again at once). */
  const deliver = async (shard: Shard): Promise<boolean> => {
    const batch = shard.buffer.slice(0, Math.min(shard.batchLimit, source.batchSize)).map(lambdaRecord);
    const outcome: InvokeOutcome = await runtime.invoke(fn, { Records: batch }, randomUUID());
    stats.invocations += 1;
    const functionError = 'error' in outcome;
    const failedAt = functionError ? 0 : source.reportBatchItemFailures ? checkpointOf(outcome.payload, batch) : undefined;
    const delivered = failedAt ?? batch.length;
    stats.records += delivered;
    if (delivered > 0) {
      shard.buffer.splice(0, delivered);
      shard.attempts = 0;
    }
    if (failedAt === undefined) {
      shard.batchLimit = source.batchSize;
      return true;
    }
    stats.failedInvocations += 1;
    shard.attempts += 1;
    const failed = batch.slice(failedAt);
    const first = failed[0]!.dynamodb.SequenceNumber;
    report(
      functionError
        ? `${fn.name} failed on a batch of ${batch.length} (${outcome.error.errorType}: ${outcome.error.errorMessage}); retrying from ${first}`
        : `${fn.name} reported record ${first} failed (batch of ${batch.length}); retrying from it`,
    );
    if (functionError && source.bisectBatchOnError && batch.length > 1) shard.batchLimit = Math.ceil(batch.length / 2);
    if (source.retryAttempts >= 0 && shard.attempts > source.retryAttempts) {
      const discarded: DiscardedBatch = {
        shardId: shard.id,
        startSequenceNumber: first,
        endSequenceNumber: failed.at(-1)!.dynamodb.SequenceNumber,
        batchSize: failed.length,
        condition: functionError ? 'Function.Error' : 'Function.PartialFailure',
      };
      shard.buffer.splice(0, failed.length);
      shard.attempts = 0;
      shard.batchLimit = source.batchSize;
      stats.discardedBatches += 1;
      report(
        `gave up on records ${discarded.startSequenceNumber}..${discarded.endSequenceNumber} of ${shard.id} after ${source.retryAttempts} retries` +
          (source.onFailureDestination ? " (deployed, the on-failure queue gets this batch's description)" : ''),
      );
      options.onDiscard?.(discarded);
    }
    // A retry waits for the next poll, as Lambda backs off between attempts.
    return false;
  };

  /** Reads the shard when nothing is buffered, then delivers a batch; true when it did something. */
  const pollShard = async (shard: Shard): Promise<boolean> => {
    if (shard.buffer.length === 0) {
      if (!shard.iterator) shard.iterator = await iteratorOf(shard);
      let answer: { Records?: WireRecord[]; NextShardIterator?: string };
      try {
        answer = await call('GetRecords', { ShardIterator: shard.iterator, Limit: source.batchSize });
      } catch (error) {
        const name = (error as Error).name;
        // An iterator lives 15 minutes: take a new one where this one was.
        if (name === 'ExpiredIteratorException') shard.iterator = undefined;
        // DynamoDB Local may refuse an iterator taken at LATEST once records arrive (and a stream
        // trims records after 24 hours): start again from the oldest record it still has, which
        // the consumer's reactions, being idempotent, may see twice.
        if (name === 'TrimmedDataAccessException') {
          shard.iterator = undefined;
          shard.position = { type: 'TRIM_HORIZON' };
        }
        throw error;
      }
      const readAt = Date.now();
      const records = answer.Records ?? [];
      // Records the mapping's filters drop are never delivered; the shard moves past them.
      shard.buffer = records.map((record) => ({ record, readAt })).filter((read) => passesFilters(lambdaRecord(read), source.filters));
      if (records.length > 0) shard.position = { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: records.at(-1)!.dynamodb.SequenceNumber };
      shard.iterator = answer.NextShardIterator;
      if (!answer.NextShardIterator && records.length === 0) {
        // Closed and read to its end: its children may start, so look for them now.
        shard.done = true;
        nextRefresh = 0;
        return true;
      }
      if (records.length === 0) return false;
      if (shard.buffer.length === 0) return true;
    }
    return deliver(shard);
  };

  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollInterval);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async () => {
    while (!stopped) {
      const started = ++round;
      let busy = false;
      try {
        if (Date.now() >= nextRefresh) await refresh(false);
        for (const shard of shards.values()) {
          if (stopped) break;
          if (readable(shard)) busy = (await pollShard(shard)) || busy;
        }
        lastError = '';
      } catch (error) {
        busy = false;
        const message = `reading ${streamArn} failed: ${(error as Error).name}: ${(error as Error).message}`;
        // Told once, not at every poll, until the stream reads again.
        if (message !== lastError) report(message);
        lastError = message;
      }
      const idle = !busy && !lastError && [...shards.values()].every((shard) => shard.buffer.length === 0);
      if (idle) {
        for (const waiter of waiters.filter((w) => w.after < started)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.done();
        }
      }
      if (!busy && !stopped) await sleep();
    }
  };

  await refresh(true);
  for (const shard of shards.values()) if (!shard.done) shard.iterator = await iteratorOf(shard);
  const running = loop();

  return {
    streamArn,
    stats,
    caughtUp: (timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        if (stopped) return reject(new Error('The stream poller is stopped'));
        const waiter = {
          after: round,
          done: () => {
            clearTimeout(timer);
            resolve();
          },
          fail: (error: Error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`The stream poller did not catch up within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      }),
    stop: async () => {
      stopped = true;
      wake?.();
      await running;
      for (const waiter of waiters.splice(0)) waiter.fail(new Error('The stream poller stopped before it caught up'));
    },
  };
}

/** The pollers of a deployment's event source mappings, started and stopped together. */
export interface StreamPollers {
  readonly pollers: StreamPoller[];
  caughtUp(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface DeploymentStreamOptions extends Omit<StreamPollerOptions, 'source' | 'fn' | 'runtime' | 'guardUrl'> {
  /** The running local stack (scripts/local/server.ts). */
  server: { deployment: { eventSources: LocalEventSource[]; functions: Map<string, LocalFunction> }; runtime: FunctionRuntime; guard: { url: string } };
}

/** A poller for each event source mapping of the running stack's deployment. */
export async function startStreamPollers(options: DeploymentStreamOptions): Promise<StreamPollers> {
  const { server, ...rest } = options;
  const pollers: StreamPoller[] = [];
  try {
    for (const source of server.deployment.eventSources) {
      const fn = server.deployment.functions.get(source.functionName);
      if (!fn) throw new Error(`No function ${source.functionName} for the event source mapping on ${source.streamArn}`);
      pollers.push(await startStreamPoller({ ...rest, source, fn, runtime: server.runtime, guardUrl: server.guard.url }));
    }
  } catch (error) {
    await Promise.all(pollers.map((poller) => poller.stop()));
    throw error;
  }
  return {
    pollers,
    caughtUp: async (timeoutMs) => {
      await Promise.all(pollers.map((poller) => poller.caughtUp(timeoutMs)));
    },
    stop: async () => {
      await Promise.all(pollers.map((poller) => poller.stop()));
    },
  };
}

import { Aws, Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type GraphWidgetProps,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { INDEXES } from '#lib/db/table.ts';
import { API_PREFIX, ROUTES, functionName } from '#lib/routes.ts';
import type { ApiFunction } from './api-function.ts';
import { acknowledgeAlarmTopicEncryption } from './nag.ts';
import type { DeploySettings } from './settings.ts';

// The alarms and the dashboard of the deployed service: what an operator is told about (the
// alarm topic, and by mail when `alarmEmail` is set), and where to look first. Every alarm
// compares 5-minute periods (the stream's iterator age 1-minute ones), publishes to the topic when
// it goes into ALARM and when it is OK again, and takes a period without data as not breaching: no
// traffic is not a failure.

/** The period of every alarm but the iterator age's, and of the dashboard's graphs. */
export const ALARM_PERIOD = Duration.minutes(5);

/**
 * The iterator age alarm's period: the search promises a post within about 10 s of its write, so
 * a lag is judged minute by minute (Lambda publishes IteratorAge every minute).
 */
export const ITERATOR_AGE_PERIOD = Duration.minutes(1);

/**
 * The custom metrics of the stream consumer (lib/streams/consumer.ts), published through
 * Powertools Metrics in the namespace and with the `service` dimension of lib/metrics.ts
 * and lib/log.ts (test/infra/monitoring.test.ts checks they agree; the stack does not import the
 * runtime modules that create the Metrics and the Logger).
 */
export const CUSTOM_METRICS = {
  namespace: 'CommunityPosts',
  service: 'community-posts',
  streamLag: 'StreamLag',
  streamRecordFailures: 'StreamRecordFailures',
} as const;

/**
 * The DynamoDB operations the functions send (lib/ and functions/: Get, BatchGet, Query, Put,
 * Update, Delete, BatchWrite and TransactWrite commands), the Scan of the operator's rebuild of the
 * search index (lib/search/reindex.ts, run against the deployed tables), and the stream's GetRecords
 * that the consumer's event source mapping sends: the `Operation`s whose SystemErrors are added up.
 */
export const TABLE_OPERATIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'Scan',
  'GetRecords',
] as const;

/** The route key of each entry of the route table ('GET /api/v1/posts'), as infra/route-keys.ts writes it. */
export function alarmedRouteKeys(): string[] {
  return ROUTES.map((route) => `${route.method} ${API_PREFIX}${route.path}`);
}

/**
 * The dimensions of a route's detailed metrics besides ApiId and Stage. API Gateway publishes an
 * HTTP API's per-route metrics by `Method` and `Resource` (the route's path as declared, with its
 * `{parameters}`), not by a route-key dimension.
 */
export function routeDimensions(routeKey: string): { Method: string; Resource: string } {
  const [method, resource, ...rest] = routeKey.split(' ');
  if (!method || !resource || rest.length > 0) throw new Error(`Not a route key "METHOD /path": ${JSON.stringify(routeKey)}`);
  return { Method: method, Resource: resource };
}

const chunks = <T>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

export interface MonitoringProps {
  settings: DeploySettings;
  api: HttpApi;
  stage: HttpStage;
  /** Every function of the stack, by handler module (the stream consumer included). */
  functions: ReadonlyMap<string, ApiFunction>;
  /** The consumer of the table's stream. */
  streamConsumer: ApiFunction;
  table: Table;
  /** The search index's table. */
  searchTable: Table;
  /** The stream consumer's on-failure queue. */
  streamFailures: Queue;
}

interface AlarmProps {
  /** After the stack's name: `<stack>-<name>`. */
  name: string;
  /** What it means and what to look at first: the mail of the alarm carries it. */
  description: string;
  metric: IMetric;
  threshold: number;
  /** Periods looked at (default 1)... */
  evaluationPeriods?: number;
  /** ...of which this many must breach (default all of them). */
  datapointsToAlarm?: number;
}

/**
 * The alarms of the service, the topic they publish to (with the `alarmEmail` subscription) and
 * one dashboard. See docs/operations.md, "Operating the deployed service", for what each alarm means.
 */
export class Monitoring extends Construct {
  /** Every alarm publishes to it, into ALARM and back to OK. */
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];
  private readonly prefix: string;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { settings, api, stage, table, searchTable, streamConsumer, streamFailures } = props;
    const stack = Stack.of(this);
    this.prefix = stack.stackName;

    // The topic exists with or without an address: other endpoints (a chat integration, a pager,
    // another address) can subscribe to it without a deploy. Its policy lets CloudWatch publish
    // the alarms of this stack (a topic policy replaces SNS's default one) and refuses plain HTTP.
    this.topic = new Topic(this, 'AlarmTopic', { displayName: `${this.prefix} alarms`, enforceSSL: true });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:${this.prefix}-*` },
        },
      }),
    );
    acknowledgeAlarmTopicEncryption(this.topic);
    if (settings.alarmEmail) this.topic.addSubscription(new EmailSubscription(settings.alarmEmail));
    this.action = new SnsAction(this.topic);

    const period = ALARM_PERIOD;
    const apiMetric = (metricName: string, statistic: string, label: string) => stage.metric(metricName, { statistic, period, label });
    const routeLatency = (routeKey: string) =>
      new Metric({
        namespace: 'AWS/ApiGateway',
        metricName: 'Latency',
        dimensionsMap: { ApiId: api.apiId, Stage: stage.stageName, ...routeDimensions(routeKey) },
        statistic: 'p99',
        period,
        label: routeKey,
      });
    const handlers = [...props.functions.keys()];
    const functionOf = (handler: string) => props.functions.get(handler)!.function;

    // The API: the share of 5xx answers, so that one error among a few requests is not an outage.
    const serverErrorRate = new MathExpression({
      expression: '100 * FILL(errors, 0) / requests',
      usingMetrics: { errors: apiMetric('5xx', 'Sum', '5xx'), requests: apiMetric('Count', 'Sum', 'requests') },
      period,
      label: '5xx, % of requests',
    });
    this.alarm('ApiServerErrorRate', {
      name: 'Api-5xxRate',
      description:
        `The API answered ${settings.errorRateAlarmPercent}% or more of its requests with a 5xx in two of the last three 5-minute periods. ` +
        'First: the dashboard (which functions have errors or throttles; DynamoDB throttles or system errors), then the access log ' +
        '(status and integrationError) and the function logs (level ERROR). 503s come from DynamoDB retries running out of time; ' +
        '500s from a handler error or a function that crashed or timed out.',
      metric: serverErrorRate,
      threshold: settings.errorRateAlarmPercent,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });

    // Latency: per route with API Gateway's detailed metrics, else of the whole API.
    const latencyDescription = (what: string) =>
      `The p99 latency of ${what} was ${settings.latencyP99AlarmMs} ms or more in three 5-minute periods in a row. ` +
      "First: the dashboard's function durations and DynamoDB throttles, then the function's log lines (latencyMs, dynamodbCalls, " +
      'consumedCapacity; cold_start). DynamoDB retries can hold a request up to the retry budget (8 s) before it answers 503.';
    if (settings.routeMetrics) {
      for (const routeKey of alarmedRouteKeys()) {
        const { Method, Resource } = routeDimensions(routeKey);
        this.alarm(`Latency${Method}${functionName(Resource)}`, {
          name: `LatencyP99-${routeKey}`,
          description: latencyDescription(routeKey),
          metric: routeLatency(routeKey),
          threshold: settings.latencyP99AlarmMs,
          evaluationPeriods: 3,
        });
      }
    } else {
      this.alarm('ApiLatency', {
        name: 'Api-LatencyP99',
        description: latencyDescription('the API (all routes: routeMetrics is off)'),
        metric: apiMetric('Latency', 'p99', 'p99'),
        threshold: settings.latencyP99AlarmMs,
        evaluationPeriods: 3,
      });
    }

    // Each function's errors: one alarm each, so that the alarm names the function and its log
    // group. The handlers answer what they catch themselves (a 500 or 503 body, which counts in
    // the API's 5xx rate, not here), so a Lambda error is a crash, a timeout or an out-of-memory.
    for (const handler of handlers) {
      const name = functionName(handler);
      this.alarm(`${name}Errors`, {
        name: `${name}-Errors`,
        description:
          `The function of ${handler} failed ${settings.functionErrorsAlarmCount} time(s) or more in 5 minutes: ` +
          "a crash, a timeout or running out of memory (the handlers answer their own errors). First: the function's log group, " +
          'lines with "Task timed out", "Runtime." or level ERROR; then its duration on the dashboard.',
        metric: functionOf(handler).metricErrors({ statistic: 'Sum', period, label: name }),
        threshold: settings.functionErrorsAlarmCount,
      });
    }
    // Throttles: one alarm on Lambda's aggregate of all the functions of the account in the
    // region. None of the functions has reserved concurrency: they all draw on the account's
    // unreserved concurrency, so a throttle anywhere means that pool ran out, whichever function
    // was refused, and the remedy is the same. (An alarm cannot add up the stack's functions
    // themselves: metric math takes 10 metrics at most. The dashboard shows them one by one.)
    this.alarm('LambdaThrottles', {
      name: 'Lambda-Throttles',
      description:
        "Lambda throttled invocations in this region in the last 5 minutes (all the account's functions): the account's " +
        'concurrency is used up, and requests to the API are refused. First: "Functions: throttles" and the concurrent ' +
        'executions on the dashboard (which function, or another application of the account); then the quota "Concurrent ' +
        'executions" in Service Quotas (new accounts start low).',
      metric: new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: 'Sum', period, label: 'throttles (account)' }),
      threshold: 1,
    });

    // The stream consumer: falling behind, and batches given up on. Its record failures are
    // answered as partial batch failures, not Lambda errors, so they surface as iterator age
    // (Lambda retries the batch) and as messages in the on-failure queue (it gave up).
    const iteratorAge = streamConsumer.function.metric('IteratorAge', { statistic: 'Maximum', period, label: 'iterator age (ms)' });
    const minutes = settings.streamIteratorAgeAlarmMinutes;
    this.alarm('StreamIteratorAge', {
      name: 'Stream-IteratorAge',
      description:
        `The consumer of the table's stream was ${settings.streamIteratorAgeAlarmSeconds} s or more behind (maximum iterator age) ` +
        `${minutes === 1 ? 'in the last minute' : `${minutes} minutes in a row`}: the search finds a new or changed post later than ` +
        "the ~10 s it promises, and deletions' clean-up lags. Records leave the stream after 24 hours. First: the consumer's errors, " +
        'duration (against its timeout) and throttles, its log lines ("stream batch" with failed and lagMs, "stream record failed"), ' +
        'and its event source mapping (enabled? State and LastProcessingResult); a backlog without errors asks for ' +
        'streamParallelizationFactor or streamMemorySize (docs/streams.md).',
      metric: iteratorAge.with({ period: ITERATOR_AGE_PERIOD }),
      threshold: settings.streamIteratorAgeAlarmSeconds * 1000,
      evaluationPeriods: minutes,
    });
    const failedBatches = streamFailures.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period, label: 'failed batches waiting' });
    this.alarm('StreamFailedBatches', {
      name: 'Stream-FailedBatches',
      description:
        'The stream consumer gave up on a batch of records after its retries: the on-failure queue (StreamFailures) holds its ' +
        'description (shard, sequence numbers). Its changes were not applied (visits or votes of a deleted post left, search ' +
        "postings missing). First: the consumer's log lines for those sequence numbers, then read the records from the stream " +
        '(kept 24 hours) and delete the message once handled. The alarm stays on while the queue holds messages.',
      metric: failedBatches,
      threshold: 1,
    });

    // The table: throttled requests (the table and each index, as DynamoDB counts them apart)
    // and DynamoDB's own errors. The SDK retries both within the retry budget, so a few pass
    // unnoticed by clients.
    const throttleSum = (metricName: 'ReadThrottleEvents' | 'WriteThrottleEvents', label: string) => {
      // Ids unique across both sums: the dashboard graphs them together.
      const id = metricName === 'ReadThrottleEvents' ? 'read' : 'write';
      const usingMetrics: Record<string, IMetric> = {
        [`${id}Table`]: new Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap: { TableName: table.tableName }, statistic: 'Sum', period }),
      };
      Object.values(INDEXES).forEach((index, i) => {
        usingMetrics[`${id}Index${i}`] = new Metric({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensionsMap: { TableName: table.tableName, GlobalSecondaryIndexName: index.name },
          statistic: 'Sum',
          period,
        });
      });
      return new MathExpression({
        expression: `SUM([${Object.keys(usingMetrics)
          .map((key) => `FILL(${key}, 0)`)
          .join(', ')}])`,
        usingMetrics,
        period,
        label,
      });
    };
    const readThrottles = throttleSum('ReadThrottleEvents', 'reads throttled (table and indexes)');
    const writeThrottles = throttleSum('WriteThrottleEvents', 'writes throttled (table and indexes)');
    const throttleDescription = (what: string) =>
      `DynamoDB throttled ${settings.tableThrottlesAlarmCount} or more ${what} of the table or its indexes in 5 minutes. ` +
      'The table is on demand: a sudden peak (over twice the previous one) or a hot partition key. The SDK retries them; ' +
      "requests that run out of retry budget answer 503. First: the dashboard's consumed capacity and which index throttles; " +
      'then the routes with high dynamodbCalls or consumedCapacity in the function logs.';
    this.alarm('TableReadThrottles', {
      name: 'Table-ReadThrottles',
      description: throttleDescription('reads'),
      metric: readThrottles,
      threshold: settings.tableThrottlesAlarmCount,
    });
    this.alarm('TableWriteThrottles', {
      name: 'Table-WriteThrottles',
      description: throttleDescription('writes'),
      metric: writeThrottles,
      threshold: settings.tableThrottlesAlarmCount,
    });
    // The search table: written by the stream consumer alone (its postings), read by searches.
    // A word's postings share a partition key, so a burst of posts sharing common words is a hot key.
    const searchThrottles = (metricName: 'ReadThrottleEvents' | 'WriteThrottleEvents', label: string) =>
      new Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap: { TableName: searchTable.tableName }, statistic: 'Sum', period, label });
    const searchReadThrottles = searchThrottles('ReadThrottleEvents', 'reads throttled (search table)');
    const searchWriteThrottles = searchThrottles('WriteThrottleEvents', 'writes throttled (search table)');
    this.alarm('SearchTableReadThrottles', {
      name: 'SearchTable-ReadThrottles',
      description:
        `DynamoDB throttled ${settings.tableThrottlesAlarmCount} or more reads of the search table in 5 minutes: the searches (q) of ` +
        "a frequent word read one partition. The SDK retries them; those out of retry budget answer 503. First: the dashboard's " +
        "search throttles, then the list functions' log lines with q (dynamodbCalls, consumedCapacity).",
      metric: searchReadThrottles,
      threshold: settings.tableThrottlesAlarmCount,
    });
    this.alarm('SearchTableWriteThrottles', {
      name: 'SearchTable-WriteThrottles',
      description:
        `DynamoDB throttled ${settings.tableThrottlesAlarmCount} or more writes of the search table in 5 minutes: the stream consumer ` +
        "writes a word's postings to one partition (1,000 WCU/s), so a burst of posts sharing words is retried and the index falls " +
        "behind (see Stream-IteratorAge; searches read the backlog's texts meanwhile). First: the consumer's duration and lag, then " +
        'the burst in the API (posts created or edited).',
      metric: searchWriteThrottles,
      threshold: settings.tableThrottlesAlarmCount,
    });
    const systemErrorsOf = (operation: string) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName: 'SystemErrors',
        dimensionsMap: { TableName: table.tableName, Operation: operation },
        statistic: 'Sum',
        period,
        label: operation,
      });
    const systemErrorMetrics = Object.fromEntries(TABLE_OPERATIONS.map((operation) => [operation.toLowerCase(), systemErrorsOf(operation)]));
    this.alarm('TableSystemErrors', {
      name: 'Table-SystemErrors',
      description:
        'DynamoDB answered requests of the table with an internal error (HTTP 500) in two of the last three 5-minute periods. ' +
        'The SDK retries them; persistent ones reach clients as 503. First: the AWS Health Dashboard for DynamoDB in this region.',
      metric: new MathExpression({
        expression: `SUM([${Object.keys(systemErrorMetrics)
          .map((key) => `FILL(${key}, 0)`)
          .join(', ')}])`,
        usingMetrics: systemErrorMetrics,
        period,
        label: 'system errors',
      }),
      threshold: 1,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });

    // The dashboard: the alarms first, then the API, the functions, the table and the stream.
    const perFunction = (metric: (fn: ReturnType<typeof functionOf>, label: string) => IMetric) =>
      handlers.map((handler) => metric(functionOf(handler), functionName(handler)));
    const graph = (title: string, left: IMetric[], extra: Partial<GraphWidgetProps> = {}) =>
      new GraphWidget({ title, left, width: 12, height: 6, period, ...extra });
    const custom = (metricName: string, statistic: string, label: string) =>
      new Metric({ namespace: CUSTOM_METRICS.namespace, metricName, dimensionsMap: { service: CUSTOM_METRICS.service }, statistic, period, label });
    const rows: IWidget[][] = [
      [
        new TextWidget({
          markdown:
            `# ${this.prefix}\nAlarms publish to the SNS topic \`${this.prefix} alarms\` (the stack's output AlarmTopicArn). ` +
            'What each alarm means and what to do first: docs/operations.md, "Operating the deployed service".',
          width: 24,
          height: 2,
        }),
      ],
      // An alarm status widget shows 100 alarms at most.
      ...chunks(this.alarms, 100).map((alarms, i, all) => [
        new AlarmStatusWidget({
          title: all.length > 1 ? `Alarms (${i + 1} of ${all.length})` : 'Alarms',
          alarms,
          width: 24,
          height: 2 + Math.ceil(alarms.length / 6),
        }),
      ]),
      [
        graph('API: requests, 4xx, 5xx', [apiMetric('Count', 'Sum', 'requests'), apiMetric('4xx', 'Sum', '4xx'), apiMetric('5xx', 'Sum', '5xx')], {
          right: [serverErrorRate],
        }),
        graph('API: latency (ms)', [
          apiMetric('Latency', 'p50', 'p50'),
          apiMetric('Latency', 'p99', 'p99'),
          apiMetric('IntegrationLatency', 'p99', 'integration p99'),
        ]),
      ],
      ...(settings.routeMetrics ? [[graph('Routes: p99 latency (ms)', alarmedRouteKeys().map(routeLatency), { width: 24, height: 8 })]] : []),
      [
        graph(
          'Functions: errors',
          perFunction((fn, label) => fn.metricErrors({ statistic: 'Sum', period, label })),
        ),
        graph(
          'Functions: throttles',
          perFunction((fn, label) => fn.metricThrottles({ statistic: 'Sum', period, label })),
        ),
      ],
      [
        graph(
          'Functions: duration p99 (ms)',
          perFunction((fn, label) => fn.metricDuration({ statistic: 'p99', period, label })),
        ),
        graph(
          'Functions: concurrent executions (max)',
          perFunction((fn, label) => fn.metric('ConcurrentExecutions', { statistic: 'Maximum', period, label })),
          {
            right: [new Metric({ namespace: 'AWS/Lambda', metricName: 'ConcurrentExecutions', statistic: 'Maximum', period, label: 'account, all functions' })],
          },
        ),
      ],
      [
        graph('Table: consumed capacity units', [
          table.metricConsumedReadCapacityUnits({ statistic: 'Sum', period, label: 'read (table)' }),
          table.metricConsumedWriteCapacityUnits({ statistic: 'Sum', period, label: 'write (table)' }),
          ...Object.values(INDEXES).map(
            (index) =>
              new Metric({
                namespace: 'AWS/DynamoDB',
                metricName: 'ConsumedWriteCapacityUnits',
                dimensionsMap: { TableName: table.tableName, GlobalSecondaryIndexName: index.name },
                statistic: 'Sum',
                period,
                label: `write (${index.name})`,
              }),
          ),
        ]),
        graph('Table: throttled requests and system errors', [readThrottles, writeThrottles, searchReadThrottles, searchWriteThrottles], {
          right: TABLE_OPERATIONS.map((operation) => systemErrorsOf(operation).with({ label: `system errors: ${operation}` })),
        }),
      ],
      [
        graph('Stream consumer: iterator age and lag (ms)', [iteratorAge, custom(CUSTOM_METRICS.streamLag, 'Maximum', 'lag (max)')], {
          right: [custom(CUSTOM_METRICS.streamRecordFailures, 'Sum', 'record failures')],
        }),
        graph('Stream consumer: on-failure queue', [failedBatches], {
          right: [streamFailures.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period, label: 'oldest message age (s)' })],
        }),
      ],
    ];
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${this.prefix}-${Aws.REGION}`,
      defaultInterval: Duration.hours(6),
      widgets: rows,
    });
  }

  /** The dashboard in the CloudWatch console of the stack's region. */
  get dashboardUrl(): string {
    return `https://${Aws.REGION}.console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards/dashboard/${this.dashboard.dashboardName}`;
  }

  private alarm(id: string, props: AlarmProps): Alarm {
    const evaluationPeriods = props.evaluationPeriods ?? 1;
    const alarm = new Alarm(this, id, {
      alarmName: `${this.prefix}-${props.name}`,
      alarmDescription: props.description,
      metric: props.metric,
      threshold: props.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods,
      datapointsToAlarm: props.datapointsToAlarm ?? evaluationPeriods,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }
}

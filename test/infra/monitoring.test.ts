import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validations, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../infra/build.ts';
import { ALARM_PERIOD, CUSTOM_METRICS, ITERATOR_AGE_PERIOD, TABLE_OPERATIONS, alarmedRouteKeys, routeDimensions } from '../../infra/monitoring.ts';
import { ACKNOWLEDGMENT_REASONS } from '../../infra/nag.ts';
import { stackRouteKeys } from '../../infra/route-keys.ts';
import { DEFAULT_SETTINGS, type DeploySettings } from '../../infra/settings.ts';
import { TABLE_STREAM_CONSUMER } from '../../infra/streams.ts';
import { INDEXES } from '#lib/db/table.ts';
import { METRICS_NAMESPACE } from '#lib/metrics.ts';
import { SERVICE_NAME } from '#lib/log.ts';
import { API_PREFIX, ROUTES } from '#lib/routes.ts';
import { isDeployTimeFunction, siteBuildFixture } from '../support/site-build.ts';

// The alarms, their topic and the dashboard of infra/monitoring.ts, in the template `cdk synth`
// writes (infra/build.ts, cdk-nag included), with cdk.json's context and with overrides. Bundling
// is skipped: only the template is under test.

const CDK_JSON = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
const PERIOD = ALARM_PERIOD.toSeconds();

type Json = Record<string, any>;

interface Synthesized {
  built: BuiltApp;
  template: Template;
  resources: Record<string, Json>;
  settings: DeploySettings;
}

const outdirs: string[] = [];
const siteAssets = siteBuildFixture();
afterAll(() => [...outdirs, siteAssets].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function synthesize(context: Record<string, unknown> = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'community-posts-monitoring-'));
  outdirs.push(outdir);
  const built = buildApp({ outdir, context: { ...CDK_JSON.context, ...context, 'aws:cdk:bundling-stacks': [] } }, { siteAssets });
  const json = built.app.synth().getStackArtifact(built.stack.artifactId).template as { Resources: Record<string, Json> };
  return { built, template: Template.fromJSON(json), resources: json.Resources, settings: built.settings };
}

const logicalId = (s: Synthesized, element: unknown) => s.built.stack.resolve((element as CfnElement).logicalId) as string;
const topicId = (s: Synthesized) => logicalId(s, s.built.stack.monitoring.topic.node.defaultChild);
const functionId = (s: Synthesized, handler: string) => logicalId(s, s.built.stack.functions.get(handler)!.function.node.defaultChild);
const ofType = (s: Synthesized, type: string) => Object.entries(s.resources).filter(([, resource]) => resource.Type === type);
const alarms = (s: Synthesized) => ofType(s, 'AWS::CloudWatch::Alarm').map(([id, alarm]) => [id, alarm.Properties] as [string, Json]);
const stat = (props: Json) => props.Metrics.map((m: Json) => m.MetricStat).filter(Boolean) as Json[];
/** The alarms whose metrics (one, or those of its expression) include this metric name. */
const alarmsOn = (s: Synthesized, metricName: string) => alarms(s).filter(([, props]) => stat(props).some((m) => m.Metric.MetricName === metricName));
const dimensions = (metricStat: Json) => Object.fromEntries((metricStat.Metric.Dimensions ?? []).map((d: Json) => [d.Name, d.Value]));
const apiRef = (s: Synthesized) => ({ Ref: logicalId(s, s.built.stack.api.node.defaultChild) });
/** The dashboard's body as the text CloudFormation writes, each reference in it as its JSON ({"Ref":"..."}). */
const dashboardBody = (s: Synthesized): string => {
  const [, dashboard] = ofType(s, 'AWS::CloudWatch::Dashboard')[0]!;
  const [separator, parts] = dashboard.Properties.DashboardBody['Fn::Join'] as [string, unknown[]];
  return parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(separator);
};

describe('with the settings of cdk.json (no alarm email)', () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synthesize();
  }, 120_000);

  it("stays well under CloudFormation's 500 resources per stack, alarms included: one inline policy and one invoke permission per function", () => {
    const count = Object.keys(s.resources).length;
    // Room for a few more routes (about 8 resources each with their function and alarms).
    expect(count).toBeLessThanOrEqual(480);
    const functions = ofType(s, 'AWS::Lambda::Function').filter(([id]) => !isDeployTimeFunction(id));
    // CDK's bucket deployment keeps its own policy; every function of the stack has its role's inline one.
    expect(ofType(s, 'AWS::IAM::Policy').length).toBeLessThanOrEqual(1);
    // The page function has CloudFront's two (its URL, and the invocation through it) and no API Gateway one.
    expect(ofType(s, 'AWS::Lambda::Permission').length).toBeLessThanOrEqual(functions.length + 1);
  });

  it("has one alarm topic, without a subscription, that CloudWatch may publish the stack's alarms to, over TLS only", () => {
    s.template.resourceCountIs('AWS::SNS::Topic', 1);
    s.template.resourceCountIs('AWS::SNS::Subscription', 0);
    s.template.hasResourceProperties('AWS::SNS::Topic', { DisplayName: `${s.built.stack.stackName} alarms` });
    s.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topicId(s) }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 'sns:Publish', Principal: '*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Action: 'sns:Publish',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Resource: { Ref: topicId(s) },
            Condition: {
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
              ArnLike: { 'aws:SourceArn': { 'Fn::Join': ['', Match.arrayWith([`:alarm:${s.built.stack.stackName}-*`])] } },
            },
          }),
        ]),
      },
    });
    expect(s.template.findOutputs('AlarmTopicArn').AlarmTopicArn!.Value).toEqual({ Ref: topicId(s) });
  });

  it('makes every alarm publish to the topic into ALARM and back to OK, named after the stack, described, missing data not breaching', () => {
    const all = alarms(s);
    expect(all.length).toBeGreaterThan(ROUTES.length);
    const names = new Set<string>();
    for (const [id, props] of all) {
      expect(props.AlarmActions, id).toEqual([{ Ref: topicId(s) }]);
      expect(props.OKActions, id).toEqual([{ Ref: topicId(s) }]);
      expect(props.TreatMissingData, id).toBe('notBreaching');
      expect(props.ComparisonOperator, id).toBe('GreaterThanOrEqualToThreshold');
      expect(props.AlarmName, id).toMatch(new RegExp(`^${s.built.stack.stackName}-`));
      expect(props.AlarmDescription?.length, id).toBeGreaterThan(80);
      expect(props.AlarmDescription.length, id).toBeLessThanOrEqual(1024); // CloudWatch's limit
      // One period of 5 minutes for every metric (the iterator age's a minute); metric math takes 10 metrics at most.
      const iteratorAge = stat(props).some((metric) => metric.Metric.MetricName === 'IteratorAge');
      for (const metric of stat(props)) expect(metric.Period, id).toBe(iteratorAge ? ITERATOR_AGE_PERIOD.toSeconds() : PERIOD);
      expect(stat(props).length, id).toBeLessThanOrEqual(10);
      names.add(props.AlarmName);
    }
    expect(names.size).toBe(all.length);
  });

  it("alarms on the API's 5xx rate: 5xx / Count of the $default stage, 2 of 3 periods, at errorRateAlarmPercent", () => {
    const [[, props]] = alarmsOn(s, '5xx') as [[string, Json]];
    expect(alarmsOn(s, '5xx')).toHaveLength(1);
    expect(props).toMatchObject({ Threshold: DEFAULT_SETTINGS.errorRateAlarmPercent, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    const expression = props.Metrics.find((m: Json) => m.Expression);
    expect(expression).toMatchObject({ Expression: '100 * FILL(errors, 0) / requests', ReturnData: true });
    for (const [id, metricName] of [
      ['errors', '5xx'],
      ['requests', 'Count'],
    ]) {
      const metric = props.Metrics.find((m: Json) => m.Id === id);
      expect(metric.MetricStat).toEqual({
        Metric: {
          Namespace: 'AWS/ApiGateway',
          MetricName: metricName,
          Dimensions: [
            { Name: 'ApiId', Value: apiRef(s) },
            { Name: 'Stage', Value: '$default' },
          ],
        },
        Period: PERIOD,
        Stat: 'Sum',
      });
      expect(metric.ReturnData).toBe(false);
    }
  });

  it("alarms on each route's p99 latency, by the Method and Resource of its route key, 3 periods in a row, at latencyP99AlarmMs", () => {
    const keys = alarmedRouteKeys();
    expect(keys).toEqual(ROUTES.map((route) => `${route.method} ${API_PREFIX}${route.path}`));
    for (const key of keys) expect(stackRouteKeys(), key).toContain(key);
    const latency = alarmsOn(s, 'Latency');
    expect(latency).toHaveLength(ROUTES.length);
    for (const key of keys) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        AlarmName: `${s.built.stack.stackName}-LatencyP99-${key}`,
        Threshold: DEFAULT_SETTINGS.latencyP99AlarmMs,
        EvaluationPeriods: 3,
        DatapointsToAlarm: 3,
        Metrics: [
          Match.objectLike({
            MetricStat: {
              Metric: {
                Namespace: 'AWS/ApiGateway',
                MetricName: 'Latency',
                Dimensions: Match.arrayWith([
                  { Name: 'ApiId', Value: apiRef(s) },
                  { Name: 'Method', Value: key.split(' ')[0] },
                  { Name: 'Resource', Value: key.split(' ')[1] },
                  { Name: 'Stage', Value: '$default' },
                ]),
              },
              Period: PERIOD,
              Stat: 'p99',
            },
          }),
        ],
      });
    }
    expect(routeDimensions('GET /api/v1/posts/detail/{slug}')).toEqual({ Method: 'GET', Resource: '/api/v1/posts/detail/{slug}' });
    expect(() => routeDimensions('$default')).toThrow();
  });

  it('turns on the per-route (detailed) metrics those alarms read, on the stage and on each route with its own settings', () => {
    const [, stage] = ofType(s, 'AWS::ApiGatewayV2::Stage')[0]!;
    expect(stage.Properties.DefaultRouteSettings.DetailedMetricsEnabled).toBe(true);
    for (const settings of Object.values<Json>(stage.Properties.RouteSettings)) expect(settings.DetailedMetricsEnabled).toBe(true);
  });

  it('alarms on the errors of each function, one alarm per function, at functionErrorsAlarmCount', () => {
    const functions = s.built.stack.functions;
    expect(functions.has(TABLE_STREAM_CONSUMER.handler)).toBe(true);
    expect(ofType(s, 'AWS::Lambda::Function').filter(([id]) => !isDeployTimeFunction(id))).toHaveLength(functions.size);
    const errors = alarmsOn(s, 'Errors');
    expect(errors).toHaveLength(functions.size);
    for (const handler of functions.keys()) {
      s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Threshold: DEFAULT_SETTINGS.functionErrorsAlarmCount,
        EvaluationPeriods: 1,
        Metrics: [
          Match.objectLike({
            MetricStat: {
              Metric: { Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId(s, handler) } }] },
              Period: PERIOD,
              Stat: 'Sum',
            },
          }),
        ],
      });
    }
  });

  it("alarms on Lambda throttles once, on Lambda's aggregate of the account's functions (they share its concurrency)", () => {
    const throttles = alarmsOn(s, 'Throttles');
    expect(throttles).toHaveLength(1);
    const [, props] = throttles[0]!;
    expect(props.Threshold).toBe(1);
    expect(stat(props)).toEqual([{ Metric: { Namespace: 'AWS/Lambda', MetricName: 'Throttles' }, Period: PERIOD, Stat: 'Sum' }]);
  });

  it('alarms when the stream consumer falls behind (its iterator age, at streamIteratorAgeAlarmSeconds) and when a batch lands in its on-failure queue', () => {
    // The search's promise (a post found within about 10 s of its write): 30 s, 3 minutes in a row.
    expect(DEFAULT_SETTINGS.streamIteratorAgeAlarmSeconds).toBe(30);
    expect(DEFAULT_SETTINGS.streamIteratorAgeAlarmMinutes).toBe(3);
    const [[, iteratorAge]] = alarmsOn(s, 'IteratorAge') as [[string, Json]];
    expect(alarmsOn(s, 'IteratorAge')).toHaveLength(1);
    expect(iteratorAge).toMatchObject({ Threshold: 30_000, EvaluationPeriods: 3, DatapointsToAlarm: 3 });
    expect(iteratorAge.Metrics).toEqual([
      expect.objectContaining({
        MetricStat: {
          Metric: {
            Namespace: 'AWS/Lambda',
            MetricName: 'IteratorAge',
            Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId(s, TABLE_STREAM_CONSUMER.handler) } }],
          },
          Period: 60,
          Stat: 'Maximum',
        },
      }),
    ]);
    expect(iteratorAge.AlarmDescription).toContain('30 s or more behind (maximum iterator age) 3 minutes in a row');
    const queue = logicalId(s, s.built.stack.streamFailures.node.defaultChild);
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 1,
      EvaluationPeriods: 1,
      Metrics: [
        Match.objectLike({
          MetricStat: {
            Metric: {
              Namespace: 'AWS/SQS',
              MetricName: 'ApproximateNumberOfMessagesVisible',
              Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue, 'QueueName'] } }],
            },
            Period: PERIOD,
            Stat: 'Maximum',
          },
        }),
      ],
    });
  });

  const searchTableRef = () => ({ Ref: logicalId(s, s.built.stack.searchTable.node.defaultChild) });
  /** The alarms on this metric of the search table, and those of the main table. */
  const throttleAlarms = (metricName: string) => {
    const found = alarmsOn(s, metricName);
    const onSearch = ([, props]: [string, Json]) => stat(props).every((m) => JSON.stringify(dimensions(m).TableName) === JSON.stringify(searchTableRef()));
    return { search: found.filter(onSearch), table: found.filter((alarm) => !onSearch(alarm)) };
  };

  it('alarms on read and on write throttles of the table and every index, added up, at tableThrottlesAlarmCount', () => {
    const table = { Ref: logicalId(s, s.built.stack.table.node.defaultChild) };
    for (const metricName of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
      const found = throttleAlarms(metricName).table;
      expect(found, metricName).toHaveLength(1);
      const [, props] = found[0]!;
      expect(props.Threshold).toBe(DEFAULT_SETTINGS.tableThrottlesAlarmCount);
      const metrics = stat(props);
      expect(metrics.every((m) => m.Metric.MetricName === metricName && m.Stat === 'Sum')).toBe(true);
      expect(metrics.map((m) => dimensions(m))).toEqual([
        { TableName: table },
        ...Object.values(INDEXES).map((index) => ({ TableName: table, GlobalSecondaryIndexName: index.name })),
      ]);
      const expression = props.Metrics.find((m: Json) => m.Expression).Expression as string;
      for (const m of props.Metrics.filter((m: Json) => m.MetricStat)) expect(expression).toContain(`FILL(${m.Id}, 0)`);
      expect(expression).toMatch(/^SUM\(\[/);
    }
  });

  it('alarms on read and on write throttles of the search table, at tableThrottlesAlarmCount', () => {
    for (const [metricName, name] of [
      ['ReadThrottleEvents', 'SearchTable-ReadThrottles'],
      ['WriteThrottleEvents', 'SearchTable-WriteThrottles'],
    ] as const) {
      const found = throttleAlarms(metricName).search;
      expect(found, metricName).toHaveLength(1);
      const [, props] = found[0]!;
      expect(props).toMatchObject({
        AlarmName: `${s.built.stack.stackName}-${name}`,
        Threshold: DEFAULT_SETTINGS.tableThrottlesAlarmCount,
        EvaluationPeriods: 1,
      });
      expect(props.Metrics).toEqual([
        expect.objectContaining({
          MetricStat: {
            Metric: { Namespace: 'AWS/DynamoDB', MetricName: metricName, Dimensions: [{ Name: 'TableName', Value: searchTableRef() }] },
            Period: PERIOD,
            Stat: 'Sum',
          },
        }),
      ]);
    }
  });

  it("alarms on the table's system errors over every operation the functions and the stream send, 2 of 3 periods", () => {
    const found = alarmsOn(s, 'SystemErrors');
    expect(found).toHaveLength(1);
    const [, props] = found[0]!;
    expect(props).toMatchObject({ Threshold: 1, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    expect(stat(props).map((m) => dimensions(m).Operation)).toEqual([...TABLE_OPERATIONS]);
  });

  it('adds up the system errors of every DynamoDB command the deployed code sends (lib/, functions/)', () => {
    const operation = (command: string) =>
      ({
        Get: 'GetItem',
        BatchGet: 'BatchGetItem',
        Put: 'PutItem',
        Update: 'UpdateItem',
        Delete: 'DeleteItem',
        BatchWrite: 'BatchWriteItem',
        TransactWrite: 'TransactWriteItems',
        TransactGet: 'TransactGetItems',
      })[command] ?? command;
    const sent = new Set<string>();
    for (const folder of ['lib', 'functions']) {
      const root = new URL(`../../${folder}/`, import.meta.url);
      for (const file of readdirSync(root, { recursive: true }) as string[]) {
        if (!file.endsWith('.ts')) continue;
        for (const match of readFileSync(new URL(file, root), 'utf8').matchAll(/new ([A-Z][A-Za-z]+)Command\(/g)) sent.add(operation(match[1]!));
      }
    }
    expect(sent.size).toBeGreaterThan(5);
    for (const op of sent) expect(TABLE_OPERATIONS, op).toContain(op);
    expect(TABLE_OPERATIONS).toContain('GetRecords'); // the stream, read by the event source mapping
  });

  it("names the consumer's custom metrics as the code publishes them", () => {
    expect(CUSTOM_METRICS.namespace).toBe(METRICS_NAMESPACE);
    expect(CUSTOM_METRICS.service).toBe(SERVICE_NAME);
    const consumer = readFileSync(new URL('../../lib/streams/consumer.ts', import.meta.url), 'utf8');
    expect(consumer).toContain(`addMetric('${CUSTOM_METRICS.streamLag}'`);
    expect(consumer).toContain(`addMetric('${CUSTOM_METRICS.streamRecordFailures}'`);
  });

  it('has one dashboard showing every alarm, every function, the table, the on-failure queue and every route, and outputs its address', () => {
    s.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const [dashboardId] = ofType(s, 'AWS::CloudWatch::Dashboard')[0]!;
    const body = dashboardBody(s);
    for (const handler of s.built.stack.functions.keys()) expect(body, handler).toContain(JSON.stringify({ Ref: functionId(s, handler) }));
    for (const [id] of alarms(s)) expect(body, id).toContain(JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }));
    expect(body).toContain(JSON.stringify({ Ref: logicalId(s, s.built.stack.table.node.defaultChild) }));
    expect(body).toContain(JSON.stringify({ Ref: logicalId(s, s.built.stack.searchTable.node.defaultChild) }));
    expect(body).toContain(JSON.stringify({ 'Fn::GetAtt': [logicalId(s, s.built.stack.streamFailures.node.defaultChild), 'QueueName'] }));
    for (const key of alarmedRouteKeys()) expect(body, key).toContain(JSON.stringify(key.split(' ')[1]));
    for (const metricName of [
      'Count',
      '4xx',
      '5xx',
      'Latency',
      'Errors',
      'Throttles',
      'Duration',
      'ConcurrentExecutions',
      'ConsumedReadCapacityUnits',
      'ConsumedWriteCapacityUnits',
      'ReadThrottleEvents',
      'WriteThrottleEvents',
      'SystemErrors',
      'IteratorAge',
      CUSTOM_METRICS.streamLag,
      'ApproximateNumberOfMessagesVisible',
    ]) {
      expect(body, metricName).toContain(`"${metricName}"`);
    }
    const url = JSON.stringify(s.template.findOutputs('DashboardUrl').DashboardUrl!.Value);
    expect(url).toContain('.console.aws.amazon.com/cloudwatch/home?region=');
    expect(url).toContain(JSON.stringify({ Ref: dashboardId }));
  });

  it('passes cdk-nag: the topic enforces TLS (SNS3), and its encryption at rest (SNS2) is acknowledged on it with its reason', () => {
    const report = new AwsSolutionsChecks(s.built.app).validateScope(s.built.app);
    expect(report.violations).toEqual([]);
    const acknowledged = s.built.stack.monitoring.topic.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>));
    expect(acknowledged.map(([id, reason]) => [id.replace(/^annotation::/i, ''), reason])).toEqual([
      ['AwsSolutions-SNS2', ACKNOWLEDGMENT_REASONS.alarmTopicEncryption],
    ]);
  });
});

describe('with alarmEmail and thresholds of its own', () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synthesize({
      alarmEmail: 'ops@example.com',
      errorRateAlarmPercent: '2.5',
      latencyP99AlarmMs: '750',
      functionErrorsAlarmCount: '4',
      tableThrottlesAlarmCount: '25',
      streamIteratorAgeAlarmSeconds: '120',
      streamIteratorAgeAlarmMinutes: '1',
    });
  }, 120_000);

  it('subscribes the address to the topic by email, the topic every alarm publishes to', () => {
    s.template.resourceCountIs('AWS::SNS::Topic', 1);
    s.template.resourceCountIs('AWS::SNS::Subscription', 1);
    s.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: topicId(s) } });
    for (const [id, props] of alarms(s)) {
      expect(props.AlarmActions, id).toEqual([{ Ref: topicId(s) }]);
      expect(props.OKActions, id).toEqual([{ Ref: topicId(s) }]);
    }
    expect(s.template.findOutputs('AlarmTopicArn').AlarmTopicArn!.Description).toContain('ops@example.com');
  });

  it('takes every threshold from the settings', () => {
    const thresholds = (metricName: string) => [...new Set(alarmsOn(s, metricName).map(([, props]) => props.Threshold))];
    expect(thresholds('5xx')).toEqual([2.5]);
    expect(thresholds('Latency')).toEqual([750]);
    expect(thresholds('Errors')).toEqual([4]);
    expect(thresholds('ReadThrottleEvents')).toEqual([25]);
    expect(thresholds('WriteThrottleEvents')).toEqual([25]);
    expect(thresholds('IteratorAge')).toEqual([120_000]);
    const [, iteratorAge] = alarmsOn(s, 'IteratorAge')[0]!;
    expect(iteratorAge).toMatchObject({ EvaluationPeriods: 1, DatapointsToAlarm: 1 });
    // The descriptions, mailed with the alarm, say the same.
    const [, rate] = alarmsOn(s, '5xx')[0]!;
    expect(rate.AlarmDescription).toContain('2.5%');
    expect(iteratorAge.AlarmDescription).toContain('120 s or more behind (maximum iterator age) in the last minute');
    for (const [, search] of [...alarmsOn(s, 'ReadThrottleEvents'), ...alarmsOn(s, 'WriteThrottleEvents')])
      expect(search.AlarmDescription).toContain('25 or more');
  });

  it('passes cdk-nag', () => {
    expect(new AwsSolutionsChecks(s.built.app).validateScope(s.built.app).violations).toEqual([]);
  });
});

describe('with routeMetrics=false', () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synthesize({ routeMetrics: 'false' });
  }, 120_000);

  it('turns off the detailed metrics and alarms on the p99 latency of the whole API instead of each route', () => {
    const [, stage] = ofType(s, 'AWS::ApiGatewayV2::Stage')[0]!;
    expect(stage.Properties.DefaultRouteSettings.DetailedMetricsEnabled).toBeUndefined();
    for (const settings of Object.values<Json>(stage.Properties.RouteSettings ?? {})) expect(settings.DetailedMetricsEnabled).toBeUndefined();
    const latency = alarmsOn(s, 'Latency');
    expect(latency).toHaveLength(1);
    const [, props] = latency[0]!;
    expect(props.Threshold).toBe(DEFAULT_SETTINGS.latencyP99AlarmMs);
    expect(stat(props)).toEqual([
      {
        Metric: {
          Namespace: 'AWS/ApiGateway',
          MetricName: 'Latency',
          Dimensions: [
            { Name: 'ApiId', Value: apiRef(s) },
            { Name: 'Stage', Value: '$default' },
          ],
        },
        Period: PERIOD,
        Stat: 'p99',
      },
    ]);
    expect(dashboardBody(s)).not.toContain('"Resource"');
  });
});

describe('with tracing=true', () => {
  it('still synthesizes the same alarms and dashboard, and passes cdk-nag', () => {
    const traced = synthesize({ tracing: 'true' });
    const untraced = synthesize();
    expect(
      ofType(traced, 'AWS::Lambda::Function')
        .filter(([id]) => !isDeployTimeFunction(id))
        .every(([, fn]) => fn.Properties.TracingConfig?.Mode === 'Active'),
    ).toBe(true);
    expect(
      alarms(traced)
        .map(([, props]) => props.AlarmName)
        .sort(),
    ).toEqual(
      alarms(untraced)
        .map(([, props]) => props.AlarmName)
        .sort(),
    );
    traced.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    expect(new AwsSolutionsChecks(traced.built.app).validateScope(traced.built.app).violations).toEqual([]);
  }, 120_000);
});

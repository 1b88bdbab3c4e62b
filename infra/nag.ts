import { DefaultStackSynthesizer, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

// cdk-nag's AwsSolutions pack runs on every synth (infra/app.ts registers it; an unacknowledged
// finding stops the synth) and in the tests. Every finding is fixed in the stack or acknowledged
// here, next to its written reason. cdk-nag 3 uses CDK's own Validations: an acknowledgment
// covers the construct it is made on and everything under it, for exactly one finding id.

/** Registers the AwsSolutions pack on an app (or stage): it then runs at synthesis. */
export function applyNagChecks(app: IConstruct): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
}

export const ACKNOWLEDGMENT_REASONS = {
  indexWildcard:
    "Query on the table's global secondary indexes: `<table arn>/index/*` names exactly the indexes of this one table " +
    '(lists, featured, views, votes, active), which the read-only list operations query; only dynamodb:Query is granted there.',
  runtimeVersion:
    'The functions deliberately run Node.js 22, the version the code and its esbuild target (node22) are built and tested ' +
    'for; moving to a newer runtime is a separate, tested change.',
  noAuthorizer:
    'The API authenticates in the handlers, as its DRF-compatible contract prescribes: `Authorization: Token <key>` is ' +
    "checked against the hashed tokens in the table and refused with the contract's 401 bodies. POST /login is public by " +
    'design and the fallback route only answers 404/405; an API Gateway authorizer would change those responses.',
  xrayWildcard:
    'X-Ray active tracing (`cdk deploy -c tracing=true`): xray:PutTraceSegments and xray:PutTelemetryRecords, the two ' +
    'actions CDK grants a traced function, have no resource type, so "*" is the only resource they can be granted on.',
  streamListing:
    'The stream consumer\'s event source mapping needs dynamodb:ListStreams, which CDK\'s DynamoEventSource grants on "*": ' +
    'the action lists stream ARNs and reads no data; reading the stream itself (DescribeStream, GetRecords, ' +
    "GetShardIterator) is granted on the table's stream ARN alone.",
  onFailureQueue:
    "This queue is the on-failure destination of the table's stream consumer: Lambda writes to it the description of a " +
    'batch it gave up on (shard and sequence numbers; the records stay in the stream for 24 hours). It is itself the ' +
    'dead-letter queue; a queue for its own failures would need one in turn.',
  cursorSecretRotation:
    'The secret only seals the cursors of list pages (lib/db/cursor.ts): rotating it makes every cursor in flight an ' +
    'invalid page, and the functions read it once per cold start. Rotate it by hand when needed (docs/operations.md, "Rotating the cursor secret"), not on a schedule.',
  alarmTopicEncryption:
    "The alarm topic carries CloudWatch's alarm notifications (alarm name, state, reason, metric values), no data of the " +
    "service or its users. CloudWatch cannot publish to a topic encrypted with SNS's AWS managed key (alias/aws/sns): its key " +
    'policy does not let cloudwatch.amazonaws.com use it, so the alarms would fail to notify. A customer managed key for ' +
    'this alone would be a monthly cost for nothing secret; the topic refuses requests without TLS (SNS3 is met).',
  siteBucketLogs:
    'The site bucket is private (all public access blocked, TLS only) and holds the public build of the site, rebuilt at ' +
    'every deploy. It is read by the distribution alone (origin access control) and written by the deployment alone: its ' +
    'server access logs would list CloudFront fetching files. Viewer requests are a matter of the distribution (CFR3).',
  distributionLogs:
    "Viewer access logs of the distribution are off: they would hold every visitor's address and cost per request. " +
    "Every /api/ request that reaches the API is in the API's access log (its stage), and CloudFront's metrics count the " +
    'rest. Turn on standard logging when an incident needs it (docs/site.md).',
  defaultCertificateTls:
    "Without the domainName setting the distribution uses CloudFront's default certificate (*.cloudfront.net), whose " +
    'security policy CloudFront fixes whatever MinimumProtocolVersion says. A domain of your own (domainName and ' +
    'certificateArn, docs/deploy.md) gets TLSv1.2_2021 and meets this rule; browsers negotiate TLS 1.2 or 1.3 with the default today.',
  geoRestriction: 'The community is open to readers in every country: no geographic restriction is wanted.',
  waf:
    'No AWS WAF web ACL: one for CloudFront must be made in us-east-1 and is billed monthly plus per request. The API ' +
    'throttles each route on its stage, limits login failures and sign-ups itself, and the site is static files. Add a ' +
    'web ACL (webAclId) when abuse calls for one (docs/site.md).',
  bucketDeploymentManagedPolicy:
    "CDK's BucketDeployment copies the site into its bucket with a function of CDK's own; its role has " +
    'AWSLambdaBasicExecutionRole, which lets it write its own logs and nothing else.',
  bucketDeploymentWildcards:
    "CDK's BucketDeployment grants its copying function the object actions of a sync (s3:GetObject*, s3:GetBucket*, " +
    's3:List*, and s3:DeleteObject*/s3:Abort* for the prune) on two buckets only: the bootstrap assets bucket it reads ' +
    "the site's zip from, and the site bucket (`<arn>/*`) it writes.",
  bucketDeploymentRuntime:
    "The runtime of CDK's BucketDeployment function is chosen by aws-cdk-lib (it bundles the AWS CLI for that runtime); " +
    'it moves forward with aws-cdk-lib upgrades, not by a setting of this stack.',
} as const;

/** The id cdk-nag gives a wildcard finding on `<table arn>/index/*`. */
export function indexWildcardFindingId(table: CfnElement): string {
  const logicalId = Stack.of(table).resolve(table.logicalId) as string;
  return `AwsSolutions-IAM5[Resource::<${logicalId}.Arn>/index/*]`;
}

/** A role's Query on `<table arn>/index/*`. */
export function acknowledgeIndexWildcard(role: IConstruct, table: CfnElement): void {
  Validations.of(role).acknowledge({ id: indexWildcardFindingId(table), reason: ACKNOWLEDGMENT_REASONS.indexWildcard });
}

/** Node.js 22 while a newer Lambda runtime exists. */
export function acknowledgeRuntimeVersion(fn: IConstruct): void {
  Validations.of(fn).acknowledge({ id: 'AwsSolutions-L1', reason: ACKNOWLEDGMENT_REASONS.runtimeVersion });
}

/** Routes without an API Gateway authorizer (on the API: all its routes). */
export function acknowledgeNoAuthorizer(api: IConstruct): void {
  Validations.of(api).acknowledge({ id: 'AwsSolutions-APIG4', reason: ACKNOWLEDGMENT_REASONS.noAuthorizer });
}

/** The finding on the X-Ray actions' `*` resource, on a traced function's role. */
export const XRAY_WILDCARD_FINDING_ID = 'AwsSolutions-IAM5[Resource::*]';

/** A traced function's role: X-Ray's two actions on `*` (only with `-c tracing=true`). */
export function acknowledgeXrayWildcard(role: IConstruct): void {
  Validations.of(role).acknowledge({ id: XRAY_WILDCARD_FINDING_ID, reason: ACKNOWLEDGMENT_REASONS.xrayWildcard });
}

/** The stream consumer's role: ListStreams on `*` (CDK's DynamoEventSource grant). */
export function acknowledgeStreamListing(role: IConstruct): void {
  Validations.of(role).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: ACKNOWLEDGMENT_REASONS.streamListing });
}

/** The stream consumer's on-failure queue, which is a dead-letter queue itself. */
export function acknowledgeOnFailureQueue(queue: IConstruct): void {
  Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: ACKNOWLEDGMENT_REASONS.onFailureQueue });
}

/** The cursor secret, rotated by hand (a scheduled rotation would break the cursors in flight). */
export function acknowledgeCursorSecretRotation(secret: IConstruct): void {
  Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: ACKNOWLEDGMENT_REASONS.cursorSecretRotation });
}

/** The alarm topic, left unencrypted at rest (CloudWatch cannot use SNS's AWS managed key). */
export function acknowledgeAlarmTopicEncryption(topic: IConstruct): void {
  Validations.of(topic).acknowledge({ id: 'AwsSolutions-SNS2', reason: ACKNOWLEDGMENT_REASONS.alarmTopicEncryption });
}

/** The site bucket: no server access logs of its own (S1). */
export function acknowledgeSiteBucketLogs(bucket: IConstruct): void {
  Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: ACKNOWLEDGMENT_REASONS.siteBucketLogs });
}

/**
 * The distribution of the site and the API: viewer logs, geo restriction, WAF, and the default
 * certificate's TLS while it has no domain of its own (with one, TLSv1.2_2021 meets CFR4).
 */
export function acknowledgeDistribution(distribution: IConstruct, options: { defaultCertificate: boolean }): void {
  const validations = Validations.of(distribution);
  validations.acknowledge({ id: 'AwsSolutions-CFR3', reason: ACKNOWLEDGMENT_REASONS.distributionLogs });
  if (options.defaultCertificate) validations.acknowledge({ id: 'AwsSolutions-CFR4', reason: ACKNOWLEDGMENT_REASONS.defaultCertificateTls });
  validations.acknowledge({ id: 'AwsSolutions-CFR1', reason: ACKNOWLEDGMENT_REASONS.geoRestriction });
  validations.acknowledge({ id: 'AwsSolutions-CFR2', reason: ACKNOWLEDGMENT_REASONS.waf });
}

/** The object actions of a sync that CDK's BucketDeployment grants, each a finding of its own. */
export const BUCKET_DEPLOYMENT_ACTIONS = ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'] as const;

/** The prefix of the id of the function CDK's BucketDeployment adds to the stack (one for all deployments). */
export const BUCKET_DEPLOYMENT_FUNCTION_PREFIX = 'Custom::CDKBucketDeployment';

/**
 * A stack's account, region or partition as cdk-nag writes it in a finding id: the value itself
 * when the stack's environment names it (the CLI's CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION),
 * else the pseudo parameter (an environment-agnostic synth).
 */
function findingValue(value: string, pseudoParameter: string): string {
  return Token.isUnresolved(value) ? `<${pseudoParameter}>` : value;
}

/**
 * The ARN of the bootstrap assets bucket as a finding names it: DefaultStackSynthesizer names the
 * bucket `cdk-<qualifier>-assets-<account>-<region>`, with the literal account and region of an
 * environment-specific stack, the pseudo parameters of an agnostic one.
 */
export function assetsBucketArn(stack: Stack): string {
  const qualifier = stack.synthesizer.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  const account = findingValue(stack.account, 'AWS::AccountId');
  const region = findingValue(stack.region, 'AWS::Region');
  return `arn:${findingValue(stack.partition, 'AWS::Partition')}:s3:::cdk-${qualifier}-assets-${account}-${region}`;
}

/**
 * The function of CDK's BucketDeployment (a singleton under the stack) and its role: the managed
 * logging policy, the sync's wildcards on the assets bucket and on the site bucket's objects, and
 * its runtime. Each finding by its own id.
 */
export function acknowledgeBucketDeployment(stack: Stack, role: IConstruct, siteBucket: CfnElement): void {
  const validations = Validations.of(role);
  validations.acknowledge({
    id: `AwsSolutions-IAM4[Policy::arn:${findingValue(stack.partition, 'AWS::Partition')}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]`,
    reason: ACKNOWLEDGMENT_REASONS.bucketDeploymentManagedPolicy,
  });
  const siteBucketId = stack.resolve(siteBucket.logicalId) as string;
  const resources = [`${assetsBucketArn(stack)}/*`, `<${siteBucketId}.Arn>/*`];
  for (const id of [...BUCKET_DEPLOYMENT_ACTIONS.map((action) => `Action::${action}`), ...resources.map((resource) => `Resource::${resource}`)]) {
    validations.acknowledge({ id: `AwsSolutions-IAM5[${id}]`, reason: ACKNOWLEDGMENT_REASONS.bucketDeploymentWildcards });
  }
  for (const child of stack.node.children) {
    if (child.node.id.startsWith(BUCKET_DEPLOYMENT_FUNCTION_PREFIX)) {
      Validations.of(child).acknowledge({ id: 'AwsSolutions-L1', reason: ACKNOWLEDGMENT_REASONS.bucketDeploymentRuntime });
    }
  }
}

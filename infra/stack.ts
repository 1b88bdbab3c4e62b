import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CfnRoute,
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
  type CfnStage,
  type CorsPreflightOptions,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { API_PREFIX, FALLBACK_HANDLER, ROUTES, functionName, routeMethods } from '#lib/routes.ts';
import { CURSOR_SECRET_VARIABLE, SITE_NAME_VARIABLE, SITE_URL_VARIABLE } from '#lib/config.ts';
import { corsConfiguration, type CorsConfiguration } from '#lib/http/cors.ts';
import { COMMON_PASSWORDS_FILE, COMMON_PASSWORDS_FOLDER, commonPasswordsSourceDirectory } from '#lib/auth/common-passwords.ts';
import { BUNDLED_ASSET_FOLDER, SWAGGER_UI_FILES, swaggerUiDistDirectory } from '#lib/docs/swagger-ui.ts';
import { ApiFunction, type BundledFiles } from './api-function.ts';
import { limitsEnvironment } from './limits.ts';
import { publicReadsEnvironment } from './public-reads.ts';
import { Monitoring } from './monitoring.ts';
import { PageFunction } from './page-function.ts';
import { PAGE_HANDLER, serverBuildBeside } from './pages.ts';
import { acknowledgeCursorSecretRotation, acknowledgeNoAuthorizer, acknowledgeOnFailureQueue, acknowledgeStreamListing } from './nag.ts';
import { tableAccess } from './permissions.ts';
import { SettingsError, siteAddressOf, throttleTotals, type DeploySettings } from './settings.ts';
import { DEFAULT_SITE_ASSETS, Site } from './site.ts';
import { requireSiteBuild } from './site-functions.ts';
import { tableStreamConsumer } from './streams.ts';
import { createPostsTable, createSearchTable } from './table.ts';

export interface CommunityPostsStackProps extends StackProps {
  settings: DeploySettings;
  /** The site's build folder (infra/site.ts); default web/dist at the repository's root. */
  siteAssets?: string;
  /** The site's server build folder (infra/page-function.ts); default the one beside siteAssets (web/dist-server). */
  siteServerBuild?: string;
}

/** Files a handler reads at run time, copied into its bundle: the docs page's Swagger UI assets. */
export const BUNDLED_FILES: Readonly<Record<string, BundledFiles>> = {
  'docs/asset': { from: swaggerUiDistDirectory(), files: SWAGGER_UI_FILES, to: BUNDLED_ASSET_FOLDER },
  // The common-passwords list of the password rules (lib/auth/common-passwords.ts).
  'users/signup': { from: commonPasswordsSourceDirectory(), files: [COMMON_PASSWORDS_FILE], to: COMMON_PASSWORDS_FOLDER },
  'users/password': { from: commonPasswordsSourceDirectory(), files: [COMMON_PASSWORDS_FILE], to: COMMON_PASSWORDS_FOLDER },
};

/** The HTTP API's CORS settings, as the local gateway applies them too (scripts/local/server.ts). */
export function corsPreflight(cors: CorsConfiguration): CorsPreflightOptions {
  return {
    allowOrigins: cors.allowOrigins,
    allowMethods: cors.allowMethods.map((method) => CorsHttpMethod[method as keyof typeof CorsHttpMethod]),
    allowHeaders: cors.allowHeaders,
    exposeHeaders: cors.exposeHeaders,
    maxAge: Duration.seconds(cors.maxAge),
  };
}

/** One JSON object per request; no header or body is logged (they may hold tokens). */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integrationStatus',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
} as const;

/**
 * What the API functions and the page function share: the site's name (the pages' and feeds'
 * titles), the site's address when the settings name one, and public reads with their
 * shared-cache time, each under the variable lib/config.ts reads.
 */
function siteEnvironment(settings: DeploySettings): Record<string, string> {
  return {
    [SITE_NAME_VARIABLE]: settings.siteName,
    ...(siteAddressOf(settings) ? { [SITE_URL_VARIABLE]: siteAddressOf(settings)! } : {}),
    ...publicReadsEnvironment(settings),
  };
}

/**
 * The environment of every API function: CORS, the feed's site (siteUrl or the domain when set;
 * else the stack's own distribution, added once it exists), whether sign-up is closed, the
 * numbers of the abuse limits, and public reads with their shared-cache time, each under the
 * variable lib/config.ts reads.
 */
function apiEnvironment(settings: DeploySettings): Record<string, string> {
  return {
    CORS_ALLOWED_ORIGINS: settings.allowedOrigins.join(','),
    ...limitsEnvironment(settings),
    ...siteEnvironment(settings),
  };
}

/**
 * One permission per function for API Gateway to invoke it from this API (any of its routes), not
 * one per route: with a route's HEAD and GET apart that halves the permissions, which keeps the
 * stack under CloudFormation's 500 resources (docs/deploy.md). Only the routes integrated with a
 * function reach it.
 */
const API_SCOPED_PERMISSION = { scopePermissionToRoute: false } as const;

/** How long the on-failure queue keeps the description of a batch the stream consumer gave up on: SQS's most. */
export const STREAM_FAILURE_RETENTION = Duration.days(14);

/**
 * The whole service: the table, one function per route of lib/routes.ts (plus the fallback that
 * answers 404/405), the HTTP API that routes to them, and the consumer of the table's stream
 * (infra/streams.ts) with its on-failure queue; its alarms and dashboard (infra/monitoring.ts).
 */
export class CommunityPostsStack extends Stack {
  readonly table: Table;
  /** The search index's postings (lib/search/postings.ts). */
  readonly searchTable: Table;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The function of each handler module, fallback and stream consumer included. */
  readonly functions = new Map<string, ApiFunction>();
  /** Where Lambda describes a batch of the table's stream that the consumer failed on every retry. */
  readonly streamFailures: Queue;
  /** What seals the cursors of the lists' `Link`s: generated at the first deploy, never in the template. */
  readonly cursorSecret: Secret;
  /** The alarms, their topic and the dashboard (infra/monitoring.ts). */
  readonly monitoring: Monitoring;
  /** The site's bucket and the distribution of the site and the API (infra/site.ts). */
  readonly site: Site;

  constructor(scope: Construct, id: string, props: CommunityPostsStackProps) {
    super(scope, id, props);
    const { settings } = props;
    // Before the functions' bundling: a missing site build stops the synth at once.
    const siteAssets = props.siteAssets ?? DEFAULT_SITE_ASSETS;
    requireSiteBuild(siteAssets);

    this.table = createPostsTable(this, 'Table');
    this.searchTable = createSearchTable(this, 'SearchTable');

    const fn = (handler: string, description: string, usesTable = true) => {
      let existing = this.functions.get(handler);
      if (!existing) {
        existing = new ApiFunction(this, functionName(handler), {
          handler,
          ...(usesTable ? { table: this.table } : {}),
          ...(BUNDLED_FILES[handler] ? { bundledFiles: BUNDLED_FILES[handler] } : {}),
          memorySize: settings.memorySize,
          logRetention: settings.logRetentionDays,
          environment: apiEnvironment(settings),
          tracing: settings.tracing,
          description,
        });
        this.functions.set(handler, existing);
      }
      return existing;
    };

    // Requests no route takes, on any path and method: the DRF-shaped 404, or 405 on a known path.
    const fallback = fn(FALLBACK_HANDLER, 'Answers 404 / 405 for requests no route takes');

    this.api = new HttpApi(this, 'Api', {
      apiName: `${this.stackName}-api`,
      description: 'community-posts REST API',
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', fallback.function, API_SCOPED_PERMISSION),
      corsPreflight: corsPreflight(corsConfiguration(settings.allowedOrigins)),
    });

    this.cursorSecret = new Secret(this, 'CursorSecret', {
      description: 'Seals the cursors of the API list pages (lib/db/cursor.ts)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledgeCursorSecretRotation(this.cursorSecret);

    for (const route of ROUTES) {
      const path = `${API_PREFIX}${route.path}`;
      const routeFunction = fn(route.handler, `${route.method} ${path}`, route.access !== 'none');
      routeFunction.grantTable(this.table, this.searchTable, tableAccess(route));
      // A dynamic reference: CloudFormation puts the value in the function's configuration at
      // deploy time, and the function reads it from its environment (once per cold start).
      if (route.paged) routeFunction.function.addEnvironment(CURSOR_SECRET_VARIABLE, this.cursorSecret.secretValue.unsafeUnwrap());
      // HTTP API routes HEAD only where a route says so: a GET's function answers its HEAD too.
      this.api.addRoutes({
        path,
        methods: routeMethods(route).map((method) => HttpMethod[method]),
        integration: new HttpLambdaIntegration(`${functionName(route.handler)}${route.method}Integration`, routeFunction.function, API_SCOPED_PERMISSION),
      });
    }
    acknowledgeNoAuthorizer(this.api);

    // The table's stream consumer: the function defaults but its own timeout and memory, the table
    // actions its code sends (infra/permissions.ts) and the stream reads its event source grants.
    const consumerSettings = tableStreamConsumer(settings);
    const consumer = new ApiFunction(this, functionName(consumerSettings.handler), {
      handler: consumerSettings.handler,
      table: this.table,
      memorySize: settings.streamMemorySize,
      timeout: Duration.seconds(settings.streamTimeoutSeconds),
      logRetention: settings.logRetentionDays,
      tracing: settings.tracing,
      description: "Reacts to the changes of the table's stream",
    });
    this.functions.set(consumerSettings.handler, consumer);
    consumer.grantTable(this.table, this.searchTable, tableAccess({ handler: consumerSettings.handler, access: 'read-write' }));
    this.streamFailures = new Queue(this, 'StreamFailures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: STREAM_FAILURE_RETENTION,
    });
    acknowledgeOnFailureQueue(this.streamFailures);
    consumer.function.addEventSource(
      new DynamoEventSource(this.table, {
        startingPosition: StartingPosition[consumerSettings.startingPosition],
        batchSize: consumerSettings.batchSize,
        bisectBatchOnError: consumerSettings.bisectBatchOnError,
        retryAttempts: consumerSettings.retryAttempts,
        reportBatchItemFailures: consumerSettings.reportBatchItemFailures,
        filters: consumerSettings.filters.map((pattern) => FilterCriteria.filter(pattern)),
        parallelizationFactor: consumerSettings.parallelizationFactor,
        maxBatchingWindow: Duration.seconds(consumerSettings.maximumBatchingWindowSeconds),
        ...(consumerSettings.maximumRecordAgeSeconds === undefined ? {} : { maxRecordAge: Duration.seconds(consumerSettings.maximumRecordAgeSeconds) }),
        onFailure: new SqsDlq(this.streamFailures),
      }),
    );
    acknowledgeStreamListing(consumer.role);

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: settings.logRetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      // The stage's default route settings: a throttle for EACH route on its own, not across them.
      throttle: { rateLimit: settings.throttlingRateLimit, burstLimit: settings.throttlingBurstLimit },
      // Per-route metrics (Method and Resource dimensions), for the per-route latency alarms.
      ...(settings.routeMetrics ? { detailedMetricsEnabled: true } : {}),
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    // Routes of `routeThrottling` get their own throttle: the stage's RouteSettings, which HttpStage
    // has no prop for. API Gateway refuses a key with no route yet, so the stage waits for them.
    const routes = new Map(
      this.api.node
        .findAll()
        .filter((construct): construct is CfnRoute => construct instanceof CfnRoute)
        .map((route) => [route.routeKey, route]),
    );
    // A JSON property (a map by route key), so in CloudFormation's names. Every value each time:
    // a route's settings replace the stage's default ones, they are not merged with them.
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number; DetailedMetricsEnabled?: boolean }> = {};
    for (const [routeKey, limits] of Object.entries(settings.routeThrottling)) {
      const route = routes.get(routeKey);
      if (!route) throw new SettingsError(`Context "routeThrottling": the API has no route "${routeKey}".`);
      routeSettings[routeKey] = {
        ThrottlingRateLimit: limits.rateLimit,
        ThrottlingBurstLimit: limits.burstLimit,
        ...(settings.routeMetrics ? { DetailedMetricsEnabled: true } : {}),
      };
      this.stage.node.addDependency(route);
    }
    if (Object.keys(routeSettings).length > 0) (this.stage.node.defaultChild as CfnStage).routeSettings = routeSettings;
    // HTTP APIs have no limit across routes: the most the API accepts is the sum over its routes
    // (and never more than the account's Regional quota, shared with its other APIs).
    const totals = throttleTotals(settings, [...routes.keys()]);
    new CfnOutput(this, 'MaxRequestRate', {
      description:
        `Most requests per second the API accepts: the rate limits of its ${totals.routes} routes added up ` +
        `(${totals.overridden} set by routeThrottling; the bursts add up to ${totals.burstLimit}). ` +
        'The Regional quota of the account (10,000 per second unless raised, shared by all its APIs) can be lower.',
      value: String(totals.rateLimit),
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API',
      value: `${this.stage.url}${API_PREFIX.replace(/^\//, '')}`,
    });
    // The pages: SITE_URL only from the settings. The distribution's own address would make a
    // cycle (the distribution needs the function's URL); the function reads it from the header
    // the distribution's viewer-request function sets (lib/site/origin.ts).
    const pages = new PageFunction(this, functionName(PAGE_HANDLER), {
      table: this.table,
      searchTable: this.searchTable,
      serverBuild: props.siteServerBuild ?? serverBuildBeside(siteAssets),
      memorySize: settings.memorySize,
      logRetention: settings.logRetentionDays,
      tracing: settings.tracing,
      environment: siteEnvironment(settings),
    });
    this.functions.set(PAGE_HANDLER, pages);
    this.site = new Site(this, 'Site', {
      api: this.api,
      pages: pages.url,
      publicCacheSeconds: settings.publicCacheSeconds,
      publicReads: settings.publicReads,
      ...(props.siteAssets ? { assets: props.siteAssets } : {}),
      ...(settings.certificateArn
        ? { domain: { names: settings.domainNames, certificateArn: settings.certificateArn, hostedZoneId: settings.hostedZoneId } }
        : {}),
    });
    // The feed links posts to the site: the siteUrl setting or the domain, else this
    // distribution. No cycle: the distribution needs the API's id, not its functions or routes;
    // each API function is then created once the distribution's domain is known.
    if (!siteAddressOf(settings)) {
      for (const [handler, apiFunction] of this.functions) {
        if (handler !== consumerSettings.handler && handler !== PAGE_HANDLER) apiFunction.function.addEnvironment(SITE_URL_VARIABLE, this.site.url);
      }
    }
    // A new template names the build's new assets: the function changes once they are uploaded.
    pages.function.node.addDependency(...this.site.deployments);
    new CfnOutput(this, 'SiteUrl', {
      description: 'The site, with the API under /api/ on the same host (clients that send a GET with a body keep using ApiUrl)',
      value: this.site.url,
    });
    new CfnOutput(this, 'DistributionDomainName', {
      description: settings.domainNames.length
        ? `The distribution's own name: the target of the CNAME (or alias) records of ${settings.domainNames.join(', ')}` +
          (settings.hostedZoneId ? ` (the stack's alias records in ${settings.hostedZoneId})` : ' at your DNS provider')
        : "The distribution's own name (SiteUrl's host)",
      value: this.site.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'TableName', {
      description: 'The DynamoDB table (TABLE_NAME for `npm run admin -- --aws ...`)',
      value: this.table.tableName,
    });
    new CfnOutput(this, 'SearchTableName', {
      description: "The search index's table (SEARCH_TABLE_NAME for `npm run admin -- --aws reindex`)",
      value: this.searchTable.tableName,
    });

    this.monitoring = new Monitoring(this, 'Monitoring', {
      settings,
      api: this.api,
      stage: this.stage,
      functions: this.functions,
      streamConsumer: consumer,
      table: this.table,
      searchTable: this.searchTable,
      streamFailures: this.streamFailures,
    });
    new CfnOutput(this, 'DashboardUrl', {
      description: 'The CloudWatch dashboard of the service',
      value: this.monitoring.dashboardUrl,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: `The SNS topic every alarm publishes to${settings.alarmEmail ? ` (mailed to ${settings.alarmEmail} once confirmed)` : ''}: subscribe endpoints to it`,
      value: this.monitoring.topic.topicArn,
    });
  }
}

import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { API_PREFIX, FALLBACK_HANDLER, ROUTES } from '../lib/routes.ts';
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from '../lib/http/cors.ts';
import { BUNDLED_ASSET_FOLDER, SWAGGER_UI_FILES, swaggerUiDistDirectory } from '../lib/docs/swagger-ui.ts';
import { ApiFunction, type BundledFiles } from './api-function.ts';
import { acknowledgeNoAuthorizer } from './nag.ts';
import { tableAccess } from './permissions.ts';
import type { DeploySettings } from './settings.ts';
import { createPostsTable } from './table.ts';

export interface CommunityPostsStackProps extends StackProps {
  settings: DeploySettings;
}

/** Files a handler reads at run time, copied into its bundle: the docs page's Swagger UI assets. */
export const BUNDLED_FILES: Readonly<Record<string, BundledFiles>> = {
  'docs/asset': { from: swaggerUiDistDirectory(), files: SWAGGER_UI_FILES, to: BUNDLED_ASSET_FOLDER },
};

/** 'posts/detail' → 'PostsDetail': the construct id of a handler's function. */
export function functionId(handler: string): string {
  return handler
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
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
 * The whole service: the table, one function per route of lib/routes.ts (plus the fallback that
 * answers 404/405), and the HTTP API that routes to them.
 */
export class CommunityPostsStack extends Stack {
  readonly table: Table;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The function of each handler module, fallback included. */
  readonly functions = new Map<string, ApiFunction>();

  constructor(scope: Construct, id: string, props: CommunityPostsStackProps) {
    super(scope, id, props);
    const { settings } = props;

    this.table = createPostsTable(this, 'Table');

    const fn = (handler: string, description: string, usesTable = true) => {
      let existing = this.functions.get(handler);
      if (!existing) {
        existing = new ApiFunction(this, functionId(handler), {
          handler,
          ...(usesTable ? { table: this.table } : {}),
          ...(BUNDLED_FILES[handler] ? { bundledFiles: BUNDLED_FILES[handler] } : {}),
          memorySize: settings.memorySize,
          logRetention: settings.logRetentionDays,
          environment: { CORS_ALLOWED_ORIGINS: settings.allowedOrigins.join(',') },
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
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', fallback.function),
      corsPreflight: {
        allowOrigins: settings.allowedOrigins,
        allowMethods: CORS_ALLOWED_METHODS.map((method) => CorsHttpMethod[method as keyof typeof CorsHttpMethod]),
        allowHeaders: CORS_ALLOWED_HEADERS,
        exposeHeaders: CORS_EXPOSED_HEADERS,
        maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
      },
    });

    for (const route of ROUTES) {
      const path = `${API_PREFIX}${route.path}`;
      const routeFunction = fn(route.handler, `${route.method} ${path}`, route.access !== 'none');
      routeFunction.grantTable(this.table, tableAccess(route));
      this.api.addRoutes({
        path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${functionId(route.handler)}${route.method}Integration`, routeFunction.function),
      });
    }
    acknowledgeNoAuthorizer(this.api);

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: settings.logRetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: settings.throttlingRateLimit, burstLimit: settings.throttlingBurstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API',
      value: `${this.stage.url}${API_PREFIX.replace(/^\//, '')}`,
    });
    new CfnOutput(this, 'TableName', {
      description: 'The DynamoDB table (TABLE_NAME for `npm run admin -- --aws ...`)',
      value: this.table.tableName,
    });
  }
}

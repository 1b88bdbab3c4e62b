import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchTableOf } from '#lib/config.ts';
import { tableArn, type PolicyStatement } from './iam-policy.ts';
import { LOCAL_SECRET_VALUES } from './deployment.ts';
import type { Deployment, LocalEventSource, LocalFunction } from './deployment.ts';
import type { EventFilterPattern } from '../../infra/streams.ts';

// The deployment as `cdk synth` wrote it to cdk.out: the HTTP API's routes and CORS settings,
// each Lambda function's bundle, environment and role policy, and the event source mappings on
// the table's stream, read from the CloudFormation template. The table's references resolve to
// the local table (and its stream), as CloudFormation resolves them to the deployed one.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON parsed from outside, read field by field
type Json = Record<string, any>;

export interface TemplateDeploymentOptions {
  /** The cdk.out folder. */
  cdkOut: string;
  stackName: string;
  tableName: string;
  region: string;
  /** The local table's stream, as its ARN is written in the region. */
  streamArn: string;
}

export class TemplateError extends Error {
  override name = 'TemplateError';
}

/** The stack's template, or a clear error when `npm run synth` has not written it. */
export function readTemplate(cdkOut: string, stackName: string): Json {
  const file = join(cdkOut, `${stackName}.template.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch {
    throw new TemplateError(`No synthesized stack at ${file}: run \`npm run synth\` first.`);
  }
}

/** The ARN a secret of the template stands for locally. */
const localSecretArn = (region: string, logicalId: string) => `arn:aws:secretsmanager:${region}:000000000000:secret:${logicalId}`;

const SECRET_REFERENCE = /^\{\{resolve:secretsmanager:arn:aws:secretsmanager:[^:]+:000000000000:secret:[A-Za-z0-9]+:SecretString:::\}\}$/;

/**
 * CloudFormation replaces a dynamic reference to a secret by the secret's value when it deploys;
 * a secret the stack generates has none until then, so here the variable that carries it gets its
 * local development value, the one the handlers use from source.
 */
function resolveSecretReference(variable: string, value: string): string {
  if (!SECRET_REFERENCE.test(value)) return value;
  const local = LOCAL_SECRET_VALUES[variable];
  if (!local) throw new TemplateError(`No local value for the secret in ${variable}.`);
  return local;
}

/** A policy of the template: its logical id, the roles it is attached to (by logical id) and its statements. */
export interface TemplatePolicy {
  id: string;
  roles: string[];
  statements: Json[];
}

/**
 * Every policy of the template that roles hold: the AWS::IAM::Policy resources and the inline
 * policies of the roles themselves (infra/api-function.ts InlinePolicyRole puts a function's there).
 */
export function templatePolicies(resources: Record<string, Json>): TemplatePolicy[] {
  const policies: TemplatePolicy[] = [];
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type === 'AWS::IAM::Policy') {
      policies.push({
        id,
        roles: (resource.Properties.Roles as Json[]).map((role) => role.Ref as string),
        statements: resource.Properties.PolicyDocument.Statement,
      });
    } else if (resource.Type === 'AWS::IAM::Role') {
      for (const inline of (resource.Properties.Policies ?? []) as Json[]) {
        policies.push({ id: `${id}.${inline.PolicyName}`, roles: [id], statements: inline.PolicyDocument.Statement });
      }
    }
  }
  return policies;
}

export function templateDeployment(options: TemplateDeploymentOptions): Deployment {
  const template = readTemplate(options.cdkOut, options.stackName);
  const resources = template.Resources as Record<string, Json>;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

  const tables = new Set(ofType('AWS::DynamoDB::Table').map(([id]) => id));
  const isSearchTable = (logicalId: string) => /^SearchTable[0-9A-F]{8}$/.test(logicalId);
  const secrets = new Set(ofType('AWS::SecretsManager::Secret').map(([id]) => id));
  // The site's distribution exists only deployed: locally the server is the site, so a variable
  // that names the distribution (SITE_URL, when no siteUrl is set) is left out, as from source.
  const distributions = ofType('AWS::CloudFront::Distribution').map(([id]) => id);
  const namesDistribution = (value: unknown) =>
    distributions.some((id) => JSON.stringify(value).includes(JSON.stringify({ 'Fn::GetAtt': [id, 'DomainName'] })));
  // CloudFormation's intrinsic functions, as far as this template uses them.
  const resolve = (value: unknown): string => {
    if (typeof value === 'string') return value;
    const json = value as Json;
    // The search table (infra/table.ts createSearchTable, construct id SearchTable) is the main table's name and `-search`, as locally.
    if (json?.Ref && tables.has(json.Ref)) return isSearchTable(json.Ref) ? searchTableOf(options.tableName) : options.tableName;
    if (json?.Ref && secrets.has(json.Ref)) return localSecretArn(options.region, json.Ref);
    if (json?.['Fn::GetAtt'] && tables.has(json['Fn::GetAtt'][0]) && json['Fn::GetAtt'][1] === 'Arn') {
      return tableArn(options.region, isSearchTable(json['Fn::GetAtt'][0]) ? searchTableOf(options.tableName) : options.tableName);
    }
    if (json?.['Fn::GetAtt'] && tables.has(json['Fn::GetAtt'][0]) && json['Fn::GetAtt'][1] === 'StreamArn') return options.streamArn;
    if (json?.['Fn::Join']) return (json['Fn::Join'][1] as unknown[]).map(resolve).join(json['Fn::Join'][0]);
    throw new TemplateError(`Cannot resolve ${JSON.stringify(value)} locally.`);
  };

  // Each role's DynamoDB statements (log group grants and the like are not DynamoDB's business).
  const statementsByRole = new Map<string, PolicyStatement[]>();
  for (const policy of templatePolicies(resources)) {
    for (const statement of policy.statements) {
      const actions = ([] as string[]).concat(statement.Action);
      if (statement.Effect !== 'Allow' || !actions.some((action) => action.startsWith('dynamodb:'))) continue;
      const resourceList = ([] as unknown[]).concat(statement.Resource);
      for (const role of policy.roles) {
        const list = statementsByRole.get(role) ?? [];
        list.push({ actions, resources: resourceList.map(resolve) });
        statementsByRole.set(role, list);
      }
    }
  }

  // The functions requests or the stream reach: those an integration or an event source mapping
  // invokes, and the page function behind its function URL. The stack has others that run at
  // deploy time (the site's copy into its bucket, the bucket's emptying).
  const behindUrls = ofType('AWS::Lambda::Url').map(([, url]) => url.Properties.TargetFunctionArn?.['Fn::GetAtt']?.[0] as string);
  const invoked = new Set([
    ...ofType('AWS::ApiGatewayV2::Integration').map(([, integration]) => integration.Properties.IntegrationUri?.['Fn::GetAtt']?.[0] as string),
    ...ofType('AWS::Lambda::EventSourceMapping').map(([, mapping]) => mapping.Properties.FunctionName?.Ref as string),
    ...behindUrls,
  ]);
  const functions = new Map<string, LocalFunction>();
  const functionByLogicalId = new Map<string, string>();
  for (const [id, resource] of ofType('AWS::Lambda::Function')) {
    if (!invoked.has(id)) continue;
    // The construct ApiFunction 'PostsDetail' holds the function 'Function': PostsDetailFunction92C5D922.
    const name = id.replace(/Function[0-9A-F]{8}$/, '');
    const [file, exported] = String(resource.Properties.Handler).split('.') as [string, string];
    const variables = (resource.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
    functions.set(name, {
      name,
      code: { kind: 'bundle', directory: join(options.cdkOut, resource.Metadata['aws:asset:path']), file: `${file}.mjs`, export: exported },
      environment: Object.fromEntries(
        Object.entries(variables)
          .filter(([, value]) => !namesDistribution(value))
          .map(([key, value]) => [key, resolveSecretReference(key, resolve(value))]),
      ),
      policy: statementsByRole.get(resource.Properties.Role['Fn::GetAtt'][0]) ?? [],
      memorySize: resource.Properties.MemorySize,
      timeoutSeconds: resource.Properties.Timeout,
    });
    functionByLogicalId.set(id, name);
  }

  const integrations = new Map<string, string>();
  for (const [id, integration] of ofType('AWS::ApiGatewayV2::Integration')) {
    integrations.set(id, functionByLogicalId.get(integration.Properties.IntegrationUri['Fn::GetAtt'][0])!);
  }
  const routes = new Map<string, string>();
  for (const [, route] of ofType('AWS::ApiGatewayV2::Route')) {
    const target = route.Properties.Target['Fn::Join'][1][1].Ref as string;
    routes.set(route.Properties.RouteKey, integrations.get(target)!);
  }

  // Lambda's defaults for a DynamoDB stream where the template leaves a property out.
  const eventSources: LocalEventSource[] = ofType('AWS::Lambda::EventSourceMapping').map(([, mapping]) => {
    const props = mapping.Properties;
    const functionName = functionByLogicalId.get(props.FunctionName?.Ref);
    if (!functionName) throw new TemplateError(`Cannot find the function of the event source mapping ${JSON.stringify(props.FunctionName)}.`);
    return {
      functionName,
      streamArn: resolve(props.EventSourceArn),
      startingPosition: props.StartingPosition,
      batchSize: props.BatchSize ?? 100,
      bisectBatchOnError: props.BisectBatchOnFunctionError ?? false,
      retryAttempts: props.MaximumRetryAttempts ?? -1,
      reportBatchItemFailures: ((props.FunctionResponseTypes ?? []) as string[]).includes('ReportBatchItemFailures'),
      onFailureDestination: props.DestinationConfig?.OnFailure?.Destination !== undefined,
      filters: ((props.FilterCriteria?.Filters ?? []) as { Pattern: string }[]).map((filter) => JSON.parse(filter.Pattern) as EventFilterPattern),
      parallelizationFactor: props.ParallelizationFactor ?? 1,
      // -1, Lambda's default, is no limit.
      ...(props.MaximumRecordAgeInSeconds !== undefined && props.MaximumRecordAgeInSeconds !== -1
        ? { maximumRecordAgeSeconds: props.MaximumRecordAgeInSeconds as number }
        : {}),
      maximumBatchingWindowSeconds: props.MaximumBatchingWindowInSeconds ?? 0,
    };
  });

  if (behindUrls.length > 1) throw new TemplateError(`The template has ${behindUrls.length} function URLs; the local stack serves one page function.`);
  const page = behindUrls[0] === undefined ? undefined : functionByLogicalId.get(behindUrls[0]);

  const [, api] = ofType('AWS::ApiGatewayV2::Api')[0] ?? [];
  const cors = api?.Properties.CorsConfiguration as Json | undefined;
  return {
    routes,
    ...(cors
      ? {
          cors: {
            allowOrigins: cors.AllowOrigins ?? [],
            allowMethods: cors.AllowMethods ?? [],
            allowHeaders: cors.AllowHeaders ?? [],
            exposeHeaders: cors.ExposeHeaders ?? [],
            maxAge: cors.MaxAge ?? 0,
          },
        }
      : {}),
    functions,
    eventSources,
    ...(page ? { page } : {}),
  };
}

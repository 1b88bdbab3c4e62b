import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { Validations, type CfnElement } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AwsSolutionsChecks } from 'cdk-nag';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT, TIMEOUT } from '../../infra/api-function.ts';
import type { BuiltApp } from '../../infra/build.ts';
import { ACKNOWLEDGMENT_REASONS, indexWildcardFindingId } from '../../infra/nag.ts';
import { PAGE_HANDLER } from '../../infra/pages.ts';
import { STREAM_READ_ACTIONS, TABLE_ACCESS, WRITE_ACTIONS, iamActions } from '../../infra/permissions.ts';
import { ACCESS_LOG_FIELDS, STREAM_FAILURE_RETENTION } from '../../infra/stack.ts';
import { TABLE_STREAM_CONSUMER, tableStreamConsumer } from '../../infra/streams.ts';
import { stackRouteKeys } from '../../infra/route-keys.ts';
import { throttleTotals } from '../../infra/settings.ts';
import { COMMON_PASSWORDS_FILE, COMMON_PASSWORDS_FOLDER } from '#lib/auth/common-passwords.ts';
import { BUNDLED_ASSET_FOLDER, SWAGGER_UI_FILES, swaggerUiDistDirectory } from '#lib/docs/swagger-ui.ts';
import { createUser } from '#lib/auth/create-account.ts';
import { db, resetDb } from '#lib/db/client.ts';
import { keys, postLists } from '#lib/db/keys.ts';
import { createSearchTableInput, createTableInput, TTL_ATTRIBUTE } from '#lib/db/table.ts';
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from '#lib/http/cors.ts';
import { API_PREFIX, FALLBACK_HANDLER, ROUTES, functionName, routeKeys } from '#lib/routes.ts';
import { CURSOR_SECRET_VARIABLE } from '#lib/config.ts';
import { sourceDeployment } from '../../scripts/local/deployment.ts';
import { templateDeployment, templatePolicies } from '../../scripts/local/template-deployment.ts';
import { ensureTable } from '../../scripts/local/ensure-table.ts';
import { isDeployTimeFunction } from '../support/site-build.ts';
import { synthesizedStack } from '../support/synth.ts';

// The stack `cdk synth` builds (infra/build.ts, with cdk.json's context), synthesized once for
// the whole file (test/support/synth.ts): an esbuild bundle per function takes a while. Nothing
// here reaches AWS.

const CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const HANDLERS = [...new Set(ROUTES.map((route) => route.handler)), FALLBACK_HANDLER];
/** The table's stream consumer: a function like the others, invoked by its event source mapping. */
const CONSUMER = TABLE_STREAM_CONSUMER.handler;
/** Every function of the stack. */
const ALL_HANDLERS = [...HANDLERS, CONSUMER];
/** Handlers of routes that never touch the table (the API's documentation). */
const TABLELESS = new Set(ROUTES.filter((route) => route.access === 'none').map((route) => route.handler));
/** Files copied into a bundle besides index.mjs and its map. */
const EXTRA_FILES: Record<string, string[]> = {
  'docs/asset': SWAGGER_UI_FILES.map((file) => `${BUNDLED_ASSET_FOLDER}/${file}`),
  // The common-passwords list of the password rules, beside the functions that check passwords.
  'users/signup': [`${COMMON_PASSWORDS_FOLDER}/${COMMON_PASSWORDS_FILE}`],
  'users/password': [`${COMMON_PASSWORDS_FOLDER}/${COMMON_PASSWORDS_FILE}`],
};

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string; Metadata?: Record<string, any> };

let outdir: string;
let built: BuiltApp;
let cliDir: string;
let template: Template;
let resources: Record<string, Resource>;

const logicalId = (element: CfnElement): string => built.stack.resolve(element.logicalId) as string;
const functionOf = (handler: string) => {
  const fn = built.stack.functions.get(handler);
  if (!fn) throw new Error(`no function for ${handler}`);
  return fn;
};
const functionLogicalId = (handler: string) => logicalId(functionOf(handler).function.node.defaultChild as CfnElement);
const roleLogicalId = (handler: string) => logicalId(functionOf(handler).role.node.defaultChild as CfnElement);
const tableLogicalId = () => logicalId(built.stack.table.node.defaultChild as CfnElement);
const searchTableLogicalId = () => logicalId(built.stack.searchTable.node.defaultChild as CfnElement);
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
/** The role of BucketDeployment's function, whose S3 grants are CDK's (test/infra/site.test.ts checks them). */
const deployTimeRoles = () =>
  new Set(
    ofType('AWS::Lambda::Function')
      .filter(([id]) => isDeployTimeFunction(id))
      .map(([, fn]) => fn.Properties.Role['Fn::GetAtt'][0] as string),
  );
const assetDir = (handler: string) => join(outdir, resources[functionLogicalId(handler)]!.Metadata!['aws:asset:path'] as string);

/** The DynamoDB statements of a handler's role: actions by resource kind ('table' | 'index' | 'search'). */
function dynamoGrants(handler: string): { table: string[]; index: string[]; search: string[]; other: unknown[] } {
  const role = roleLogicalId(handler);
  const grants = { table: [] as string[], index: [] as string[], search: [] as string[], other: [] as unknown[] };
  for (const policy of templatePolicies(resources)) {
    if (!policy.roles.includes(role)) continue;
    for (const statement of policy.statements) {
      const actions: string[] = [statement.Action].flat();
      if (!actions.some((action) => action.startsWith('dynamodb:'))) continue;
      expect(statement.Effect).toBe('Allow');
      const resource = JSON.stringify(statement.Resource);
      if (resource === JSON.stringify({ 'Fn::GetAtt': [tableLogicalId(), 'Arn'] })) grants.table.push(...actions);
      else if (resource === JSON.stringify({ 'Fn::GetAtt': [searchTableLogicalId(), 'Arn'] })) grants.search.push(...actions);
      else if (resource === JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableLogicalId(), 'Arn'] }, '/index/*']] })) grants.index.push(...actions);
      else grants.other.push(statement);
    }
  }
  return grants;
}

/** The account the CLI would take from credentials (it sets CDK_DEFAULT_ACCOUNT), and the region it takes from AWS_REGION. */
const CLI_ACCOUNT = '123456789012';
const CLI_REGION = 'us-east-1';

/**
 * The app as the CDK CLI runs it with credentials: cdk.json's command, through the local binary,
 * with CDK_DEFAULT_ACCOUNT as the CLI sets it from the credentials' account (without credentials
 * it leaves the variable as it finds it) and the region the CLI sets from AWS_REGION. `cdk ls`
 * rather than `cdk synth`: the CLI runs the app the same way (same context, same variables, every
 * construct and cdk-nag), but tells it to bundle nothing, where `synth` bundles every function
 * again (the synth above bundles them once); it writes cdk-nag's report without judging it, which
 * the test does as `synth` would (docs/deploy.md). No credentials of the machine are used, nor any network.
 */
function runCli(): Promise<{ code: number | null; output: string; assembly: string }> {
  cliDir = mkdtempSync(join(tmpdir(), 'community-posts-cli-'));
  const assembly = join(cliDir, 'cdk.out');
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(AWS_|CDK_)/.test(name)));
  const child = spawn(join(PROJECT_ROOT, 'node_modules', '.bin', 'cdk'), ['ls', '--output', assembly], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env,
      CDK_DISABLE_VERSION_CHECK: 'true',
      CDK_DEFAULT_ACCOUNT: CLI_ACCOUNT,
      AWS_REGION: CLI_REGION,
      AWS_CONFIG_FILE: join(cliDir, 'none'),
      AWS_SHARED_CREDENTIALS_FILE: join(cliDir, 'none'),
      AWS_EC2_METADATA_DISABLED: 'true',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, assembly }));
  });
}

beforeAll(() => {
  // The bundles run here on the test machine's Node.js; in Lambda it is 22, which the SDK wants.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  // cdk.json's configuration with its bundles: made here, or read from what `npm run synth` just
  // wrote (SYNTHESIZED_CDK_OUT, test/support/synth.ts).
  const synthesis = synthesizedStack({ bundles: true });
  ({ outdir, built } = synthesis);
  template = Template.fromJSON(synthesis.template);
  resources = synthesis.template.Resources;
}, 300_000);

afterAll(() => {
  if (cliDir) rmSync(cliDir, { recursive: true, force: true });
});

describe('table', () => {
  it('has the key schema, attributes and indexes of lib/db/table.ts', () => {
    const definition = createTableInput('unused');
    const tables = ofType('AWS::DynamoDB::Table');
    expect(tables.map(([id]) => id).sort()).toEqual([tableLogicalId(), searchTableLogicalId()].sort());
    const props = resources[tableLogicalId()]!.Properties;
    const byName = <T extends { AttributeName?: string; IndexName?: string }>(list: T[]) =>
      [...list].sort((a, b) => String(a.AttributeName ?? a.IndexName).localeCompare(String(b.AttributeName ?? b.IndexName)));
    expect(props.KeySchema).toEqual(definition.KeySchema);
    expect(byName(props.AttributeDefinitions)).toEqual(byName(definition.AttributeDefinitions!));
    expect(byName(props.GlobalSecondaryIndexes)).toEqual(byName(definition.GlobalSecondaryIndexes!));
    expect(props.BillingMode).toBe(definition.BillingMode);
    // The stream of the definition: the view type is all CloudFormation takes (enabled by being there).
    expect(definition.StreamSpecification?.StreamEnabled).toBe(true);
    expect(props.StreamSpecification).toEqual({ StreamViewType: definition.StreamSpecification!.StreamViewType });
  });

  it('is on demand, recoverable, protected, retained, expiring by TTL and encrypted with the AWS managed key', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
        // SSEEnabled without a key of our own: KMS with the AWS managed key (aws/dynamodb).
        SSESpecification: { SSEEnabled: true },
      }),
    });
    const props = resources[tableLogicalId()]!.Properties;
    expect(props.SSESpecification.KMSMasterKeyId).toBeUndefined();
    expect(props.TableName).toBeUndefined(); // a generated name: two stacks never collide
  });

  it('has a search table of lib/db/table.ts: its keys, no index, no stream, kept as the table is', () => {
    const definition = createSearchTableInput('unused');
    const search = resources[searchTableLogicalId()]!;
    expect(search.DeletionPolicy).toBe('Retain');
    expect(search.Properties.KeySchema).toEqual(definition.KeySchema);
    expect(search.Properties.AttributeDefinitions).toEqual(definition.AttributeDefinitions);
    expect(search.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      SSESpecification: { SSEEnabled: true },
    });
    expect(search.Properties.GlobalSecondaryIndexes).toBeUndefined();
    expect(search.Properties.StreamSpecification).toBeUndefined();
    expect(search.Properties.TableName).toBeUndefined();
  });

  it('names the search table to exactly the functions granted it (SEARCH_TABLE_NAME)', () => {
    for (const [handler, access] of Object.entries(TABLE_ACCESS)) {
      const variables = resources[functionLogicalId(handler)]!.Properties.Environment.Variables;
      expect(variables.SEARCH_TABLE_NAME).toEqual(access.search?.length ? { Ref: searchTableLogicalId() } : undefined);
      expect(dynamoGrants(handler).search.sort()).toEqual(iamActions(access.search ?? []).sort());
    }
  });
});

describe('routes', () => {
  it('has one route per entry of the route table, plus $default', () => {
    const keys = ofType('AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties.RouteKey as string);
    const expected = [...ROUTES.flatMap(routeKeys), '$default'];
    expect(keys.sort()).toEqual(expected.sort());
  });

  const targetOf = (routeKey: string): string => {
    const [, route] = ofType('AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === routeKey)!;
    const target = route.Properties.Target['Fn::Join'][1];
    expect(target[0]).toBe('integrations/');
    const integration = resources[target[1].Ref as string]!;
    expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
    expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    return integration.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
  };

  it.each(ROUTES.map((route) => [`${route.method} ${API_PREFIX}${route.path}`, route.handler]))('%s targets the function of %s', (routeKey, handler) => {
    expect(targetOf(routeKey)).toBe(functionLogicalId(handler));
  });

  it.each(ROUTES.filter((route) => route.method === 'GET').map((route) => [route.path, route.handler, !route.changesState]))(
    'HEAD %s goes to the function of %s: %s',
    (path, handler, hasHead) => {
      const key = `HEAD ${API_PREFIX}${path}`;
      if (hasHead) expect(targetOf(key)).toBe(functionLogicalId(handler as string));
      else expect(ofType('AWS::ApiGatewayV2::Route').some(([, route]) => route.Properties.RouteKey === key)).toBe(false);
    },
  );

  it('is what the local gateway serves from source: the same routes, CORS settings, role policies, environment and stream mappings', () => {
    const options = { tableName: 'local-table', region: 'us-east-1', streamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/local-table/stream/label' };
    const synthesized = templateDeployment({ ...options, cdkOut: outdir, stackName: built.stack.stackName });
    const source = sourceDeployment({ ...options, allowedOrigins: String(CONTEXT.allowedOrigins).split(',') });
    expect(Object.fromEntries(synthesized.routes)).toEqual(Object.fromEntries(source.routes));
    expect(synthesized.cors).toEqual(source.cors);
    expect([...synthesized.functions.keys()].sort()).toEqual([...source.functions.keys()].sort());
    const sorted = (policy: { actions: readonly string[]; resources: readonly string[] }[]) =>
      policy
        .map((statement) => ({ actions: [...statement.actions].sort(), resources: [...statement.resources].sort() }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    for (const [name, fn] of source.functions) {
      const deployed = synthesized.functions.get(name)!;
      expect(sorted(deployed.policy), name).toEqual(sorted(fn.policy));
      expect(deployed.environment, name).toEqual(fn.environment);
    }
    expect(synthesized.eventSources).toEqual(source.eventSources);
    const { handler, ...mapping } = TABLE_STREAM_CONSUMER;
    expect(source.eventSources).toEqual([{ functionName: functionName(handler), streamArn: options.streamArn, ...mapping, onFailureDestination: true }]);
  });

  it('sends every other request to the fallback function', () => {
    expect(targetOf('$default')).toBe(functionLogicalId(FALLBACK_HANDLER));
  });

  it('gives each operation its own function, each invocable by API Gateway, and the stream consumer one more', () => {
    // Besides CDK's two for the site's deployment (test/infra/site.test.ts).
    // And the page function, behind its function URL (test/infra/site.test.ts).
    const functions = ofType('AWS::Lambda::Function').filter(([id]) => !isDeployTimeFunction(id));
    expect(functions).toHaveLength(ALL_HANDLERS.length + 1);
    expect(new Set(ALL_HANDLERS.map(functionLogicalId)).size).toBe(ALL_HANDLERS.length);
    // Only its event source mapping invokes the consumer.
    expect(
      ofType('AWS::Lambda::Permission').filter(([, permission]) => permission.Properties.FunctionName['Fn::GetAtt']?.[0] === functionLogicalId(CONSUMER)),
    ).toEqual([]);
    for (const handler of HANDLERS) {
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [functionLogicalId(handler), 'Arn'] },
      });
    }
  });

  it('bundles each function from its own handler file', () => {
    for (const handler of ALL_HANDLERS) {
      const map = JSON.parse(readFileSync(join(assetDir(handler), 'index.mjs.map'), 'utf8')) as { sources: string[] };
      const entries = map.sources.filter((source) => /(^|\/)functions\/.+\.ts$/.test(source));
      expect(entries, handler).toHaveLength(1);
      expect(entries[0]!.endsWith(`functions/${handler}.ts`), `${handler}: ${entries[0]}`).toBe(true);
    }
  });
});

describe('functions', () => {
  it.each(ALL_HANDLERS)('%s: Node.js 22 on arm64, TABLE_NAME, source maps, memory and a log group with retention', (handler) => {
    const fn = resources[functionLogicalId(handler)]!.Properties;
    expect(fn.Runtime).toBe('nodejs22.x');
    expect(fn.Architectures).toEqual(['arm64']);
    expect(fn.Handler).toBe('index.handler');
    // The stream consumer has its own timeout and memory: a batch can write thousands of postings.
    if (handler === CONSUMER) expect([fn.Timeout, fn.MemorySize]).toEqual([CONTEXT.streamTimeoutSeconds, CONTEXT.streamMemorySize]);
    else expect([fn.Timeout, fn.MemorySize]).toEqual([TIMEOUT.toSeconds(), CONTEXT.memorySize]);
    expect(fn.Environment.Variables).toMatchObject({ NODE_OPTIONS: '--enable-source-maps' });
    // The API's functions answer with CORS headers; the stream consumer answers no one.
    if (handler === CONSUMER) expect(fn.Environment.Variables.CORS_ALLOWED_ORIGINS).toBeUndefined();
    else expect(fn.Environment.Variables.CORS_ALLOWED_ORIGINS).toBe(CONTEXT.allowedOrigins);
    // Only the functions that use the table are told its name.
    if (TABLELESS.has(handler)) expect(fn.Environment.Variables.TABLE_NAME).toBeUndefined();
    else expect(fn.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableLogicalId() });
    const logGroup = resources[fn.LoggingConfig.LogGroup.Ref as string]!;
    expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
    expect(logGroup.Properties.RetentionInDays).toBe(CONTEXT.logRetentionDays);
    // Its own role, with no managed policy (AWSLambdaBasicExecutionRole would allow every log group).
    const role = resources[fn.Role['Fn::GetAtt'][0] as string]!;
    expect(role.Type).toBe('AWS::IAM::Role');
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('are bundled as minified ESM with source maps and the AWS SDK inside', async () => {
    for (const handler of ALL_HANDLERS) {
      const dir = assetDir(handler);
      const files = readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
      expect(files.sort()).toEqual(['index.mjs', 'index.mjs.map', ...(EXTRA_FILES[handler] ?? [])].sort());
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(code.startsWith("import { createRequire } from 'module'; const require = createRequire(import.meta.url);")).toBe(true);
      expect(code).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
      expect(code.split('\n').length, `${handler} is not minified`).toBeLessThan(200);
      expect(code).toContain('DynamoDBClient');
      // Every import left in the bundle is a Node.js built-in: @aws-sdk/*, middy, bcryptjs are inside.
      const result = await build({
        entryPoints: [join(dir, 'index.mjs')],
        bundle: true,
        write: false,
        metafile: true,
        platform: 'node',
        format: 'esm',
        logLevel: 'silent',
      });
      const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports);
      const external = imports.filter((i) => i.external).map((i) => i.path);
      expect(
        external.filter((path) => !BUILTINS.has(path)),
        handler,
      ).toEqual([]);
      expect(
        imports.filter((i) => !i.external),
        handler,
      ).toEqual([]);
    }
  });

  type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; headers: Record<string, string>; body: string }>;
  const load = async (handler: string): Promise<Handler> =>
    ((await import(pathToFileURL(join(assetDir(handler), 'index.mjs')).href)) as { handler: Handler }).handler;
  const event = (method: string, path: string, options: { routeKey?: string; headers?: Record<string, string>; body?: string } = {}) => ({
    version: '2.0',
    routeKey: options.routeKey ?? '$default',
    rawPath: path,
    rawQueryString: '',
    headers: options.headers ?? {},
    // The host links name is API Gateway's, never a header's.
    requestContext: { http: { method, path }, requestId: 'test', domainName: 'abc.execute-api.eu-west-1.amazonaws.com' },
    isBase64Encoded: false,
    ...(options.body !== undefined ? { body: options.body } : {}),
  });

  it('answer from their bundles without the table (fallback 404/405, auth check 401)', async () => {
    const fallback = await load(FALLBACK_HANDLER);
    const notAllowed = await fallback(event('PATCH', `${API_PREFIX}/users`), {});
    expect(notAllowed.statusCode).toBe(405);
    expect(notAllowed.headers.Allow).toBe('GET, HEAD, POST');
    expect(JSON.parse(notAllowed.body)).toEqual({ detail: 'Method "PATCH" not allowed.' });
    const notFound = await fallback(event('GET', `${API_PREFIX}/nowhere`), {});
    expect(notFound.statusCode).toBe(404);
    expect(JSON.parse(notFound.body)).toEqual({ detail: 'Not found.' });

    const check = await load('auth/check');
    const anonymous = await check(event('GET', `${API_PREFIX}/auth`, { routeKey: `GET ${API_PREFIX}/auth` }), {});
    expect(anonymous.statusCode).toBe(401);
  });

  it('serve the index, the OpenAPI document, the docs page and its assets from their bundles, without the table', async () => {
    const get = (handler: string, path: string, headers: Record<string, string> = {}, pathParameters?: Record<string, string>) => {
      const route = ROUTES.find((r) => r.handler === handler)!;
      return load(handler).then((fn) =>
        fn(
          { ...event('GET', `${API_PREFIX}${path}`, { routeKey: `GET ${API_PREFIX}${route.path}`, headers }), ...(pathParameters ? { pathParameters } : {}) },
          {},
        ),
      );
    };
    const saved = process.env.TABLE_NAME;
    delete process.env.TABLE_NAME;
    try {
      const document = await get('docs/openapi', '/openapi.json', { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
      expect(document.statusCode).toBe(200);
      const parsed = JSON.parse(document.body) as { openapi: string; servers: { url: string }[]; paths: Record<string, unknown> };
      expect(parsed.openapi).toBe('3.1.0');
      expect(parsed.servers[0]!.url).toBe(`https://abc.execute-api.eu-west-1.amazonaws.com${API_PREFIX}`);
      expect(Object.keys(parsed.paths).length).toBe(new Set(ROUTES.map((r) => r.path)).size);

      const index = await get('docs/index', '', { host: 'abc.execute-api.eu-west-1.amazonaws.com' });
      expect(index.statusCode).toBe(200);
      expect(JSON.parse(index.body)).toMatchObject({
        docs: `https://abc.execute-api.eu-west-1.amazonaws.com${API_PREFIX}/docs`,
        openapi: `https://abc.execute-api.eu-west-1.amazonaws.com${API_PREFIX}/openapi.json`,
      });

      const page = await get('docs/page', '/docs');
      expect(page.statusCode).toBe(200);
      expect(page.headers['Content-Type']).toMatch(/^text\/html/);
      expect(page.body).toContain('docs/swagger-ui-bundle.js');

      // The copied swagger-ui-dist files are found next to the bundle and served as they are.
      for (const file of SWAGGER_UI_FILES) {
        const asset = (await get('docs/asset', `/docs/${file}`, {}, { asset: file })) as Awaited<ReturnType<Handler>> & { isBase64Encoded?: boolean };
        expect(asset.statusCode, file).toBe(200);
        const served = Buffer.from(asset.body, asset.isBase64Encoded ? 'base64' : 'utf8');
        expect(served.equals(readFileSync(join(swaggerUiDistDirectory(), file))), file).toBe(true);
      }
      const zipped = (await get('docs/asset', '/docs/swagger-ui.css', { 'accept-encoding': 'gzip, br' }, { asset: 'swagger-ui.css' })) as Awaited<
        ReturnType<Handler>
      > & { isBase64Encoded?: boolean };
      expect(zipped.headers['Content-Encoding']).toBe('gzip');
      expect(gunzipSync(Buffer.from(zipped.body, 'base64')).equals(readFileSync(join(swaggerUiDistDirectory(), 'swagger-ui.css')))).toBe(true);
      expect((await get('docs/asset', '/docs/nope.js', {}, { asset: 'nope.js' })).statusCode).toBe(404);
    } finally {
      if (saved !== undefined) process.env.TABLE_NAME = saved;
    }
  });

  it('log in, check and log out from their bundles against DynamoDB (Local), with the bundled SDK', async () => {
    process.env.TABLE_NAME = `test-infra-${randomUUID().slice(0, 8)}`;
    resetDb();
    await ensureTable(process.env.TABLE_NAME);
    await createUser('bundled', 'correct horse battery');

    const login = await load('auth/login');
    const loggedIn = await login(
      event('POST', `${API_PREFIX}/login`, {
        routeKey: `POST ${API_PREFIX}/login`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bundled', password: 'correct horse battery' }),
      }),
      {},
    );
    expect(loggedIn.statusCode, loggedIn.body).toBe(200);
    const { token } = JSON.parse(loggedIn.body) as { token: string };
    const authorization = { authorization: `Token ${token}` };

    const check = await load('auth/check');
    const me = await check(event('GET', `${API_PREFIX}/auth`, { routeKey: `GET ${API_PREFIX}/auth`, headers: authorization }), {});
    expect(me.statusCode, me.body).toBe(200);
    expect(JSON.parse(me.body)).toMatchObject({ username: 'bundled', token });

    const logout = await load('auth/logout');
    const out = await logout(event('GET', `${API_PREFIX}/logout`, { routeKey: `GET ${API_PREFIX}/logout`, headers: authorization }), {});
    expect(out.statusCode, out.body).toBe(200);
    const after = await check(event('GET', `${API_PREFIX}/auth`, { routeKey: `GET ${API_PREFIX}/auth`, headers: authorization }), {});
    expect(after.statusCode).toBe(401);
  });

  it('sign up from its bundle, checking passwords against the common-passwords list copied beside it', async () => {
    process.env.TABLE_NAME = `test-infra-${randomUUID().slice(0, 8)}`;
    resetDb();
    await ensureTable(process.env.TABLE_NAME);
    const signUp = await load('users/signup');
    const send = (json: unknown) =>
      signUp(
        event('POST', `${API_PREFIX}/users`, {
          routeKey: `POST ${API_PREFIX}/users`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(json),
        }),
        {},
      );
    // "sunshine" is in the list and passes every other rule: only the list can refuse it.
    const common = await send({ username: 'bundled-signup', password: 'sunshine' });
    expect(common.statusCode, common.body).toBe(400);
    expect(JSON.parse(common.body)).toEqual({ password: ['This password is too common.'] });
    const created = await send({ username: 'bundled-signup', password: 'correct horse battery' });
    expect(created.statusCode, created.body).toBe(201);
    expect(JSON.parse(created.body)).toMatchObject({ username: 'bundled-signup', token: expect.stringMatching(/^[0-9a-f]{40}$/) });
  });

  it("remove a deleted post's visits from the stream consumer's bundle against DynamoDB (Local), twice harmlessly", async () => {
    process.env.TABLE_NAME = `test-infra-${randomUUID().slice(0, 8)}`;
    resetDb();
    await ensureTable(process.env.TABLE_NAME);
    const postId = randomUUID();
    for (const reader of [1, 2, 3])
      await db().send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: { ...keys.visit(postId, reader), post_id: postId } }));
    const entry = { PK: { S: keys.postEntry(postId, postLists.mine).PK }, SK: { S: postLists.mine } };
    const record = (sequence: string, eventName: string, images: Record<string, unknown>) => ({
      eventID: randomUUID(),
      eventName,
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        Keys: entry,
        ...images,
        SequenceNumber: sequence,
        SizeBytes: 60,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: `arn:aws:dynamodb:us-east-1:000000000000:table/${process.env.TABLE_NAME}/stream/label`,
    });
    const removed = {
      Records: [
        record('100', 'INSERT', { NewImage: { ...entry, post_id: { S: postId } } }),
        record('101', 'REMOVE', { OldImage: { ...entry, post_id: { S: postId } } }),
      ],
    };
    const consumer = (await import(pathToFileURL(join(assetDir(CONSUMER), 'index.mjs')).href)) as {
      handler: (event: unknown, context: unknown) => Promise<unknown>;
    };
    const visits = () =>
      db().send(
        new QueryCommand({
          TableName: process.env.TABLE_NAME,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.visitsOf(postId) },
        }),
      );
    expect((await visits()).Items).toHaveLength(3);
    for (let i = 0; i < 2; i++) {
      expect(await consumer.handler(removed, {})).toEqual({ batchItemFailures: [] });
      expect((await visits()).Items).toEqual([]);
    }
    // A record it cannot read is the batch's item failure, and what came before it is done.
    const broken = { Records: [removed.Records[0], { ...removed.Records[1], dynamodb: { SequenceNumber: '102' } }] };
    vi.stubEnv('LOG_LEVEL', 'silent'); // its error line is expected
    try {
      expect(await consumer.handler(broken, {})).toEqual({ batchItemFailures: [{ itemIdentifier: '102' }] });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('least privilege', () => {
  it('declares the table access of exactly the routes that use the table, of the stream consumer and of the page function', () => {
    const tableUsers = ROUTES.filter((route) => route.access !== 'none').map((route) => route.handler);
    expect(Object.keys(TABLE_ACCESS).sort()).toEqual([...tableUsers, CONSUMER, PAGE_HANDLER].sort());
  });

  it('treats exactly the listed operations as read-only', () => {
    const readOnly = ROUTES.filter((route) => route.access === 'read').map((route) => `${route.method} ${route.path}`);
    expect(readOnly.sort()).toEqual(
      [
        'GET /auth',
        'GET /users',
        'GET /users/detail/{username}',
        'GET /tags',
        'GET /tags/detail/{slug}',
        'GET /posts',
        'GET /posts/tagged/{slug}',
        'GET /posts/author/{username}',
        'GET /posts/me',
        'GET /posts/detail/{slug}/vote',
        'GET /posts/detail/{slug}/related',
        'GET /posts/detail/{slug}/favorite',
        'GET /users/detail/{username}/favorites',
        'GET /feed',
        'GET /posts/detail/{slug}/comments',
        'GET /posts/detail/{slug}/report',
        'GET /comments/detail/{id}',
        'GET /comments/detail/{id}/replies',
        'GET /comments/detail/{id}/report',
        'GET /reports',
        'GET /users/detail/{username}/comments',
        'GET /users/detail/{username}/suspension',
      ].sort(),
    );
  });

  it.each(ROUTES.filter((route) => route.access === 'read').map((route) => [route.handler]))(
    '%s gets exactly the reads it uses and writes nothing',
    (handler) => {
      const grants = dynamoGrants(handler);
      expect(grants.other).toEqual([]);
      expect(grants.table.sort()).toEqual(iamActions(TABLE_ACCESS[handler]!.table).sort());
      expect(grants.index).toEqual(iamActions(TABLE_ACCESS[handler]!.indexes));
      for (const action of iamActions(WRITE_ACTIONS)) {
        expect([...grants.table, ...grants.index]).not.toContain(action);
      }
    },
  );

  it.each(ROUTES.filter((route) => route.access === 'read-write').map((route) => [route.handler]))(
    "%s gets exactly the actions it uses (on an index, only the Query of a user's tokens)",
    (handler) => {
      const grants = dynamoGrants(handler);
      expect(grants.other).toEqual([]);
      expect(grants.table.sort()).toEqual(iamActions(TABLE_ACCESS[handler]!.table).sort());
      expect(grants.index).toEqual(iamActions(TABLE_ACCESS[handler]!.indexes));
      expect(grants.index.filter((action) => action !== 'dynamodb:Query')).toEqual([]);
    },
  );

  it('gives the fallback no access to the table', () => {
    expect(dynamoGrants(FALLBACK_HANDLER)).toEqual({ table: [], index: [], search: [], other: [] });
  });

  it.each([...TABLELESS].map((handler) => [handler]))('%s (documentation) gets no access to the table at all', (handler) => {
    expect(dynamoGrants(handler)).toEqual({ table: [], index: [], search: [], other: [] });
    const role = roleLogicalId(handler);
    const statements = templatePolicies(resources)
      .filter((policy) => policy.roles.includes(role))
      .flatMap((policy) => policy.statements as { Action: string | string[] }[]);
    expect(statements.flatMap((statement) => [statement.Action].flat()).filter((action) => !action.startsWith('logs:'))).toEqual([]);
  });

  it('has the documentation routes as the only table-less ones', () => {
    expect([...TABLELESS].sort()).toEqual(['docs/asset', 'docs/index', 'docs/openapi', 'docs/page']);
  });

  it("has no wildcard action and no wildcard resource except the table indexes and the stream consumer's ListStreams", () => {
    const deployTime = deployTimeRoles();
    for (const policy of templatePolicies(resources)) {
      const id = policy.id;
      if (policy.roles.some((role) => deployTime.has(role))) continue;
      for (const statement of policy.statements) {
        for (const action of [statement.Action].flat()) expect(action, id).not.toContain('*');
        for (const resource of [statement.Resource].flat()) {
          const text = JSON.stringify(resource);
          if (text === '"*"') {
            expect(policy.roles, id).toEqual([roleLogicalId(CONSUMER)]);
            expect(statement.Action, id).toEqual('dynamodb:ListStreams');
          } else if (text.includes('*')) expect(text, id).toContain('/index/*');
        }
      }
    }
  });
});

describe('stream consumer', () => {
  const mappingOf = () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(1);
    return mappings[0]![1].Properties;
  };
  const queueLogicalId = () => logicalId(built.stack.streamFailures.node.defaultChild as CfnElement);

  it("reads the table's stream with the settings of infra/streams.ts: batches from TRIM_HORIZON, split on error, bounded retries, partial batch responses, only post texts and mine entries' removals", () => {
    // cdk.json's stream settings are the defaults: the mapping the local stack plays from source.
    expect(tableStreamConsumer(built.settings)).toEqual(TABLE_STREAM_CONSUMER);
    expect(mappingOf()).toEqual({
      FunctionName: { Ref: functionLogicalId(CONSUMER) },
      EventSourceArn: { 'Fn::GetAtt': [tableLogicalId(), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: TABLE_STREAM_CONSUMER.batchSize,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: TABLE_STREAM_CONSUMER.retryAttempts,
      ParallelizationFactor: 1,
      MaximumBatchingWindowInSeconds: 0,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ dynamodb: { Keys: { PK: { S: [{ prefix: 'POST#' }] }, SK: { S: ['POST'] } } } }) },
          { Pattern: JSON.stringify({ eventName: ['REMOVE'], dynamodb: { Keys: { PK: { S: [{ prefix: 'ENTRY#' }] }, SK: { S: ['MINE'] } } } }) },
          // A reported comment removed, or deleted by its author: its reports go (v1.3).
          {
            Pattern: JSON.stringify({
              eventName: ['REMOVE'],
              dynamodb: { Keys: { PK: { S: [{ prefix: 'COMMENT#' }] } }, OldImage: { reported: { BOOL: [true] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['MODIFY'],
              dynamodb: { Keys: { PK: { S: [{ prefix: 'COMMENT#' }] } }, NewImage: { status: { S: ['deleted'] }, reported: { BOOL: [true] } } },
            }),
          },
        ],
      },
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueLogicalId(), 'Arn'] } } },
    });
    expect(TABLE_STREAM_CONSUMER.batchSize).toBeLessThanOrEqual(100);
    expect(TABLE_STREAM_CONSUMER.retryAttempts).toBeGreaterThanOrEqual(1);
  });

  it('sends a batch it gives up on to an SQS queue, encrypted, refusing requests without TLS', () => {
    const queue = resources[queueLogicalId()]!;
    expect(queue.Type).toBe('AWS::SQS::Queue');
    expect(queue.Properties).toEqual({ SqsManagedSseEnabled: true, MessageRetentionPeriod: STREAM_FAILURE_RETENTION.toSeconds() });
    const policies = ofType('AWS::SQS::QueuePolicy').filter(([, policy]) => policy.Properties.Queues.some((q: { Ref?: string }) => q.Ref === queueLogicalId()));
    expect(policies).toHaveLength(1);
    expect(policies[0]![1].Properties.PolicyDocument.Statement).toEqual([
      {
        Action: 'sqs:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Resource: { 'Fn::GetAtt': [queueLogicalId(), 'Arn'] },
      },
    ]);
  });

  it('may do exactly what its code and its event source need: its actions on the table and the search table, read the stream, send to its queue, write its logs', () => {
    const statements = templatePolicies(resources)
      .filter((policy) => policy.roles.includes(roleLogicalId(CONSUMER)))
      .flatMap((policy) => policy.statements as { Effect: string; Action: string | string[]; Resource: unknown }[]);
    const byResource = Object.fromEntries(statements.map((statement) => [JSON.stringify(statement.Resource), [statement.Action].flat().sort()]));
    const logGroup = resources[functionLogicalId(CONSUMER)]!.Properties.LoggingConfig.LogGroup.Ref as string;
    expect(statements.every((statement) => statement.Effect === 'Allow')).toBe(true);
    expect(statements).toHaveLength(6);
    expect(byResource).toEqual({
      [JSON.stringify({ 'Fn::GetAtt': [tableLogicalId(), 'Arn'] })]: iamActions(TABLE_ACCESS[CONSUMER]!.table).sort(),
      [JSON.stringify({ 'Fn::GetAtt': [searchTableLogicalId(), 'Arn'] })]: iamActions(TABLE_ACCESS[CONSUMER]!.search!).sort(),
      [JSON.stringify({ 'Fn::GetAtt': [tableLogicalId(), 'StreamArn'] })]: STREAM_READ_ACTIONS.stream.map((action) => `dynamodb:${action}`).sort(),
      [JSON.stringify('*')]: STREAM_READ_ACTIONS.anyResource.map((action) => `dynamodb:${action}`),
      [JSON.stringify({ 'Fn::GetAtt': [queueLogicalId(), 'Arn'] })]: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
      [JSON.stringify({ 'Fn::GetAtt': [logGroup, 'Arn'] })]: ['logs:CreateLogStream', 'logs:PutLogEvents'],
    });
    expect(TABLE_ACCESS[CONSUMER]).toEqual({
      table: ['Query', 'BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'UpdateItem'],
      indexes: [],
      search: ['BatchGetItem', 'BatchWriteItem', 'DeleteItem'],
    });
  });
});

describe('api', () => {
  it('configures CORS from the context and the shared CORS constants', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: {
        AllowOrigins: String(CONTEXT.allowedOrigins).split(','),
        AllowHeaders: CORS_ALLOWED_HEADERS,
        AllowMethods: CORS_ALLOWED_METHODS,
        ExposeHeaders: CORS_EXPOSED_HEADERS,
        MaxAge: CORS_MAX_AGE_SECONDS,
      },
    });
    expect(CORS_ALLOWED_HEADERS).toContain('Authorization');
  });

  it('throttles the $default stage and writes JSON access logs to a log group with retention', () => {
    const stages = ofType('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const stage = stages[0]![1].Properties;
    expect(stage.StageName).toBe('$default');
    expect(stage.AutoDeploy).toBe(true);
    // Per-route metrics for the per-route latency alarms (cdk.json's routeMetrics: true).
    expect(CONTEXT.routeMetrics).toBe(true);
    expect(stage.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: CONTEXT.throttlingRateLimit,
      ThrottlingBurstLimit: CONTEXT.throttlingBurstLimit,
      DetailedMetricsEnabled: true,
    });
    expect(JSON.parse(stage.AccessLogSettings.Format)).toEqual(ACCESS_LOG_FIELDS);
    expect(stage.AccessLogSettings.Format).toContain('$context.requestId');
    const logGroup = resources[stage.AccessLogSettings.DestinationArn['Fn::GetAtt'][0] as string]!;
    expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
    expect(logGroup.Properties.RetentionInDays).toBe(CONTEXT.logRetentionDays);
  });

  // cdk.json's per-route throttles, as route key → limits.
  const routeThrottling = () => CONTEXT.routeThrottling as Record<string, { rateLimit: number; burstLimit: number }>;
  const routeIds = () => new Map(ofType('AWS::ApiGatewayV2::Route').map(([id, route]) => [route.Properties.RouteKey as string, id]));

  it('throttles the routes of routeThrottling on their own, once they exist', () => {
    const throttles = Object.entries(routeThrottling());
    expect(throttles.length).toBeGreaterThan(0);
    const [, stage] = ofType('AWS::ApiGatewayV2::Stage')[0]! as [string, Resource & { DependsOn?: string[] }];
    expect(stage.Properties.RouteSettings).toEqual(
      Object.fromEntries(
        throttles.map(([key, limits]) => [
          key,
          { ThrottlingRateLimit: limits.rateLimit, ThrottlingBurstLimit: limits.burstLimit, DetailedMetricsEnabled: true },
        ]),
      ),
    );
    // API Gateway refuses route settings for a route it does not have yet.
    for (const [key] of throttles) expect(stage.DependsOn, key).toContain(routeIds().get(key));
  });

  it('outputs the most requests per second the API accepts: the rate limits of all its routes added up', () => {
    const keys = [...routeIds().keys()];
    // The routes the settings add up (infra/route-keys.ts) are the stack's.
    expect([...keys].sort()).toEqual(stackRouteKeys().sort());
    const sum = keys.reduce((total, key) => total + (routeThrottling()[key]?.rateLimit ?? (CONTEXT.throttlingRateLimit as number)), 0);
    const output = template.findOutputs('MaxRequestRate').MaxRequestRate!;
    expect(output.Value).toBe(String(sum));
    expect(output.Value).toBe(String(throttleTotals(built.settings).rateLimit));
    expect(output.Description).toContain(`the rate limits of its ${keys.length} routes added up`);
  });

  it('outputs the API URL ending in /api/v1, the table name and the search table name (for the admin CLI)', () => {
    const outputs = template.findOutputs('*');
    const url = outputs.ApiUrl!.Value['Fn::Join'][1] as unknown[];
    expect(url[0]).toBe('https://');
    expect(url[1]).toEqual({ Ref: logicalId(built.stack.api.node.defaultChild as CfnElement) });
    expect(url.at(-1)).toBe(`/${API_PREFIX.replace(/^\//, '')}`);
    expect(outputs.TableName!.Value).toEqual({ Ref: tableLogicalId() });
    expect(outputs.SearchTableName!.Value).toEqual({ Ref: searchTableLogicalId() });
  });
});

describe('checks', () => {
  it('passes cdk-nag AwsSolutions with every finding fixed or acknowledged', () => {
    const report = new AwsSolutionsChecks(built.app).validateScope(built.app);
    expect(report.violations).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('acknowledges only the findings it explains, each with a reason', () => {
    // An id may be acknowledged on several constructs, each time for its own reason.
    const acknowledged = new Map<string, Set<string>>();
    for (const construct of built.app.node.findAll()) {
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          const key = id.replace(/^annotation::/i, '');
          acknowledged.set(key, new Set([...(acknowledged.get(key) ?? []), reason]));
        }
      }
    }
    const siteBucket = logicalId(built.stack.site.bucket.node.defaultChild as CfnElement);
    const deployment = ACKNOWLEDGMENT_REASONS.bucketDeploymentWildcards;
    const expected: Record<string, string | string[]> = {
      // The API's functions on Node.js 22; BucketDeployment's function on the runtime CDK chose.
      'AwsSolutions-L1': [ACKNOWLEDGMENT_REASONS.runtimeVersion, ACKNOWLEDGMENT_REASONS.bucketDeploymentRuntime],
      'AwsSolutions-APIG4': ACKNOWLEDGMENT_REASONS.noAuthorizer,
      [indexWildcardFindingId(built.stack.table.node.defaultChild as CfnElement)]: ACKNOWLEDGMENT_REASONS.indexWildcard,
      // The stream consumer's ListStreams on "*" and its on-failure queue, which is a dead-letter queue itself.
      'AwsSolutions-IAM5[Resource::*]': ACKNOWLEDGMENT_REASONS.streamListing,
      'AwsSolutions-SQS3': ACKNOWLEDGMENT_REASONS.onFailureQueue,
      // The cursor secret, rotated by hand.
      'AwsSolutions-SMG4': ACKNOWLEDGMENT_REASONS.cursorSecretRotation,
      // The alarm topic, which CloudWatch could not publish to with SNS's AWS managed key.
      'AwsSolutions-SNS2': ACKNOWLEDGMENT_REASONS.alarmTopicEncryption,
      // The site (infra/site.ts): its bucket's logs, the distribution, and CDK's BucketDeployment.
      'AwsSolutions-S1': ACKNOWLEDGMENT_REASONS.siteBucketLogs,
      'AwsSolutions-CFR1': ACKNOWLEDGMENT_REASONS.geoRestriction,
      'AwsSolutions-CFR2': ACKNOWLEDGMENT_REASONS.waf,
      'AwsSolutions-CFR3': ACKNOWLEDGMENT_REASONS.distributionLogs,
      'AwsSolutions-CFR4': ACKNOWLEDGMENT_REASONS.defaultCertificateTls,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
        ACKNOWLEDGMENT_REASONS.bucketDeploymentManagedPolicy,
      'AwsSolutions-IAM5[Action::s3:GetObject*]': deployment,
      'AwsSolutions-IAM5[Action::s3:GetBucket*]': deployment,
      'AwsSolutions-IAM5[Action::s3:List*]': deployment,
      'AwsSolutions-IAM5[Action::s3:DeleteObject*]': deployment,
      'AwsSolutions-IAM5[Action::s3:Abort*]': deployment,
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]': deployment,
      [`AwsSolutions-IAM5[Resource::<${siteBucket}.Arn>/*]`]: deployment,
    };
    expect(Object.fromEntries([...acknowledged].map(([id, reasons]) => [id, [...reasons].sort()]))).toEqual(
      Object.fromEntries(Object.entries(expected).map(([id, reasons]) => [id, [reasons].flat().sort()])),
    );
  });

  it('generates the cursor secret at deploy time and gives it to the paged lists only, never in the template', () => {
    const secrets = ofType('AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(1);
    const [secretId, secret] = secrets[0]!;
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(secret.Properties.SecretString).toBeUndefined();
    const reference = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };
    const paged = new Set(ROUTES.filter((route) => route.paged).map((route) => functionLogicalId(route.handler)));
    expect(paged.size).toBeGreaterThanOrEqual(6);
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      const variables = fn.Properties.Environment?.Variables ?? {};
      if (paged.has(id)) expect(variables[CURSOR_SECRET_VARIABLE], id).toEqual(reference);
      else expect(variables[CURSOR_SECRET_VARIABLE], id).toBeUndefined();
    }
    // Read from the environment: no function may read the secret itself.
    expect(JSON.stringify(templatePolicies(resources))).not.toContain('secretsmanager:');
  });

  it("synthesizes the CLI's way with an account and region (cdk ls, as `cdk deploy` with credentials): exit 0, cdk-nag reports nothing", async () => {
    const { code, output, assembly } = await runCli();
    expect(code, output).toBe(0);
    expect(output).toContain(built.stack.stackName);
    const manifest = JSON.parse(readFileSync(join(assembly, 'manifest.json'), 'utf8')) as { artifacts: Record<string, { environment?: string }> };
    expect(manifest.artifacts[built.stack.artifactId]!.environment).toBe(`aws://${CLI_ACCOUNT}/${CLI_REGION}`);
    // What `cdk synth` and `cdk deploy` judge: the validation report cdk-nag wrote.
    const report = JSON.parse(readFileSync(join(assembly, 'validation-report.json'), 'utf8')) as { pluginReports: { violations: unknown[] }[] };
    expect(report.pluginReports.flatMap((plugin) => plugin.violations)).toEqual([]);
  }, 300_000);

  it('synthesizes without errors or warnings', () => {
    Annotations.fromStack(built.stack).hasNoError('*', Match.anyValue());
    Annotations.fromStack(built.stack).hasNoWarning('*', Match.anyValue());
    const report = join(outdir, 'validation-report.json');
    if (existsSync(report)) {
      const plugins = JSON.parse(readFileSync(report, 'utf8')).pluginReports as { violations?: unknown[] }[];
      expect(plugins.flatMap((plugin) => plugin.violations ?? [])).toEqual([]);
    }
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ROUTE_KEY, stackRouteKeys } from '../../infra/route-keys.ts';
import { cdkEnvironment, CONTEXT_KEYS, DEFAULT_SETTINGS, readSettings, SettingsError, throttleTotals, type DeploySettings } from '../../infra/settings.ts';
import { CommunityPostsStack } from '../../infra/stack.ts';
import { DEFAULT_STREAM_CONSUMER, TABLE_STREAM_CONSUMER, tableStreamConsumer } from '../../infra/streams.ts';
import { templateDeployment } from '../../scripts/local/template-deployment.ts';
import { loginFailureLimits, publicCacheSeconds, publicReads, signupAttemptLimit, signupClosedByDeployment } from '#lib/config.ts';
import { API_PREFIX, ROUTES, functionName } from '#lib/routes.ts';
import { isDeployTimeFunction, siteBuildFixture } from '../support/site-build.ts';

// The deploy settings: cdk.json's context and `-c name=value` overrides (strings).

const CDK_JSON = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
  app: string;
  context: Record<string, unknown>;
};

/** The settings from this context, as an App's node reads them (without an App and its temporary folder). */
const settingsFrom = (context: Record<string, unknown>) => readSettings({ tryGetContext: (key: string) => context[key] });

// An App writes its assembly to a temporary folder unless told where: one folder, removed after.
const outdir = mkdtempSync(join(tmpdir(), 'community-posts-settings-'));
const siteAssets = siteBuildFixture();
afterAll(() => [outdir, siteAssets].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('deploy settings', () => {
  it('cdk.json builds the site when it is stale, runs the app with tsx and sets every setting to the built-in default', () => {
    expect(CDK_JSON.app).toBe('npx tsx scripts/web/build.ts --if-stale && npx tsx infra/app.ts');
    for (const key of Object.values(CONTEXT_KEYS)) expect(CDK_JSON.context, key).toHaveProperty(key);
    expect(settingsFrom(CDK_JSON.context)).toEqual(DEFAULT_SETTINGS);
    expect(settingsFrom({})).toEqual(DEFAULT_SETTINGS);
  });

  it('reads -c overrides, which arrive as strings', () => {
    expect(
      settingsFrom({
        stackName: 'PostsStaging',
        allowedOrigins: 'https://a.example, https://b.example:8443',
        throttlingRateLimit: '10',
        throttlingBurstLimit: '20',
        routeThrottling: '{"GET /api/v1/posts": {"rateLimit": 30, "burstLimit": 60}}',
        throttlingOverallRateLimit: '1000',
        memorySize: '1024',
        logRetentionDays: '7',
        tracing: 'true',
        siteUrl: 'https://community.example.com/',
        siteName: ' Tea Room ',
        domainName: ' Community.Example.com., www.community.example.com',
        certificateArn: ' arn:aws:acm:us-east-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab ',
        hostedZoneId: '/hostedzone/Z0123456789ABCDEFGHIJ',
        alarmEmail: ' ops@example.com ',
        errorRateAlarmPercent: '2.5',
        latencyP99AlarmMs: '1500',
        routeMetrics: 'false',
        functionErrorsAlarmCount: '3',
        tableThrottlesAlarmCount: '50',
        streamIteratorAgeAlarmSeconds: '300',
        streamIteratorAgeAlarmMinutes: '5',
        streamTimeoutSeconds: '120',
        streamMemorySize: '2048',
        streamBatchSize: '50',
        streamParallelizationFactor: '4',
        streamRetryAttempts: '0',
        streamBisectBatchOnError: 'false',
        streamMaxRecordAgeSeconds: '3600',
        streamBatchingWindowSeconds: '2',
        signup: ' Closed ',
        loginFailuresPerPair: '5',
        loginFailuresPerAddress: '50',
        loginFailuresPerUsername: '60',
        loginFailureWindowSeconds: '600',
        signupsPerAddress: '3',
        signupWindowSeconds: '7200',
        commentsPerMinute: '5',
        commentsPerDay: '50',
        reportsToHide: '2',
        publicReads: 'TRUE',
        publicCacheSeconds: '0',
      }),
    ).toStrictEqual({
      stackName: 'PostsStaging',
      allowedOrigins: ['https://a.example', 'https://b.example:8443'],
      throttlingRateLimit: 10,
      throttlingBurstLimit: 20,
      routeThrottling: { 'GET /api/v1/posts': { rateLimit: 30, burstLimit: 60 } },
      throttlingOverallRateLimit: 1000,
      memorySize: 1024,
      logRetentionDays: 7,
      tracing: true,
      siteUrl: 'https://community.example.com',
      siteName: 'Tea Room',
      domainNames: ['community.example.com', 'www.community.example.com'],
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab',
      hostedZoneId: 'Z0123456789ABCDEFGHIJ',
      alarmEmail: 'ops@example.com',
      errorRateAlarmPercent: 2.5,
      latencyP99AlarmMs: 1500,
      routeMetrics: false,
      functionErrorsAlarmCount: 3,
      tableThrottlesAlarmCount: 50,
      streamIteratorAgeAlarmSeconds: 300,
      streamIteratorAgeAlarmMinutes: 5,
      streamTimeoutSeconds: 120,
      streamMemorySize: 2048,
      streamBatchSize: 50,
      streamParallelizationFactor: 4,
      streamRetryAttempts: 0,
      streamBisectBatchOnError: false,
      streamMaxRecordAgeSeconds: 3600,
      streamBatchingWindowSeconds: 2,
      signup: 'closed',
      loginFailuresPerPair: 5,
      loginFailuresPerAddress: 50,
      loginFailuresPerUsername: 60,
      loginFailureWindowSeconds: 600,
      signupsPerAddress: 3,
      signupWindowSeconds: 7200,
      commentsPerMinute: 5,
      commentsPerDay: 50,
      reportsToHide: 2,
      publicReads: true,
      publicCacheSeconds: 0,
    });
    expect(settingsFrom({ allowedOrigins: ['https://a.example'] }).allowedOrigins).toEqual(['https://a.example']);
    expect(settingsFrom({ allowedOrigins: 'https://a.example,*' }).allowedOrigins).toEqual(['*']);
  });

  it.each([
    ['allowedOrigins', ''],
    ['allowedOrigins', 'https://a.example/'],
    ['allowedOrigins', 'a.example'],
    ['throttlingRateLimit', 'fast'],
    ['throttlingRateLimit', '0'],
    ['throttlingBurstLimit', '2.5'],
    ['memorySize', '64'],
    ['logRetentionDays', '2'],
    ['stackName', ' '],
    ['tracing', 'yes'],
    ['alarmEmail', 'ops'],
    ['alarmEmail', 'ops@example'],
    ['alarmEmail', 'ops@@example.com'],
    ['alarmEmail', 'a@example.com,b@example.com'],
    ['alarmEmail', 'Ops <ops@example.com>'],
    ['alarmEmail', 42],
    ['errorRateAlarmPercent', '0'],
    ['errorRateAlarmPercent', '101'],
    ['errorRateAlarmPercent', 'five'],
    ['errorRateAlarmPercent', '5%'],
    ['latencyP99AlarmMs', '1.5'],
    ['latencyP99AlarmMs', '10'],
    ['latencyP99AlarmMs', '30001'],
    ['routeMetrics', 'on'],
    ['functionErrorsAlarmCount', '0'],
    ['tableThrottlesAlarmCount', '-1'],
    ['streamIteratorAgeAlarmSeconds', '4'],
    ['streamIteratorAgeAlarmSeconds', '86401'],
    ['streamIteratorAgeAlarmMinutes', '0'],
    ['streamIteratorAgeAlarmMinutes', '1441'],
    ['streamTimeoutSeconds', '0'],
    ['streamTimeoutSeconds', '901'],
    ['streamMemorySize', '64'],
    ['streamMemorySize', '10241'],
    ['streamBatchSize', '0'],
    ['streamBatchSize', '10001'],
    ['streamParallelizationFactor', '0'],
    ['streamParallelizationFactor', '11'],
    ['streamRetryAttempts', '-1'],
    ['streamRetryAttempts', '10001'],
    ['streamBisectBatchOnError', 'yes'],
    ['streamMaxRecordAgeSeconds', '59'],
    ['streamMaxRecordAgeSeconds', '86401'],
    ['streamBatchingWindowSeconds', '-1'],
    ['streamBatchingWindowSeconds', '301'],
    ['streamBatchingWindowSeconds', '0.5'],
    ['signup', 'no'],
    ['signup', true],
    ['loginFailuresPerPair', '0'],
    ['loginFailuresPerAddress', '1.5'],
    ['loginFailuresPerUsername', 'many'],
    ['loginFailureWindowSeconds', '86401'],
    ['signupsPerAddress', '-1'],
    ['signupWindowSeconds', '0'],
    ['publicReads', 'yes'],
    ['publicReads', 1],
    ['publicCacheSeconds', '-1'],
    ['publicCacheSeconds', '1.5'],
    ['publicCacheSeconds', '31536001'],
    ['publicCacheSeconds', 'ten'],
  ])('refuses %s=%j', (key, value) => {
    expect(() => settingsFrom({ [key]: value })).toThrow(SettingsError);
  });

  it('puts the overrides into the template', () => {
    // Bundling is skipped here ('aws:cdk:bundling-stacks': []): only the settings are under test.
    const app = new App({
      outdir,
      context: {
        'aws:cdk:bundling-stacks': [],
        allowedOrigins: 'https://a.example,https://b.example',
        throttlingRateLimit: '7',
        throttlingBurstLimit: '9',
        memorySize: '1024',
        logRetentionDays: '14',
      },
    });
    const settings = readSettings(app.node);
    const stack = new CommunityPostsStack(app, settings.stackName, { settings, siteAssets });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: { AllowOrigins: ['https://a.example', 'https://b.example'] },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 },
    });
    const functions = Object.entries(template.findResources('AWS::Lambda::Function')).flatMap(([id, fn]) => (isDeployTimeFunction(id) ? [] : [fn]));
    // One per handler of the route table, the fallback, the table's stream consumer (no HTTP, no CORS) and the page function.
    const handlers = new Set(ROUTES.map((route) => route.handler)).size;
    expect(functions).toHaveLength(handlers + 3);
    const answering = functions.filter((fn) => fn.Properties.Environment.Variables.CORS_ALLOWED_ORIGINS !== undefined);
    expect(answering).toHaveLength(handlers + 1);
    for (const fn of answering) expect(fn.Properties.Environment.Variables.CORS_ALLOWED_ORIGINS).toBe('https://a.example,https://b.example');
    // memorySize is the API's: the stream consumer keeps its own (streamMemorySize).
    for (const fn of answering) expect(fn.Properties.MemorySize).toBe(1024);
    // The page function (no CORS, SITE_NAME) takes the API's memorySize too.
    const page = functions.filter((fn) => !answering.includes(fn) && fn.Properties.Environment.Variables.SITE_NAME !== undefined);
    expect(page.map((fn) => [fn.Properties.MemorySize, fn.Properties.Environment.Variables.SITE_NAME])).toEqual([[1024, DEFAULT_SETTINGS.siteName]]);
    const consumer = functions.filter((fn) => !answering.includes(fn) && !page.includes(fn));
    expect(consumer.map((fn) => fn.Properties.MemorySize)).toEqual([DEFAULT_SETTINGS.streamMemorySize]);
    for (const logGroup of Object.values(template.findResources('AWS::Logs::LogGroup'))) {
      expect(logGroup.Properties.RetentionInDays).toBe(14);
    }
  });
});

describe("the CLI's account and region (CDK_DEFAULT_ACCOUNT, CDK_DEFAULT_REGION)", () => {
  afterEach(() => vi.unstubAllEnvs());

  it('make the stack environment-specific when both are set, as the CLI sets them from credentials', () => {
    vi.stubEnv('CDK_DEFAULT_ACCOUNT', '123456789012');
    vi.stubEnv('CDK_DEFAULT_REGION', 'eu-west-1');
    expect(cdkEnvironment()).toEqual({ account: '123456789012', region: 'eu-west-1' });
  });

  it('leave it environment-agnostic with the region alone: the CLI sets the region even without credentials (npm run synth offline)', () => {
    vi.stubEnv('CDK_DEFAULT_ACCOUNT', undefined);
    vi.stubEnv('CDK_DEFAULT_REGION', 'us-east-1');
    expect(cdkEnvironment()).toBeUndefined();
  });
});

// Throttling: API Gateway applies the stage's throttle to each route on its own; `routeThrottling`
// sets single routes, and `throttlingOverallRateLimit` bounds what all of them add up to.

const GET_PATHS = ROUTES.filter((route) => route.method === 'GET').map((route) => route.path);
/** Routes of the stack: the route table, a HEAD route per GET path except /logout, and $default. */
const ROUTE_COUNT = ROUTES.length + GET_PATHS.filter((path) => path !== '/logout').length + 1;

describe('route keys', () => {
  it('are the route table, a HEAD route for each GET path but /logout, and $default, as API Gateway writes them', () => {
    const keys = stackRouteKeys();
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(ROUTE_COUNT);
    for (const route of ROUTES) expect(keys).toContain(`${route.method} ${API_PREFIX}${route.path}`);
    for (const path of GET_PATHS) expect(keys.includes(`HEAD ${API_PREFIX}${path}`), path).toBe(path !== '/logout');
    expect(keys).toContain(DEFAULT_ROUTE_KEY);
    expect(keys).toContain('POST /api/v1/login');
  });
});

describe('route throttling', () => {
  it('defaults to a stricter login: 10 requests/s, burst 20', () => {
    expect(DEFAULT_SETTINGS.routeThrottling).toEqual({ 'POST /api/v1/login': { rateLimit: 10, burstLimit: 20 } });
    expect(CDK_JSON.context.routeThrottling).toEqual(DEFAULT_SETTINGS.routeThrottling);
  });

  it('reads a JSON object (cdk.json) and a JSON string (-c), HEAD and $default routes included', () => {
    const throttles = {
      'POST /api/v1/login': { rateLimit: 5, burstLimit: 5 },
      'HEAD /api/v1/posts': { rateLimit: 20, burstLimit: 40 },
      $default: { rateLimit: 1, burstLimit: 2 },
    };
    expect(settingsFrom({ routeThrottling: throttles }).routeThrottling).toEqual(throttles);
    expect(settingsFrom({ routeThrottling: JSON.stringify(throttles) }).routeThrottling).toEqual(throttles);
    // Numbers as the other settings take them: strings of whole numbers too.
    expect(settingsFrom({ routeThrottling: { 'GET /api/v1/tags': { rateLimit: '3', burstLimit: '4' } } }).routeThrottling).toEqual({
      'GET /api/v1/tags': { rateLimit: 3, burstLimit: 4 },
    });
    // No overrides at all: every route takes throttlingRateLimit / throttlingBurstLimit.
    expect(settingsFrom({ routeThrottling: '{}' }).routeThrottling).toEqual({});
    expect(settingsFrom({ routeThrottling: {} }).routeThrottling).toEqual({});
  });

  it.each([
    ['POST /api/v1/logout', 'a method the path does not have'],
    ['HEAD /api/v1/logout', 'the one GET path without a HEAD route'],
    ['POST /login', 'no /api/v1 prefix'],
    ['post /api/v1/login', 'lower-case method'],
    ['POST  /api/v1/login', 'two spaces'],
    ['GET /api/v1/posts/detail/:slug', 'a parameter not written {slug}'],
    ['OPTIONS /api/v1/posts', 'preflight is not a route'],
  ])('refuses the route key %j (%s), naming it', (routeKey) => {
    const context = { routeThrottling: { [routeKey]: { rateLimit: 1, burstLimit: 1 } } };
    expect(() => settingsFrom(context)).toThrow(SettingsError);
    expect(() => settingsFrom(context)).toThrow(`"${routeKey}" is not a route of the API`);
    expect(() => settingsFrom({ routeThrottling: JSON.stringify(context.routeThrottling) })).toThrow(`"${routeKey}"`);
  });

  it.each([
    ['not JSON', '{"POST /api/v1/login": '],
    ['a JSON array', '[]'],
    ['a JSON number', '10'],
    ['an empty string', ''],
    ['a route without limits', { 'POST /api/v1/login': 10 }],
    ['a route with null', { 'POST /api/v1/login': null }],
    ['a missing burstLimit', { 'POST /api/v1/login': { rateLimit: 10 } }],
    ['a missing rateLimit', { 'POST /api/v1/login': { burstLimit: 10 } }],
    ['an unknown limit', { 'POST /api/v1/login': { rateLimit: 10, burstLimit: 20, quota: 5 } }],
    ['a rate of 0', { 'POST /api/v1/login': { rateLimit: 0, burstLimit: 20 } }],
    ['a fractional rate', { 'POST /api/v1/login': { rateLimit: 2.5, burstLimit: 20 } }],
    ['a rate over 10000', { 'POST /api/v1/login': { rateLimit: 10_001, burstLimit: 20 } }],
    ['a burst over 5000', { 'POST /api/v1/login': { rateLimit: 10, burstLimit: 5_001 } }],
    ['a word for a number', '{"POST /api/v1/login": {"rateLimit": "ten", "burstLimit": 20}}'],
  ])('refuses %s', (_, value) => {
    expect(() => settingsFrom({ routeThrottling: value })).toThrow(SettingsError);
  });

  it('names the route and the limit of a bad number', () => {
    expect(() => settingsFrom({ routeThrottling: { 'GET /api/v1/users': { rateLimit: 10, burstLimit: -1 } } })).toThrow(
      'Context "routeThrottling: GET /api/v1/users burstLimit" must be a whole number from 1 to 5000, not -1.',
    );
  });
});

describe('overall rate limit', () => {
  const defaults = ROUTE_COUNT - 1; // every route but login takes throttlingRateLimit

  it('is unset by default (null in cdk.json, "none" or "" with -c), and then nothing is checked', () => {
    expect(CDK_JSON.context.throttlingOverallRateLimit).toBeNull();
    expect(DEFAULT_SETTINGS.throttlingOverallRateLimit).toBeUndefined();
    for (const value of [null, 'none', 'NONE', '']) {
      expect(settingsFrom({ throttlingOverallRateLimit: value }).throttlingOverallRateLimit).toBeUndefined();
    }
    expect(settingsFrom({ throttlingRateLimit: 10_000 }).throttlingRateLimit).toBe(10_000);
  });

  it('adds up the throttles of every route of the stack: the default for each route without its own, plus the others', () => {
    expect(throttleTotals(DEFAULT_SETTINGS)).toEqual({
      routes: ROUTE_COUNT,
      overridden: 1,
      rateLimit: defaults * 50 + 10,
      burstLimit: defaults * 100 + 20,
    });
    const settings = settingsFrom({
      throttlingRateLimit: 7,
      throttlingBurstLimit: 9,
      routeThrottling: { 'POST /api/v1/login': { rateLimit: 1, burstLimit: 2 }, $default: { rateLimit: 3, burstLimit: 4 } },
    });
    expect(throttleTotals(settings)).toEqual({
      routes: ROUTE_COUNT,
      overridden: 2,
      rateLimit: (ROUTE_COUNT - 2) * 7 + 4,
      burstLimit: (ROUTE_COUNT - 2) * 9 + 6,
    });
    // Only the given routes count (the stack passes the routes it has).
    expect(throttleTotals(settings, ['POST /api/v1/login', 'GET /api/v1/posts'])).toEqual({ routes: 2, overridden: 1, rateLimit: 8, burstLimit: 11 });
  });

  it('accepts settings whose rate limits add up to the overall limit or less', () => {
    const sum = defaults * 50 + 10;
    expect(settingsFrom({ throttlingOverallRateLimit: String(sum) }).throttlingOverallRateLimit).toBe(sum);
    expect(settingsFrom({ ...CDK_JSON.context, throttlingOverallRateLimit: 10_000 }).throttlingOverallRateLimit).toBe(10_000);
  });

  it('refuses settings whose rate limits add up to more, saying by how much and what would fit', () => {
    const sum = defaults * 50 + 10;
    const fits = Math.floor((sum - 1 - 10) / defaults);
    expect(() => settingsFrom({ throttlingOverallRateLimit: sum - 1 })).toThrow(SettingsError);
    expect(() => settingsFrom({ throttlingOverallRateLimit: sum - 1 })).toThrow(
      `Context "throttlingOverallRateLimit" is ${sum - 1} requests/s, but the rate limits of the ${ROUTE_COUNT} routes add up to ${sum} ` +
        `(${defaults} at "throttlingRateLimit" 50, 1 from "routeThrottling" with 10): lower "throttlingRateLimit" to ${fits} or less, ` +
        `lower routes in "routeThrottling", or raise "throttlingOverallRateLimit".`,
    );
    // With that default it fits.
    expect(settingsFrom({ throttlingOverallRateLimit: sum - 1, throttlingRateLimit: fits }).throttlingRateLimit).toBe(fits);
    // Overrides that alone take more than the limit.
    expect(() =>
      settingsFrom({
        throttlingOverallRateLimit: '100',
        throttlingRateLimit: '1',
        routeThrottling: '{"GET /api/v1/posts": {"rateLimit": 200, "burstLimit": 200}}',
      }),
    ).toThrow('lower the routes in "routeThrottling" (they alone take 200)');
  });

  it.each(['0', '-5', '1.5', 'fast', '10001', true])('refuses throttlingOverallRateLimit=%j', (value) => {
    expect(() => settingsFrom({ throttlingOverallRateLimit: value })).toThrow(SettingsError);
  });
});

describe('throttling in the template', () => {
  it('puts the default in DefaultRouteSettings, the routes of routeThrottling in RouteSettings, and their sum in an output', () => {
    // Bundling is skipped, as above. With the context's own limits, not cdk.json's.
    const routeThrottling = {
      'POST /api/v1/login': { rateLimit: 2, burstLimit: 3 },
      'GET /api/v1/posts': { rateLimit: 40, burstLimit: 80 },
      $default: { rateLimit: 5, burstLimit: 5 },
    };
    const app = new App({
      outdir,
      context: {
        'aws:cdk:bundling-stacks': [],
        throttlingRateLimit: '11',
        throttlingBurstLimit: '13',
        routeThrottling: JSON.stringify(routeThrottling),
        throttlingOverallRateLimit: '5000',
      },
    });
    const settings = readSettings(app.node);
    const stack = new CommunityPostsStack(app, settings.stackName, { settings, siteAssets });
    const json = Template.fromStack(stack).toJSON() as {
      Resources: Record<string, { Type: string; Properties: Record<string, any>; DependsOn?: string[] }>;
      Outputs: Record<string, { Value: unknown; Description: string }>;
    };
    const resources = Object.entries(json.Resources);
    const stages = resources.filter(([, resource]) => resource.Type === 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const [, stage] = stages[0]!;
    // With the per-route metrics of the latency alarms (routeMetrics, on by default), in each
    // route's settings too: they replace the stage's default ones, not merge with them.
    expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 11, ThrottlingBurstLimit: 13, DetailedMetricsEnabled: true });
    expect(stage.Properties.RouteSettings).toEqual({
      'POST /api/v1/login': { ThrottlingRateLimit: 2, ThrottlingBurstLimit: 3, DetailedMetricsEnabled: true },
      'GET /api/v1/posts': { ThrottlingRateLimit: 40, ThrottlingBurstLimit: 80, DetailedMetricsEnabled: true },
      $default: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 5, DetailedMetricsEnabled: true },
    });
    // API Gateway refuses route settings for a route that does not exist yet: the stage waits.
    const routeIds = new Map(
      resources.filter(([, resource]) => resource.Type === 'AWS::ApiGatewayV2::Route').map(([id, route]) => [route.Properties.RouteKey as string, id]),
    );
    for (const routeKey of Object.keys(routeThrottling)) expect(stage.DependsOn, routeKey).toContain(routeIds.get(routeKey));
    // The most the API accepts: the sum over the routes it has.
    const routeKeys = [...routeIds.keys()];
    const sum = routeKeys.reduce((total, key) => total + (routeThrottling[key as keyof typeof routeThrottling]?.rateLimit ?? 11), 0);
    expect(sum).toBe((routeKeys.length - 3) * 11 + 47);
    expect(json.Outputs.MaxRequestRate!.Value).toBe(String(sum));
    expect(json.Outputs.MaxRequestRate!.Description).toContain(`the rate limits of its ${routeKeys.length} routes added up (3 set by routeThrottling`);
  });

  it('refuses route throttling for a route the API does not have', () => {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const settings: DeploySettings = { ...DEFAULT_SETTINGS, routeThrottling: { 'PATCH /api/v1/nowhere': { rateLimit: 1, burstLimit: 1 } } };
    expect(() => new CommunityPostsStack(app, 'Stack', { settings, siteAssets })).toThrow(
      new SettingsError('Context "routeThrottling": the API has no route "PATCH /api/v1/nowhere".'),
    );
  });
});

describe('siteUrl (the feed links posts to the frontend)', () => {
  it('is unset by default, and an http(s) address without its trailing slashes when given', () => {
    expect(settingsFrom({}).siteUrl).toBeUndefined();
    expect(settingsFrom({ siteUrl: null }).siteUrl).toBeUndefined();
    expect(settingsFrom({ siteUrl: 'none' }).siteUrl).toBeUndefined();
    expect(settingsFrom({ siteUrl: 'https://site.example/' }).siteUrl).toBe('https://site.example');
    expect(settingsFrom({ siteUrl: ' http://site.example/blog ' }).siteUrl).toBe('http://site.example/blog');
  });

  it('refuses anything else', () => {
    for (const value of ['site.example', 'ftp://site.example', 'https://site.example/?q=1', 'https://', 42]) {
      expect(() => settingsFrom({ siteUrl: value }), String(value)).toThrow(SettingsError);
    }
  });

  it("gives every API function SITE_URL when set, and the stack's own distribution when not", () => {
    const environments = (settings: DeploySettings) => {
      const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
      const stack = new CommunityPostsStack(app, 'Stack', { settings, siteAssets });
      const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<
        string,
        { Properties: { Environment?: { Variables?: Record<string, unknown> } } }
      >;
      // The API's functions: those given the CORS settings (not the stream consumer nor CDK's own helpers).
      const api = Object.values(functions).filter((fn) => fn.Properties.Environment?.Variables?.CORS_ALLOWED_ORIGINS !== undefined);
      expect(api.length).toBeGreaterThan(ROUTES.length / 2);
      return api.map((fn) => fn.Properties.Environment?.Variables?.SITE_URL);
    };
    expect(new Set(environments({ ...DEFAULT_SETTINGS, siteUrl: 'https://site.example' }))).toEqual(new Set(['https://site.example']));
    const distribution = environments(DEFAULT_SETTINGS).map((value) => JSON.stringify(value));
    expect(new Set(distribution).size).toBe(1);
    expect(JSON.parse(distribution[0]!)).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [expect.stringMatching(/^SiteDistribution[0-9A-F]{8}$/), 'DomainName'] }]],
    });
  });
});

describe("siteName (the pages' and the feeds' titles)", () => {
  it("is 'Community Posts' by default, and the name given, trimmed", () => {
    expect(settingsFrom({}).siteName).toBe('Community Posts');
    expect(settingsFrom({ siteName: ' Tea Room ' }).siteName).toBe('Tea Room');
    expect(settingsFrom({ siteName: 'x'.repeat(60) }).siteName).toBe('x'.repeat(60));
  });

  it('stops the synth on an empty name, one over 60 characters or one with a control character, naming the setting', () => {
    for (const value of ['', '   ', 'x'.repeat(61), 'Tea\nRoom', 'Tea\u0007Room', 'Tea\u0085Room', 42]) {
      expect(() => settingsFrom({ siteName: value }), JSON.stringify(value)).toThrow(SettingsError);
      expect(() => settingsFrom({ siteName: value }), JSON.stringify(value)).toThrow(/Context "siteName"/);
    }
  });

  it('gives SITE_NAME to the page function and every API function', () => {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new CommunityPostsStack(app, 'Stack', { settings: { ...DEFAULT_SETTINGS, siteName: 'Tea Room' }, siteAssets });
    const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<
      string,
      { Properties: { Environment?: { Variables?: Record<string, unknown> } } }
    >;
    const named = Object.entries(functions).filter(([, fn]) => fn.Properties.Environment?.Variables?.SITE_NAME !== undefined);
    const api = Object.values(functions).filter((fn) => fn.Properties.Environment?.Variables?.CORS_ALLOWED_ORIGINS !== undefined);
    expect(api.length).toBeGreaterThan(ROUTES.length / 2);
    for (const fn of api) expect(fn.Properties.Environment!.Variables!.SITE_NAME).toBe('Tea Room');
    const page = named.filter(([id]) => /^SitePageFunction[0-9A-F]{8}$/.test(id));
    expect(page).toHaveLength(1);
    expect(page[0]![1].Properties.Environment!.Variables).toMatchObject({ SITE_NAME: 'Tea Room', PUBLIC_READS: 'false', PUBLIC_CACHE_SECONDS: '10' });
    expect(page[0]![1].Properties.Environment!.Variables!.SITE_URL).toBeUndefined();
    expect(named).toHaveLength(api.length + 1);
  });
});

describe("the site's own domain (domainName, certificateArn, hostedZoneId)", () => {
  const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab';
  const domain = { domainName: 'community.example.com', certificateArn: CERTIFICATE };

  it('is unset by default (null in cdk.json, "none" or "" with -c): the distribution keeps its own name', () => {
    expect([DEFAULT_SETTINGS.domainNames, DEFAULT_SETTINGS.certificateArn, DEFAULT_SETTINGS.hostedZoneId]).toEqual([[], undefined, undefined]);
    expect([CDK_JSON.context.domainName, CDK_JSON.context.certificateArn, CDK_JSON.context.hostedZoneId]).toEqual([null, null, null]);
    expect(settingsFrom({ domainName: 'none', certificateArn: '', hostedZoneId: 'NONE' })).toEqual(DEFAULT_SETTINGS);
  });

  it('takes one name or a list, the first the canonical one, with its certificate and an optional hosted zone', () => {
    expect(settingsFrom(domain)).toMatchObject({
      domainNames: ['community.example.com'],
      certificateArn: CERTIFICATE,
      hostedZoneId: undefined,
      siteUrl: undefined,
    });
    expect(settingsFrom({ ...domain, domainName: ['www.example.com', 'example.com'], hostedZoneId: 'Z1D633PJN98FT9' })).toMatchObject({
      domainNames: ['www.example.com', 'example.com'],
      hostedZoneId: 'Z1D633PJN98FT9',
    });
    // siteUrl may say the same address.
    expect(settingsFrom({ ...domain, siteUrl: 'https://community.example.com/' }).siteUrl).toBe('https://community.example.com');
  });

  it('refuses a domain without its certificate, and a certificate or a hosted zone without a domain', () => {
    expect(() => settingsFrom({ domainName: 'community.example.com' })).toThrow(
      new SettingsError(
        'Context "domainName" needs "certificateArn": the ARN of an ACM certificate in us-east-1 that covers community.example.com (docs/deploy.md, "Custom domain").',
      ),
    );
    expect(() => settingsFrom({ certificateArn: CERTIFICATE })).toThrow(
      new SettingsError(
        'Context "certificateArn" is set but "domainName" is not: name the domain it is for (docs/deploy.md, "Custom domain"), or unset "certificateArn".',
      ),
    );
    expect(() => settingsFrom({ hostedZoneId: 'Z1D633PJN98FT9' })).toThrow('Context "hostedZoneId" is set but "domainName" is not');
  });

  it('refuses a certificate outside us-east-1, where CloudFront takes its certificates from', () => {
    expect(() => settingsFrom({ ...domain, certificateArn: CERTIFICATE.replace('us-east-1', 'eu-west-1') })).toThrow(
      new SettingsError(
        'Context "certificateArn": the certificate is in eu-west-1, but CloudFront only takes certificates from us-east-1 (US East, N. Virginia), ' +
          `whatever the stack's region: request or import it there (docs/deploy.md, "Custom domain").`,
      ),
    );
  });

  it('refuses a siteUrl that contradicts the domain', () => {
    for (const siteUrl of [
      'https://other.example.com',
      'http://community.example.com',
      'https://community.example.com/blog',
      'https://www.community.example.com',
    ]) {
      expect(() => settingsFrom({ ...domain, domainName: 'community.example.com,www.community.example.com', siteUrl }), siteUrl).toThrow(
        new SettingsError(
          `Context "siteUrl" is ${siteUrl}, but "domainName" makes the site https://community.example.com: leave "siteUrl" unset (it follows "domainName") or set it to https://community.example.com.`,
        ),
      );
    }
  });

  it.each([
    ['domainName', 'https://community.example.com'],
    ['domainName', 'community.example.com/blog'],
    ['domainName', 'localhost'],
    ['domainName', '*.example.com'],
    ['domainName', 'community_posts.example.com'],
    ['domainName', '-community.example.com'],
    ['domainName', '192.0.2.1'],
    ['domainName', `${'a'.repeat(64)}.example.com`],
    ['domainName', 'd111111abcdef8.cloudfront.net'],
    ['domainName', 'example.com,EXAMPLE.com'],
    ['domainName', 42],
    ['certificateArn', 'arn:aws:acm:us-east-1:123456789012:certificate'],
    ['certificateArn', 'arn:aws:iam::123456789012:server-certificate/site'],
    ['certificateArn', '1234abcd-12ab-34cd-56ef-1234567890ab'],
    ['hostedZoneId', 'example.com'],
    ['hostedZoneId', 'z1d633pjn98ft9'],
  ])('refuses %s=%j', (key, value) => {
    expect(() => settingsFrom({ ...domain, [key]: value })).toThrow(SettingsError);
  });

  it('gives the API functions and the SiteUrl output the domain, and outputs the distribution name the records point to', () => {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const settings = settingsFrom({ ...domain, domainName: 'community.example.com,www.community.example.com' });
    const template = Template.fromStack(new CommunityPostsStack(app, 'Stack', { settings, siteAssets }));
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (fn) => fn.Properties.Environment?.Variables?.CORS_ALLOWED_ORIGINS !== undefined,
    );
    expect(functions.length).toBe(new Set(ROUTES.map((route) => route.handler)).size + 1);
    for (const fn of functions) expect(fn.Properties.Environment.Variables.SITE_URL).toBe('https://community.example.com');
    const outputs = template.findOutputs('*');
    expect(outputs.SiteUrl!.Value).toBe('https://community.example.com');
    expect(outputs.DistributionDomainName!.Value).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^SiteDistribution[0-9A-F]{8}$/), 'DomainName'] });
    expect(outputs.DistributionDomainName!.Description).toContain('community.example.com, www.community.example.com at your DNS provider');
    // Without a hosted zone the records are the operator's to make.
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
  });
});

describe("the stream consumer's own settings", () => {
  it("default to a minute, the API functions' memory and the mapping the consumer was built with", () => {
    expect(DEFAULT_STREAM_CONSUMER).toEqual({
      streamTimeoutSeconds: 60,
      streamMemorySize: 512,
      streamBatchSize: 100,
      streamParallelizationFactor: 1,
      streamRetryAttempts: 5,
      streamBisectBatchOnError: true,
      streamMaxRecordAgeSeconds: undefined,
      streamBatchingWindowSeconds: 0,
    });
    expect(DEFAULT_SETTINGS).toMatchObject(DEFAULT_STREAM_CONSUMER);
    expect(DEFAULT_STREAM_CONSUMER.streamMemorySize).toBe(DEFAULT_SETTINGS.memorySize);
  });

  it("go to the consumer's function and its event source mapping only, and the local stack reads them from the template", () => {
    const context = {
      streamTimeoutSeconds: '120',
      streamMemorySize: '2048',
      streamBatchSize: '25',
      streamParallelizationFactor: '3',
      streamRetryAttempts: '2',
      streamBisectBatchOnError: 'false',
      streamMaxRecordAgeSeconds: '3600',
      streamBatchingWindowSeconds: '1',
    };
    const app = new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-asset-metadata': true } });
    const settings = readSettings(app.node);
    const stack = new CommunityPostsStack(app, 'StreamSettings', { settings, siteAssets });
    const template = Template.fromStack(stack);
    const consumer = stack.resolve((stack.functions.get(TABLE_STREAM_CONSUMER.handler)!.function.node.defaultChild as CfnElement).logicalId) as string;
    const functions = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => !isDeployTimeFunction(id));
    for (const [id, fn] of functions) {
      expect([fn.Properties.Timeout, fn.Properties.MemorySize], id).toEqual(id === consumer ? [120, 2048] : [10, DEFAULT_SETTINGS.memorySize]);
    }
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.Properties).toMatchObject({
      FunctionName: { Ref: consumer },
      BatchSize: 25,
      ParallelizationFactor: 3,
      MaximumRetryAttempts: 2,
      BisectBatchOnFunctionError: false,
      MaximumRecordAgeInSeconds: 3600,
      MaximumBatchingWindowInSeconds: 1,
      // Kept whatever the settings: partial batch responses, and the on-failure queue.
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    // The local stack on the bundles (npm start --bundles) plays what the template says.
    app.synth();
    const streamArn = 'arn:aws:dynamodb:us-east-1:000000000000:table/local/stream/label';
    const local = templateDeployment({ cdkOut: outdir, stackName: stack.stackName, tableName: 'local', region: 'us-east-1', streamArn });
    const { handler, ...mapping } = tableStreamConsumer(settings);
    expect(handler).toBe(TABLE_STREAM_CONSUMER.handler);
    expect(local.eventSources).toEqual([{ functionName: functionName(handler), streamArn, ...mapping, onFailureDestination: true }]);
    expect(local.eventSources[0]).toMatchObject({ batchSize: 25, retryAttempts: 2, bisectBatchOnError: false });
    expect(local.functions.get(functionName(handler))).toMatchObject({ timeoutSeconds: 120, memorySize: 2048 });
  });
});

describe("sign-up and the abuse limits (the functions' environment)", () => {
  /** The environment of each API function (those given the CORS settings) in the template of `settings`. */
  const environments = (settings: DeploySettings) => {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new CommunityPostsStack(app, 'Stack', { settings, siteAssets });
    const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<
      string,
      { Properties: { Environment?: { Variables?: Record<string, string> } } }
    >;
    const api = Object.values(functions).flatMap((fn) =>
      fn.Properties.Environment?.Variables?.CORS_ALLOWED_ORIGINS !== undefined ? [fn.Properties.Environment.Variables] : [],
    );
    expect(api.length).toBeGreaterThan(ROUTES.length / 2);
    return api;
  };

  it('by default: sign-up open and the limits docs/api.md gives, the same values the functions fall back on', () => {
    for (const variables of environments(DEFAULT_SETTINGS)) {
      expect(variables).toMatchObject({
        SIGNUP: 'open',
        LOGIN_FAILURES_PER_PAIR: '10',
        LOGIN_FAILURES_PER_ADDRESS: '100',
        LOGIN_FAILURES_PER_USERNAME: '100',
        LOGIN_FAILURE_WINDOW_SECONDS: '900',
        SIGNUPS_PER_ADDRESS: '10',
        SIGNUP_WINDOW_SECONDS: '3600',
      });
    }
  });

  it('-c signup=closed and the limits given: every API function gets them', () => {
    const settings = settingsFrom({ signup: 'closed', loginFailuresPerPair: '3', loginFailureWindowSeconds: '60', signupsPerAddress: '2' });
    for (const variables of environments(settings)) {
      expect(variables).toMatchObject({
        SIGNUP: 'closed',
        LOGIN_FAILURES_PER_PAIR: '3',
        LOGIN_FAILURE_WINDOW_SECONDS: '60',
        SIGNUPS_PER_ADDRESS: '2',
        SIGNUP_WINDOW_SECONDS: '3600',
      });
    }
  });

  it('a function given that environment reads the same settings', async () => {
    const settings = settingsFrom({ signup: 'closed', loginFailuresPerUsername: '7', signupWindowSeconds: '120' });
    const [variables] = environments(settings);
    const saved = { ...process.env };
    try {
      Object.assign(process.env, variables);
      expect(signupClosedByDeployment()).toBe(true);
      expect(loginFailureLimits()).toEqual({
        pair: { max: 10, windowSeconds: 900 },
        address: { max: 100, windowSeconds: 900 },
        username: { max: 7, windowSeconds: 900 },
      });
      expect(signupAttemptLimit()).toEqual({ max: 10, windowSeconds: 120 });
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});

describe("public reads and their shared-cache time (the functions' environment)", () => {
  const environments = (settings: DeploySettings) => {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new CommunityPostsStack(app, 'Stack', { settings, siteAssets });
    const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<
      string,
      { Properties: { Environment?: { Variables?: Record<string, string> } } }
    >;
    const api = Object.values(functions).flatMap((fn) =>
      fn.Properties.Environment?.Variables?.CORS_ALLOWED_ORIGINS !== undefined ? [fn.Properties.Environment.Variables] : [],
    );
    expect(api.length).toBe(new Set(ROUTES.map((route) => route.handler)).size + 1);
    return api;
  };

  it('default off, 10 seconds, as cdk.json says and the functions fall back on', () => {
    expect([DEFAULT_SETTINGS.publicReads, DEFAULT_SETTINGS.publicCacheSeconds]).toEqual([false, 10]);
    expect([CDK_JSON.context.publicReads, CDK_JSON.context.publicCacheSeconds]).toEqual([false, 10]);
    for (const variables of environments(DEFAULT_SETTINGS)) expect(variables).toMatchObject({ PUBLIC_READS: 'false', PUBLIC_CACHE_SECONDS: '10' });
    expect(publicReads()).toBe(false);
    expect(publicCacheSeconds()).toBe(10);
  });

  it.each([
    [{ publicReads: 'true', publicCacheSeconds: '60' }, { PUBLIC_READS: 'true', PUBLIC_CACHE_SECONDS: '60' }, true, 60],
    [{ publicReads: true, publicCacheSeconds: 0 }, { PUBLIC_READS: 'true', PUBLIC_CACHE_SECONDS: '0' }, true, 0],
    [{ publicReads: 'false' }, { PUBLIC_READS: 'false', PUBLIC_CACHE_SECONDS: '10' }, false, 10],
  ])('-c %j: every API function gets %j, and reads it back', (context, expected, on, seconds) => {
    const [variables, ...others] = environments(settingsFrom(context));
    for (const each of [variables, ...others]) expect(each).toMatchObject(expected);
    const saved = { ...process.env };
    try {
      Object.assign(process.env, variables);
      expect(publicReads()).toBe(on);
      expect(publicCacheSeconds()).toBe(seconds);
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});

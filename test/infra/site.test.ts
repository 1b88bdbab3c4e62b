import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations, type CfnElement } from 'aws-cdk-lib';
import { OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type BuiltApp } from '../../infra/build.ts';
import { API_CACHE_KEY_HEADERS, API_PATH_PATTERN, CACHEABLE_ERROR_CODES, HASHED_CACHE_CONTROL, PAGE_CACHE_CONTROL } from '../../infra/site.ts';
import { BEHAVIOR_LIMIT, BUILD_COMMAND, SiteBuildError, buildFilePatterns, distributionDomainCode } from '../../infra/site-functions.ts';
import { PAGE_HANDLER, PAGE_MAX_TTL_SECONDS, PAGE_QUERY_PARAMETERS, serverBuildBeside } from '../../infra/pages.ts';
import { DEFAULT_SETTINGS } from '../../infra/settings.ts';
import { CommunityPostsStack } from '../../infra/stack.ts';
import { TABLE_STREAM_CONSUMER } from '../../infra/streams.ts';
import { SITE_URL_VARIABLE } from '#lib/config.ts';
import { DISTRIBUTION_DOMAIN_HEADER } from '#lib/site/origin.ts';
import { VIEWER_HOST_HEADER } from '#lib/http/request.ts';
import { API_PREFIX } from '#lib/routes.ts';
import { SITE_SECURITY_HEADERS } from '#lib/site/headers.ts';
import { isDeployTimeFunction, siteBuildFixture } from '../support/site-build.ts';

// The site on the stack (infra/site.ts), read from the template `cdk synth` writes, with a small
// stand-in for the site's build (test/support/site-build.ts). The CloudFront Functions' code is
// taken from the template and run here on the events CloudFront would hand it.

type Json = Record<string, any>;

const CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

let outdir: string;
let siteAssets: string;
let built: BuiltApp;
let resources: Record<string, Json>;
let outputs: Record<string, Json>;

const logicalId = (element: unknown) => built.stack.resolve((element as CfnElement).logicalId) as string;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const only = (type: string) => {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const config = () => only('AWS::CloudFront::Distribution')[1].Properties.DistributionConfig as Json;
const behaviorOf = (pattern: string) => (config().CacheBehaviors as Json[]).find((behavior) => behavior.PathPattern === pattern)!;
const apiBehavior = () => behaviorOf(API_PATH_PATTERN);
const originOf = (behavior: Json) => (config().Origins as Json[]).find((origin) => origin.Id === behavior.TargetOriginId)!;
const viewerRequestFunction = (behavior: Json) => {
  const associations = behavior.FunctionAssociations as Json[];
  expect(associations).toHaveLength(1);
  expect(associations[0]!.EventType).toBe('viewer-request');
  return resources[associations[0]!.FunctionARN['Fn::GetAtt'][0] as string]!;
};

/** The headers a behaviour's response headers policy sends, by lower-case name; every one overrides the origin's. */
function headersSent(template: Record<string, Json>, behavior: Json): Record<string, string> {
  const policy = template[behavior.ResponseHeadersPolicyId.Ref as string]!.Properties.ResponseHeadersPolicyConfig;
  const security = policy.SecurityHeadersConfig;
  for (const header of Object.values(security) as Json[]) expect(header.Override).toBe(true);
  const hsts = security.StrictTransportSecurity;
  const sent: Record<string, string> = {
    'content-security-policy': security.ContentSecurityPolicy.ContentSecurityPolicy,
    'strict-transport-security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': security.FrameOptions.FrameOption,
    'referrer-policy': security.ReferrerPolicy.ReferrerPolicy,
  };
  for (const header of policy.CustomHeadersConfig.Items as Json[]) {
    expect(header.Override).toBe(true);
    sent[header.Header.toLowerCase()] = header.Value;
  }
  return sent;
}

const DISTRIBUTION_DOMAIN = 'd111111abcdef8.cloudfront.net';

/** A CloudFront Function of the template, run as CloudFront runs it: `handler(event)` returns the request. */
function runFunction(fn: Json): (request: Json) => Json {
  expect(fn.Type).toBe('AWS::CloudFront::Function');
  expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
  const handler = new Function(`${fn.Properties.FunctionCode as string}\nreturn handler;`)() as (event: Json) => Json;
  return (request) =>
    handler({
      version: '1.0',
      context: { eventType: 'viewer-request', distributionDomainName: DISTRIBUTION_DOMAIN, distributionId: 'E1111111111111' },
      viewer: { ip: '192.0.2.1' },
      request: structuredClone(request),
    });
}

const viewerRequest = (uri: string, headers: Record<string, string> = {}) => ({
  method: 'GET',
  uri,
  querystring: {},
  headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { value }])),
  cookies: {},
});

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'community-posts-site-cdk-'));
  siteAssets = siteBuildFixture();
  built = buildApp({ outdir, context: { ...CONTEXT, 'aws:cdk:bundling-stacks': [] } }, { siteAssets });
  // buildApp registers cdk-nag: this synth fails on any finding not fixed or acknowledged.
  const template = built.app.synth().getStackArtifact(built.stack.artifactId).template as { Resources: Record<string, Json>; Outputs: Record<string, Json> };
  resources = template.Resources;
  outputs = template.Outputs;
}, 120_000);

afterAll(() => {
  for (const dir of [outdir, siteAssets]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the bucket', () => {
  it('is private, TLS only, encrypted, and emptied and removed with the stack (the build is remade from source)', () => {
    const [id, bucket] = only('AWS::S3::Bucket');
    expect(id).toBe(logicalId(built.stack.site.bucket.node.defaultChild));
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }]);
    expect(bucket.Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
    expect(bucket.DeletionPolicy).toBe('Delete');
    expect(ofType('Custom::S3AutoDeleteObjects')).toHaveLength(1);
  });

  it('lets only this distribution read it (origin access control), and refuses plain http', () => {
    const [, policy] = only('AWS::S3::BucketPolicy');
    const statements = policy.Properties.PolicyDocument.Statement as Json[];
    const distributionId = logicalId(built.stack.site.distribution.node.defaultChild);
    expect(statements.filter((statement) => statement.Effect === 'Allow' && JSON.stringify(statement.Principal).includes('"*"'))).toEqual([]);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    const reads = statements.filter((statement) => statement.Principal?.Service === 'cloudfront.amazonaws.com');
    expect(reads).toHaveLength(1);
    expect(reads[0]!.Action).toBe('s3:GetObject');
    expect(JSON.stringify(reads[0]!.Condition)).toContain(distributionId);

    const [oacId, oac] = ofType('AWS::CloudFront::OriginAccessControl').find(
      ([, control]) => control.Properties.OriginAccessControlConfig.OriginAccessControlOriginType === 's3',
    )!;
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    const origin = originOf(behaviorOf('/assets/*'));
    expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [only('AWS::S3::Bucket')[0], 'RegionalDomainName'] });
    expect(origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
    expect(origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
  });

  it('receives the build: hashed files immutable for a year and never pruned, then the rest no-cache, pruned but for the hashed files; not index.html nor robots.txt', () => {
    const deployments = ofType('Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(2);
    const hashed = deployments.find(([, d]) => d.Properties.Include)!;
    const pages = deployments.find(([, d]) => !d.Properties.Include)!;
    expect(hashed[1].Properties).toMatchObject({
      Include: ['assets/*'],
      Exclude: ['*'],
      Prune: false,
      SystemMetadata: { 'cache-control': HASHED_CACHE_CONTROL },
    });
    expect(pages[1].Properties).toMatchObject({
      Exclude: ['assets/*', 'index.html', 'robots.txt'],
      Prune: true,
      SystemMetadata: { 'cache-control': PAGE_CACHE_CONTROL },
    });
    expect(HASHED_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    expect(PAGE_CACHE_CONTROL).toBe('no-cache');
    // index.html is replaced only once the chunks it names are there.
    expect([pages[1].DependsOn].flat()).toContain(hashed[0]);
    for (const [, deployment] of deployments) expect(deployment.Properties.DestinationBucketName).toEqual({ Ref: only('AWS::S3::Bucket')[0] });
  });

  it("lets CDK's copying function write the site bucket and read the assets bucket, nothing else of S3", () => {
    const fn = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('CustomCDKBucketDeployment'))!;
    const role = fn[1].Properties.Role['Fn::GetAtt'][0] as string;
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((r: Json) => r.Ref === role))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Json[]);
    const bucket = only('AWS::S3::Bucket')[0];
    for (const statement of statements) {
      const text = JSON.stringify(statement.Resource);
      expect(text.includes(bucket) || text.includes('cdk-hnb659fds-assets-'), text).toBe(true);
    }
  });
});

describe('the distribution', () => {
  it('serves the pages by default from the page function URL (IAM auth, origin access control for Lambda), https by redirect, compressed, HTTP/2 and HTTP/3', () => {
    const distribution = config();
    expect(distribution.DefaultRootObject).toBeUndefined();
    expect(distribution.HttpVersion).toBe('http2and3');
    const behavior = distribution.DefaultCacheBehavior;
    expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(behavior.Compress).toBe(true);
    expect(behavior.AllowedMethods).toEqual(['GET', 'HEAD']);
    expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: logicalId(built.stack.site.headersPolicy.node.defaultChild) });
    expect(viewerRequestFunction(behavior)).toBe(resources[logicalId(built.stack.site.distributionDomain.node.defaultChild)]);

    const page = built.stack.functions.get(PAGE_HANDLER)!;
    const functionId = logicalId(page.function.node.defaultChild);
    const [urlId, url] = only('AWS::Lambda::Url');
    expect(url.Properties).toMatchObject({ AuthType: 'AWS_IAM', TargetFunctionArn: { 'Fn::GetAtt': [functionId, 'Arn'] } });
    const origin = originOf(behavior);
    expect(JSON.stringify(origin.DomainName)).toContain(urlId);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    const [oacId] = ofType('AWS::CloudFront::OriginAccessControl').find(
      ([, control]) => control.Properties.OriginAccessControlConfig.OriginAccessControlOriginType === 'lambda',
    )!;
    expect(origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });

    // Only this distribution may call the URL: CloudFront's service, with its ARN as the source.
    const distributionId = logicalId(built.stack.site.distribution.node.defaultChild);
    const permissions = ofType('AWS::Lambda::Permission').filter(([, permission]) =>
      [functionId, urlId].some((id) => JSON.stringify(permission.Properties.FunctionName).includes(id)),
    );
    expect(permissions.length).toBeGreaterThan(0);
    for (const [, permission] of permissions) {
      expect(permission.Properties.Principal).toBe('cloudfront.amazonaws.com');
      expect(JSON.stringify(permission.Properties.SourceArn)).toContain(distributionId);
    }
    expect(permissions.map(([, permission]) => permission.Properties.Action).sort()).toEqual(['lambda:InvokeFunction', 'lambda:InvokeFunctionUrl']);
  });

  it("keys a page on its path, the encoding and page, sort and q alone; keeps it at most 30 s, as the function's s-maxage says", () => {
    const cache = resources[config().DefaultCacheBehavior.CachePolicyId.Ref as string]!.Properties.CachePolicyConfig;
    expect(cache).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: PAGE_MAX_TTL_SECONDS });
    expect(PAGE_MAX_TTL_SECONDS).toBe(30);
    const key = cache.ParametersInCacheKeyAndForwardedToOrigin;
    expect(key.EnableAcceptEncodingGzip).toBe(true);
    expect(key.EnableAcceptEncodingBrotli).toBe(true);
    expect(key.HeadersConfig).toEqual({ HeaderBehavior: 'none' });
    expect(key.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    expect(key.QueryStringsConfig.QueryStringBehavior).toBe('whitelist');
    expect([...key.QueryStringsConfig.QueryStrings].sort()).toEqual(['page', 'q', 'sort']);
    expect([...PAGE_QUERY_PARAMETERS].sort()).toEqual(['page', 'q', 'sort']);
  });

  it(`forwards to the page function only the cache key and ${DISTRIBUTION_DOMAIN_HEADER}: never the viewer's Host, no cookie, no other query`, () => {
    const behavior = config().DefaultCacheBehavior;
    const policy = resources[behavior.OriginRequestPolicyId.Ref as string]!.Properties.OriginRequestPolicyConfig;
    expect(policy.HeadersConfig).toEqual({ HeaderBehavior: 'whitelist', Headers: [DISTRIBUTION_DOMAIN_HEADER] });
    expect(policy.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    expect(policy.QueryStringsConfig).toEqual({ QueryStringBehavior: 'none' });
  });

  it("sends the build's files to the bucket, one behaviour each: /assets/* and the top-level files but index.html and robots.txt; /api/* as before", () => {
    expect(API_PATH_PATTERN).toBe('/api/*');
    expect(API_PREFIX.startsWith('/api/')).toBe(true);
    const behaviors = config().CacheBehaviors as Json[];
    expect(behaviors.map((behavior) => behavior.PathPattern).sort()).toEqual(['/api/*', '/assets/*', '/favicon.svg']);
    expect(config().Origins).toHaveLength(3);
    const bucket = only('AWS::S3::Bucket')[0];
    const fileCache = logicalId(built.stack.site.siteCachePolicy.node.defaultChild);
    for (const pattern of ['/assets/*', '/favicon.svg']) {
      const behavior = behaviorOf(pattern);
      expect(originOf(behavior).DomainName, pattern).toEqual({ 'Fn::GetAtt': [bucket, 'RegionalDomainName'] });
      expect(behavior.CachePolicyId, pattern).toEqual({ Ref: fileCache });
      expect(behavior.ResponseHeadersPolicyId, pattern).toEqual({ Ref: logicalId(built.stack.site.headersPolicy.node.defaultChild) });
      expect(behavior.AllowedMethods, pattern).toEqual(['GET', 'HEAD']);
      expect(behavior.FunctionAssociations, pattern).toBeUndefined();
    }
    const cache = resources[fileCache]!.Properties.CachePolicyConfig;
    // Min TTL 0: no-cache is honoured; the hashed files keep their year.
    expect(cache.MinTTL).toBe(0);
    expect(cache.ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({ EnableAcceptEncodingGzip: true, EnableAcceptEncodingBrotli: true });
  });

  it("stops the synth past CloudFront's 25 behaviours, and on a file name a path pattern cannot hold", () => {
    const files = Array.from({ length: BEHAVIOR_LIMIT - 1 }, (_, index) => `/icon-${index}.png`);
    expect(buildFilePatterns(files, false, 1)).toHaveLength(BEHAVIOR_LIMIT - 1);
    expect(() => buildFilePatterns(files, true, 1)).toThrow(SiteBuildError);
    expect(() => buildFilePatterns(files, true, 1)).toThrow(/25/);
    expect(buildFilePatterns(['/index.html', '/robots.txt', '/a.svg'], true, 1)).toEqual(['/assets/*', '/a.svg']);
    expect(() => buildFilePatterns(['/notes é.txt'], false, 1)).toThrow(SiteBuildError);
    expect(() => buildFilePatterns(['/a*b.txt'], false, 1)).toThrow(SiteBuildError);
  });

  it('makes the page function wait for the copies of the build: a page never names assets not yet uploaded', () => {
    const page = built.stack.functions.get(PAGE_HANDLER)!;
    const dependsOn = [resources[logicalId(page.function.node.defaultChild)]!.DependsOn].flat();
    for (const [id] of ofType('Custom::CDKBucketDeployment')) expect(dependsOn).toContain(id);
  });

  it('sends /api/* to the API over https, every method, without caching a token answer for another caller', () => {
    const behavior = apiBehavior();
    const origin = originOf(behavior);
    const apiId = logicalId(built.stack.api.node.defaultChild);
    expect(origin.DomainName).toEqual({ 'Fn::Join': ['', [{ Ref: apiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] });
    expect(origin.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(origin.OriginPath).toBeUndefined();
    expect([...behavior.AllowedMethods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(behavior.CachedMethods).toEqual(['GET', 'HEAD']);
    expect(behavior.ViewerProtocolPolicy).toBe('https-only');
    expect(behavior.Compress).toBe(true);
    // Every viewer header but Host, which must stay API Gateway's own.
    expect(behavior.OriginRequestPolicyId).toBe(OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId);
    expect(behavior.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');

    const cache = resources[behavior.CachePolicyId.Ref as string]!.Properties.CachePolicyConfig;
    expect(cache.MinTTL).toBe(0);
    expect(cache.DefaultTTL).toBe(0);
    expect(cache.MaxTTL).toBeGreaterThanOrEqual(Number(CONTEXT.publicCacheSeconds));
    const key = cache.ParametersInCacheKeyAndForwardedToOrigin;
    expect(key.HeadersConfig.HeaderBehavior).toBe('whitelist');
    expect([...key.HeadersConfig.Headers].sort()).toEqual(['Authorization', 'Origin', VIEWER_HOST_HEADER].sort());
    expect([...API_CACHE_KEY_HEADERS]).toContain('Authorization');
    expect(key.QueryStringsConfig).toEqual({ QueryStringBehavior: 'all' });
    expect(key.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    expect(key.EnableAcceptEncodingGzip).toBe(true);
    expect(key.EnableAcceptEncodingBrotli).toBe(true);
  });

  it('caches no error answer (TTL 0 for each code CloudFront would keep) and rewrites none: the API keeps its JSON errors', () => {
    const responses = config().CustomErrorResponses as Json[];
    expect(responses.map((response) => response.ErrorCode).sort((a, b) => a - b)).toEqual([...CACHEABLE_ERROR_CODES]);
    expect(CACHEABLE_ERROR_CODES).toEqual(expect.arrayContaining([400, 403, 404, 405, 500, 502, 503, 504]));
    for (const response of responses) expect(response).toEqual({ ErrorCode: response.ErrorCode, ErrorCachingMinTTL: 0 });
  });

  it('sends the security headers of lib/site/headers.ts with the site, overriding the origin; with public reads off (the default) X-Robots-Tag: noindex too', () => {
    const sent = headersSent(resources, config().DefaultCacheBehavior);
    expect(sent).toEqual({ ...SITE_SECURITY_HEADERS, 'x-robots-tag': 'noindex' });
    expect(Object.keys(sent)).toEqual(expect.arrayContaining(['permissions-policy', 'cross-origin-opener-policy']));
    expect(sent['content-security-policy']).not.toMatch(/unsafe-(inline|eval)/);
  });

  it("adds only HSTS and nosniff to the API's answers, where the API left them out", () => {
    const policy = resources[apiBehavior().ResponseHeadersPolicyId.Ref as string]!.Properties.ResponseHeadersPolicyConfig;
    expect(policy.CustomHeadersConfig).toBeUndefined();
    expect(Object.keys(policy.SecurityHeadersConfig).sort()).toEqual(['ContentTypeOptions', 'StrictTransportSecurity']);
    for (const header of Object.values(policy.SecurityHeadersConfig) as Json[]) expect(header.Override).toBe(false);
    expect(policy.SecurityHeadersConfig.StrictTransportSecurity.AccessControlMaxAgeSec).toBe(
      Number(/max-age=(\d+)/.exec(SITE_SECURITY_HEADERS['strict-transport-security']!)![1]),
    );
  });

  it('outputs SiteUrl, https on the distribution, beside ApiUrl', () => {
    expect(outputs.SiteUrl!.Value).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(built.stack.site.distribution.node.defaultChild), 'DomainName'] }]],
    });
    expect(outputs.ApiUrl).toBeDefined();
  });

  it("answers on its *.cloudfront.net name only, with CloudFront's default certificate (CFR4 acknowledged), and writes no DNS record", () => {
    expect(CONTEXT.domainName).toBeNull();
    expect(config().Aliases).toBeUndefined();
    expect(config().ViewerCertificate).toBeUndefined();
    expect(ofType('AWS::Route53::RecordSet')).toEqual([]);
    expect(acknowledged(built.stack.site.distribution)).toContain('AwsSolutions-CFR4');
  });
});

/** The finding ids acknowledged on a construct itself. */
const acknowledged = (construct: { node: { metadata: { type: string; data: unknown }[] } }) =>
  construct.node.metadata
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((entry) => Object.keys(entry.data as Record<string, string>).map((id) => id.replace(/^annotation::/i, '')));

describe('with a domain of its own (domainName, certificateArn, hostedZoneId) and public reads on, deployed with an account and region', () => {
  const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab';
  const NAMES = ['community.example.com', 'www.community.example.com'];
  let domain: BuiltApp;
  let domainResources: Record<string, Json>;
  let domainOutputs: Record<string, Json>;
  let environment: string;

  beforeAll(() => {
    // As the CLI sets them from the credentials: the stack is then in eu-west-1, the certificate in us-east-1.
    vi.stubEnv('CDK_DEFAULT_ACCOUNT', '123456789012');
    vi.stubEnv('CDK_DEFAULT_REGION', 'eu-west-1');
    try {
      const context = {
        ...CONTEXT,
        'aws:cdk:bundling-stacks': [],
        domainName: NAMES.join(','),
        certificateArn: CERTIFICATE,
        hostedZoneId: 'Z0123456789ABCDEFGHIJ',
        publicReads: 'true',
      };
      domain = buildApp({ outdir: join(outdir, 'domain'), context }, { siteAssets });
      // cdk-nag runs here too: the synth fails on any finding not fixed or acknowledged.
      const artifact = domain.app.synth().getStackArtifact(domain.stack.artifactId);
      environment = artifact.environment.name;
      const template = artifact.template as { Resources: Record<string, Json>; Outputs: Record<string, Json> };
      domainResources = template.Resources;
      domainOutputs = template.Outputs;
    } finally {
      vi.unstubAllEnvs();
    }
  }, 120_000);

  const distributionConfig = () =>
    Object.values(domainResources).find((resource) => resource.Type === 'AWS::CloudFront::Distribution')!.Properties.DistributionConfig;
  const distributionId = () => domain.stack.resolve((domain.stack.site.distribution.node.defaultChild as CfnElement).logicalId) as string;

  it('answers on the domain names with the certificate, TLS 1.2 at least (TLSv1.2_2021), over SNI', () => {
    expect(environment).toBe('aws://123456789012/eu-west-1');
    expect(distributionConfig().Aliases).toEqual(NAMES);
    expect(distributionConfig().ViewerCertificate).toEqual({
      AcmCertificateArn: CERTIFICATE,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
  });

  it('writes an A and an AAAA alias record to the distribution for each name in the hosted zone', () => {
    const records = Object.values(domainResources).filter((resource) => resource.Type === 'AWS::Route53::RecordSet');
    expect(records.map((record) => `${record.Properties.Type} ${record.Properties.Name}`).sort()).toEqual(
      NAMES.flatMap((name) => [`A ${name}.`, `AAAA ${name}.`]).sort(),
    );
    for (const record of records) {
      expect(record.Properties.HostedZoneId).toBe('Z0123456789ABCDEFGHIJ');
      expect(record.Properties.AliasTarget.DNSName).toEqual({ 'Fn::GetAtt': [distributionId(), 'DomainName'] });
    }
  });

  it('gives the feed and the outputs the first name: SITE_URL of every API function, SiteUrl; the distribution name besides', () => {
    const api = Object.values(domainResources).filter(
      (resource) => resource.Type === 'AWS::Lambda::Function' && resource.Properties.Environment?.Variables?.CORS_ALLOWED_ORIGINS !== undefined,
    );
    expect(api.length).toBeGreaterThan(30);
    for (const fn of api) expect(fn.Properties.Environment.Variables[SITE_URL_VARIABLE]).toBe(`https://${NAMES[0]}`);
    expect(domainOutputs.SiteUrl!.Value).toBe(`https://${NAMES[0]}`);
    expect(domainOutputs.DistributionDomainName!.Value).toEqual({ 'Fn::GetAtt': [distributionId(), 'DomainName'] });
  });

  it('lets the site be indexed: the security headers alone, on the pages and on every file of the build', () => {
    const { DefaultCacheBehavior, CacheBehaviors } = distributionConfig();
    const files = (CacheBehaviors as Json[]).filter((behavior) => behavior.PathPattern !== API_PATH_PATTERN);
    expect(files.length).toBeGreaterThan(1);
    for (const behavior of [DefaultCacheBehavior, ...files]) {
      expect(headersSent(domainResources, behavior), behavior.PathPattern).toEqual(SITE_SECURITY_HEADERS);
    }
  });

  it('passes cdk-nag without the default certificate acknowledgment (CFR4 is met), the other three kept', () => {
    expect(new AwsSolutionsChecks(domain.app).validateScope(domain.app).violations).toEqual([]);
    expect(acknowledged(domain.stack.site.distribution).sort()).toEqual(['AwsSolutions-CFR1', 'AwsSolutions-CFR2', 'AwsSolutions-CFR3']);
  });
});

describe(`the distribution domain (viewer request of the pages, ${DISTRIBUTION_DOMAIN_HEADER})`, () => {
  const pages = () => runFunction(viewerRequestFunction(config().DefaultCacheBehavior));

  it("sets the header to the distribution's domain from CloudFront's context, leaving the rest of the request as it was", () => {
    const request = viewerRequest('/posts/x', { host: 'community.example.com', 'accept-encoding': 'br' });
    const result = pages()(request);
    expect(result.headers[DISTRIBUTION_DOMAIN_HEADER]).toEqual({ value: DISTRIBUTION_DOMAIN });
    expect(result.uri).toBe('/posts/x');
    expect(result.headers.host).toEqual({ value: 'community.example.com' });
    expect(result.headers['accept-encoding']).toEqual({ value: 'br' });
    expect(viewerRequestFunction(config().DefaultCacheBehavior).Properties.FunctionCode).toBe(distributionDomainCode());
  });

  it('overwrites a value the viewer sent under that name, and never takes Host or X-Forwarded-Host', () => {
    const result = pages()(viewerRequest('/', { host: 'evil.example', [DISTRIBUTION_DOMAIN_HEADER]: 'evil.example', 'x-forwarded-host': 'evil.example' }));
    expect(result.headers[DISTRIBUTION_DOMAIN_HEADER]).toEqual({ value: DISTRIBUTION_DOMAIN });
  });
});

describe('the viewer host (viewer request of /api/*)', () => {
  const viewerHost = () => runFunction(viewerRequestFunction(apiBehavior()));

  it(`passes the viewer's Host on as ${VIEWER_HOST_HEADER}`, () => {
    const result = viewerHost()(viewerRequest(`${API_PREFIX}/posts`, { host: 'd111111abcdef8.cloudfront.net', authorization: 'Token abc' }));
    expect(result.headers[VIEWER_HOST_HEADER]).toEqual({ value: 'd111111abcdef8.cloudfront.net' });
    expect(result.headers.authorization).toEqual({ value: 'Token abc' });
    expect(result.uri).toBe(`${API_PREFIX}/posts`);
  });

  it('overwrites a value the client sent under that name, and never takes X-Forwarded-Host', () => {
    const result = viewerHost()(
      viewerRequest(`${API_PREFIX}/posts`, { host: 'site.example', [VIEWER_HOST_HEADER]: 'evil.example', 'x-forwarded-host': 'evil.example' }),
    );
    expect(result.headers[VIEWER_HOST_HEADER]).toEqual({ value: 'site.example' });
    const hostless = viewerHost()(viewerRequest(`${API_PREFIX}/posts`, { [VIEWER_HOST_HEADER]: 'evil.example' }));
    expect(hostless.headers[VIEWER_HOST_HEADER]).toBeUndefined();
  });
});

describe("the feed's site (SITE_URL)", () => {
  it('is the distribution for every API function when no siteUrl is set; the stream consumer answers no one, the page function reads the header', () => {
    for (const [handler, fn] of built.stack.functions) {
      const variables = resources[logicalId(fn.function.node.defaultChild)]!.Properties.Environment.Variables as Json;
      // The page function learns the distribution's address from DISTRIBUTION_DOMAIN_HEADER (no cycle).
      if (handler === TABLE_STREAM_CONSUMER.handler || handler === PAGE_HANDLER) expect(variables[SITE_URL_VARIABLE], handler).toBeUndefined();
      else expect(variables[SITE_URL_VARIABLE], handler).toEqual(outputs.SiteUrl!.Value);
    }
  });

  it('makes no dependency cycle: the distribution needs the API, not its functions', () => {
    const references = (value: unknown, found = new Set<string>()): Set<string> => {
      if (Array.isArray(value)) value.forEach((item) => references(item, found));
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value as Json)) {
          if (key === 'Ref' && typeof inner === 'string' && inner in resources) found.add(inner);
          else if (key === 'Fn::GetAtt' && Array.isArray(inner) && inner[0] in resources) found.add(inner[0] as string);
          else references(inner, found);
        }
      }
      return found;
    };
    const edges = new Map(
      Object.entries(resources).map(([id, resource]) => [id, new Set([...references(resource.Properties), ...[resource.DependsOn ?? []].flat()])]),
    );
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (id: string, path: string[]): void => {
      if (state.get(id) === 'done') return;
      expect(state.get(id), `cycle: ${[...path, id].join(' -> ')}`).not.toBe('visiting');
      state.set(id, 'visiting');
      for (const next of edges.get(id) ?? []) visit(next, [...path, id]);
      state.set(id, 'done');
    };
    for (const id of edges.keys()) visit(id, []);
    const distribution = logicalId(built.stack.site.distribution.node.defaultChild);
    expect(edges.get(distribution)).toContain(logicalId(built.stack.api.node.defaultChild));
  });
});

describe('checks', () => {
  it('passes cdk-nag AwsSolutions with every finding fixed or acknowledged', () => {
    const report = new AwsSolutionsChecks(built.app).validateScope(built.app);
    expect(report.violations).toEqual([]);
  });

  it('adds no function the local stack would run: CDK adds two deploy-time ones, no API Gateway route reaches them', () => {
    const deployTime = ofType('AWS::Lambda::Function').filter(([id]) => isDeployTimeFunction(id));
    expect(deployTime).toHaveLength(2);
    const integrations = JSON.stringify(ofType('AWS::ApiGatewayV2::Integration'));
    for (const [id] of deployTime) expect(integrations).not.toContain(id);
  });

  it(`stops the synth with the command to run when the server build is missing (${BUILD_COMMAND})`, () => {
    const site = mkdtempSync(join(tmpdir(), 'community-posts-site-only-'));
    try {
      writeFileSync(join(site, 'index.html'), '<!doctype html>');
      expect(serverBuildBeside(site)).toBe(`${site}-server`);
      const build = () => {
        const app = new App({ outdir: join(outdir, 'missing-server'), context: { 'aws:cdk:bundling-stacks': [] } });
        return new CommunityPostsStack(app, 'Stack', { settings: DEFAULT_SETTINGS, siteAssets: site });
      };
      expect(build).toThrow(SiteBuildError);
      expect(build).toThrow(/render\.mjs.*npm run build:web/);
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });

  it(`stops the synth with the command to run when the build is missing (${BUILD_COMMAND})`, () => {
    const empty = mkdtempSync(join(tmpdir(), 'community-posts-site-empty-'));
    try {
      const build = () => {
        const app = new App({ outdir: join(outdir, 'missing'), context: { 'aws:cdk:bundling-stacks': [] } });
        return new CommunityPostsStack(app, 'Stack', { settings: DEFAULT_SETTINGS, siteAssets: empty });
      };
      expect(build).toThrow(SiteBuildError);
      expect(build).toThrow(/npm run build:web/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

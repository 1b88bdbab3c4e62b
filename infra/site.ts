import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, type CfnElement } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CachedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  SSLMethod,
  ViewerProtocolPolicy,
  type ErrorResponse,
  type ResponseCustomHeader,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunctionUrl } from 'aws-cdk-lib/aws-lambda';
import { AaaaRecord, ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { SITE_HSTS_SECONDS, siteHeaders } from '#lib/site/headers.ts';
import { DISTRIBUTION_DOMAIN_HEADER } from '#lib/site/origin.ts';
import { VIEWER_HOST_HEADER } from '#lib/http/request.ts';
import { API_PREFIX } from '#lib/routes.ts';
import { PAGE_MAX_TTL_SECONDS, PAGE_QUERY_PARAMETERS } from './pages.ts';
import { buildFilePatterns, distributionDomainCode, HASHED_ASSETS_FOLDER, hasHashedAssets, siteFiles, viewerHostCode } from './site-functions.ts';
import { acknowledgeBucketDeployment, acknowledgeDistribution, acknowledgeSiteBucketLogs } from './nag.ts';

// The site on the stack: its pages from the page function (infra/page-function.ts) through its
// function URL, its build's files in a private bucket, both read by CloudFront through origin
// access control, and the HTTP API behind `/api/*` of the same distribution, so the site calls
// its own origin. What one distribution for a site and an API gets wrong by default, and how this avoids
// each, is in docs/site.md.

/** The site's build, at the repository's root: web/dist. */
export const DEFAULT_SITE_ASSETS = fileURLToPath(new URL('../web/dist', import.meta.url));

/** Cache-Control of the hashed files: their name changes with their content. */
export const HASHED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Cache-Control of every other file of the build (the favicon): always revalidated. */
export const PAGE_CACHE_CONTROL = 'no-cache';

/**
 * The error answers CloudFront can cache (it keeps them 10 s by default, whatever the origin says):
 * each gets a caching TTL of 0 and nothing else, so the API's own error bodies pass unchanged.
 */
export const CACHEABLE_ERROR_CODES = [400, 403, 404, 405, 414, 416, 500, 501, 502, 503, 504] as const;

/** The path pattern of the API's behaviour. */
export const API_PATH_PATTERN = `${API_PREFIX.split('/').slice(0, 2).join('/')}/*`;

/** The request headers the API's answers depend on, besides every query string: its cache key. */
export const API_CACHE_KEY_HEADERS = ['Authorization', 'Origin', VIEWER_HOST_HEADER] as const;

/** The site's own domain (the domainName, certificateArn and hostedZoneId settings). */
export interface SiteDomain {
  /** The distribution's alternate domain names; the first is the site's address. */
  names: string[];
  /** An ACM certificate in us-east-1 that covers every name. */
  certificateArn: string;
  /** A Route 53 hosted zone holding the names: A and AAAA alias records to the distribution go there. */
  hostedZoneId?: string | undefined;
}

/** The distribution's minimum TLS version with a domain of its own (the default certificate has CloudFront's). */
export const MINIMUM_TLS = SecurityPolicyProtocol.TLS_V1_2_2021;

export interface SiteProps {
  api: HttpApi;
  /** The page function's URL (IAM auth): the default behaviour's origin. */
  pages: IFunctionUrl;
  /** Unset: the site lives on the distribution's `*.cloudfront.net` name, with CloudFront's default certificate. */
  domain?: SiteDomain;
  /** The site's build folder (index.html, robots.txt, assets/...). Default: web/dist at the repository's root. */
  assets?: string;
  /** The shared-cache time of anonymous reads (publicCacheSeconds): the API cache policy's max TTL is at least this. */
  publicCacheSeconds: number;
  /** Public reads on: the site may be indexed; off, every answer outside /api/ carries `X-Robots-Tag: noindex`. */
  publicReads: boolean;
}

/**
 * The response headers policy of the site from lib/site/headers.ts: the security headers
 * CloudFront has fields for, and the rest as custom headers (with public reads off, X-Robots-Tag).
 */
export function siteHeadersBehavior(publicReads: boolean): {
  securityHeadersBehavior: ResponseSecurityHeadersBehavior;
  customHeadersBehavior: { customHeaders: ResponseCustomHeader[] };
} {
  const {
    'content-security-policy': csp,
    'strict-transport-security': hsts,
    'x-content-type-options': nosniff,
    'x-frame-options': frame,
    'referrer-policy': referrer,
    ...others
  } = siteHeaders(publicReads);
  if (!csp || !hsts || nosniff !== 'nosniff' || !frame || !referrer) throw new Error('lib/site/headers.ts lacks a security header the policy sends.');
  const referrerPolicy = Object.values(HeadersReferrerPolicy).find((value) => value === referrer);
  const frameOption = Object.values(HeadersFrameOption).find((value) => value === frame.toUpperCase());
  if (!referrerPolicy || !frameOption) throw new Error(`CloudFront has no referrer policy "${referrer}" or frame option "${frame}".`);
  return {
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(SITE_HSTS_SECONDS),
        includeSubdomains: /;\s*includeSubDomains/i.test(hsts),
        preload: /;\s*preload/i.test(hsts),
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption, override: true },
      referrerPolicy: { referrerPolicy, override: true },
    },
    customHeadersBehavior: { customHeaders: Object.entries(others).map(([header, value]) => ({ header, value, override: true })) },
  };
}

export class Site extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<first domain name>`, else `https://<distribution domain>`. */
  readonly url: string;
  /** The A and AAAA alias records of the domain names, with a hosted zone. */
  readonly records: (ARecord | AaaaRecord)[] = [];
  readonly distributionDomain: CloudFrontFunction;
  readonly viewerHost: CloudFrontFunction;
  readonly headersPolicy: ResponseHeadersPolicy;
  readonly apiHeadersPolicy: ResponseHeadersPolicy;
  readonly apiCachePolicy: CachePolicy;
  readonly siteCachePolicy: CachePolicy;
  readonly pageCachePolicy: CachePolicy;
  readonly pageOriginPolicy: OriginRequestPolicy;
  /** The copies of the build into the bucket: what the page function's update waits for. */
  readonly deployments: BucketDeployment[];

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    const folder = props.assets ?? DEFAULT_SITE_ASSETS;
    // Read first: a missing build stops the synth here, with the command that makes it.
    const files = siteFiles(folder);
    const hashed = hasHashedAssets(folder);
    // One behaviour per file to the bucket, beside /api/*.
    const filePatterns = buildFilePatterns(files, hashed, 1);

    // Rebuilt from the sources at every deploy, so nothing in it is worth keeping past the stack.
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    acknowledgeSiteBucketLogs(this.bucket);

    this.distributionDomain = new CloudFrontFunction(this, 'DistributionDomain', {
      comment: `Passes the distribution domain to the pages as ${DISTRIBUTION_DOMAIN_HEADER}, replacing any client value`,
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(distributionDomainCode()),
    });
    this.viewerHost = new CloudFrontFunction(this, 'ViewerHost', {
      comment: `Passes the viewer Host to the API as ${VIEWER_HOST_HEADER}, replacing any client value`,
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(viewerHostCode()),
    });

    const site = siteHeadersBehavior(props.publicReads);
    this.headersPolicy = new ResponseHeadersPolicy(this, 'PageHeaders', {
      comment: 'The site security headers (lib/site/headers.ts)',
      ...site,
    });
    // The API sets its own headers; these two only fill in what it leaves out.
    const { strictTransportSecurity } = site.securityHeadersBehavior;
    this.apiHeadersPolicy = new ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: 'HSTS and nosniff on the API answers that lack them',
      securityHeadersBehavior: {
        strictTransportSecurity: { ...strictTransportSecurity!, override: false },
        contentTypeOptions: { override: false },
      },
    });

    this.siteCachePolicy = new CachePolicy(this, 'FileCache', {
      comment: "The site's files, as their Cache-Control says (min TTL 0 honours no-cache)",
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.days(1),
      maxTtl: Duration.days(365),
      headerBehavior: CacheHeaderBehavior.none(),
      queryStringBehavior: CacheQueryStringBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    // Keyed on the path, the encoding and the lists' parameters alone: every viewer gets the same
    // anonymous page. Default TTL 0: kept only for the s-maxage the function sends.
    this.pageCachePolicy = new CachePolicy(this, 'PageCache', {
      comment: "The site's pages, as the page function's s-maxage says; keyed on path, encoding, page, sort and q",
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(PAGE_MAX_TTL_SECONDS),
      headerBehavior: CacheHeaderBehavior.none(),
      queryStringBehavior: CacheQueryStringBehavior.allowList(...PAGE_QUERY_PARAMETERS),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    // Never the viewer's Host (the function URL answers on its own host only), no cookie: only
    // what the cache key holds, and the distribution's domain that the viewer-request function set.
    this.pageOriginPolicy = new OriginRequestPolicy(this, 'PageOrigin', {
      comment: `The pages' cache key and ${DISTRIBUTION_DOMAIN_HEADER}; not Host`,
      headerBehavior: OriginRequestHeaderBehavior.allowList(DISTRIBUTION_DOMAIN_HEADER),
      queryStringBehavior: OriginRequestQueryStringBehavior.none(),
      cookieBehavior: OriginRequestCookieBehavior.none(),
    });
    // Nothing is kept that the API does not ask to be kept (default TTL 0): anonymous reads for
    // their s-maxage, token answers (`private`) and errors (`no-store`) never. A token is part of
    // the key, so one caller's entry can never answer another.
    this.apiCachePolicy = new CachePolicy(this, 'ApiCache', {
      comment: "The API's answers, as their Cache-Control says; keyed on the token, Origin, host and query",
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(Math.max(props.publicCacheSeconds, Duration.days(1).toSeconds())),
      headerBehavior: CacheHeaderBehavior.allowList(...API_CACHE_KEY_HEADERS),
      queryStringBehavior: CacheQueryStringBehavior.all(),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const stack = Stack.of(this);
    const apiDomain = `${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    const errorResponses: ErrorResponse[] = CACHEABLE_ERROR_CODES.map((httpStatus) => ({ httpStatus, ttl: Duration.seconds(0) }));
    const { domain } = props;

    const bucketOrigin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    const fileBehavior = {
      origin: bucketOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachedMethods: CachedMethods.CACHE_GET_HEAD,
      compress: true,
      cachePolicy: this.siteCachePolicy,
      responseHeadersPolicy: this.headersPolicy,
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `${stack.stackName}: the site and its API`,
      // No root object: `/` is a page, the function's.
      httpVersion: HttpVersion.HTTP2_AND_3,
      errorResponses,
      // SNI: a dedicated IP per edge location costs $600 a month, and every browser sends SNI.
      ...(domain
        ? {
            domainNames: domain.names,
            certificate: Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: MINIMUM_TLS,
            sslSupportMethod: SSLMethod.SNI,
          }
        : {}),
      // Every path that is neither a file of the build nor the API's: a page.
      defaultBehavior: {
        origin: FunctionUrlOrigin.withOriginAccessControl(props.pages),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachedMethods: CachedMethods.CACHE_GET_HEAD,
        compress: true,
        cachePolicy: this.pageCachePolicy,
        originRequestPolicy: this.pageOriginPolicy,
        responseHeadersPolicy: this.headersPolicy,
        functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: this.distributionDomain }],
      },
      additionalBehaviors: {
        ...Object.fromEntries(filePatterns.map((pattern) => [pattern, fileBehavior])),
        [API_PATH_PATTERN]: {
          origin: new HttpOrigin(apiDomain, {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [OriginSslPolicy.TLS_V1_2],
          }),
          // Not a redirect: a client that sent a token or a body over http has sent it already,
          // and a redirected POST may come back as a GET.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachedMethods: CachedMethods.CACHE_GET_HEAD,
          compress: true,
          cachePolicy: this.apiCachePolicy,
          // Host stays API Gateway's own: with the viewer's, API Gateway would not find the API.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.apiHeadersPolicy,
          functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: this.viewerHost }],
        },
      },
    });
    acknowledgeDistribution(this.distribution, { defaultCertificate: !domain });
    this.url = `https://${domain ? domain.names[0] : this.distribution.distributionDomainName}`;
    if (domain?.hostedZoneId) {
      // The zone's name is not needed: each record is named by its full name (the final dot).
      const zone = HostedZone.fromHostedZoneId(this, 'Zone', domain.hostedZoneId);
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      for (const name of domain.names) {
        this.records.push(
          new ARecord(this, `${name} A`, { zone, recordName: `${name}.`, target }),
          new AaaaRecord(this, `${name} AAAA`, { zone, recordName: `${name}.`, target }),
        );
      }
    }

    // The hashed files first, and never pruned: a page loaded before a deploy still finds the
    // chunks it asks for afterwards. Then the other files of the build; index.html is the page
    // function's template (in its bundle), robots.txt its answer: neither is uploaded.
    const source = Source.asset(folder);
    const hashedFiles = new BucketDeployment(this, 'HashedFiles', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: [`${HASHED_ASSETS_FOLDER}/*`],
      cacheControl: [CacheControl.fromString(HASHED_CACHE_CONTROL)],
      prune: false,
    });
    const pages = new BucketDeployment(this, 'Pages', {
      sources: [source],
      destinationBucket: this.bucket,
      // Excluded files are also left alone by the prune: the hashed files stay.
      exclude: [`${HASHED_ASSETS_FOLDER}/*`, 'index.html', 'robots.txt'],
      cacheControl: [CacheControl.fromString(PAGE_CACHE_CONTROL)],
      prune: true,
    });
    pages.node.addDependency(hashedFiles);
    this.deployments = [hashedFiles, pages];
    acknowledgeBucketDeployment(stack, pages.handlerRole, this.bucket.node.defaultChild as CfnElement);
  }
}

import {
  ConditionalCheckFailedException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ResourceNotFoundException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import {
  AuthenticationFailed,
  Conflict,
  InvalidPage,
  MethodNotAllowed,
  NotAuthenticated,
  NotFound,
  ParseError,
  PayloadTooLarge,
  PermissionDenied,
  ServiceError,
  ServiceUnavailable,
  Throttled,
  UnsupportedMediaType,
  ValidationError,
} from '#lib/errors.ts';
import { created, errorResult, noContent, ok, toHttpResponse, type ApiResult } from '#lib/http/respond.ts';
import { RetryableConflict } from '#lib/retry.ts';

// The one mapping from anything thrown to an HTTP answer (lib/http/respond.ts), and the shaping of
// results into Lambda's response: SDK errors are built as the SDK builds them, nothing is sent.

const BUSY = { status: 503, body: { detail: 'The service is busy. Please try again shortly.' }, headers: { 'Retry-After': '1' } };
const SERVER_ERROR = { status: 500, body: { detail: 'A server error occurred.' } };
const $metadata = { httpStatusCode: 400, requestId: 'REQ1' };

const cancelled = (...codes: (string | undefined)[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata,
    CancellationReasons: codes.map((code) => (code === undefined ? {} : { Code: code })),
  });

/** What was written to stdout and stderr (the log) since the test began; nothing reaches the terminal. */
let written: MockInstance[];
const logged = () => written.flatMap((spy) => spy.mock.calls.map(([chunk]) => String(chunk))).join('');

beforeEach(() => {
  written = [process.stdout, process.stderr].map((stream) => vi.spyOn(stream, 'write').mockImplementation(() => true));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('errorResult: API errors', () => {
  it.each<[string, ServiceError, ApiResult]>([
    [
      'ValidationError',
      new ValidationError({ title: ['This field is required.'], tags: ['Too many.', 'Too long.'] }),
      { status: 400, body: { title: ['This field is required.'], tags: ['Too many.', 'Too long.'] }, headers: {} },
    ],
    [
      'ParseError',
      new ParseError('JSON parse error - Expecting value.'),
      { status: 400, body: { detail: 'JSON parse error - Expecting value.' }, headers: {} },
    ],
    [
      'NotAuthenticated',
      new NotAuthenticated(),
      { status: 401, body: { detail: 'Authentication credentials were not provided.' }, headers: { 'WWW-Authenticate': 'Token' } },
    ],
    ['AuthenticationFailed', new AuthenticationFailed(), { status: 401, body: { detail: 'Invalid token.' }, headers: { 'WWW-Authenticate': 'Token' } }],
    [
      'AuthenticationFailed (message)',
      new AuthenticationFailed('User inactive or deleted.'),
      { status: 401, body: { detail: 'User inactive or deleted.' }, headers: { 'WWW-Authenticate': 'Token' } },
    ],
    [
      'PermissionDenied',
      new PermissionDenied('You are not owner of this post!'),
      { status: 403, body: { detail: 'You are not owner of this post!' }, headers: {} },
    ],
    ['NotFound', new NotFound(), { status: 404, body: { detail: 'Not found.' }, headers: {} }],
    ['InvalidPage', new InvalidPage(), { status: 404, body: { detail: 'Invalid page.' }, headers: {} }],
    [
      'MethodNotAllowed',
      new MethodNotAllowed('PATCH', ['GET', 'HEAD', 'POST']),
      { status: 405, body: { detail: 'Method "PATCH" not allowed.' }, headers: { Allow: 'GET, HEAD, POST' } },
    ],
    [
      'Conflict',
      new Conflict('A tag with this title already exists.'),
      { status: 409, body: { detail: 'A tag with this title already exists.' }, headers: {} },
    ],
    ['PayloadTooLarge', new PayloadTooLarge(1_048_576), { status: 413, body: { detail: 'Request body exceeds the limit of 1048576 bytes.' }, headers: {} }],
    [
      'UnsupportedMediaType',
      new UnsupportedMediaType('text/xml'),
      { status: 415, body: { detail: 'Unsupported media type "text/xml" in request.' }, headers: {} },
    ],
    ['ServiceUnavailable', new ServiceUnavailable(), BUSY],
    ['ServiceUnavailable (5 s)', new ServiceUnavailable(5), { ...BUSY, headers: { 'Retry-After': '5' } }],
    [
      'Throttled',
      new Throttled(1.2),
      { status: 429, body: { detail: 'Request was throttled. Expected available in 2 seconds.' }, headers: { 'Retry-After': '2' } },
    ],
  ])('%s: its status, body and headers', (_, error, expected) => {
    expect(errorResult(error)).toEqual(expected);
  });
});

describe('errorResult: retryable failures are a 503 with Retry-After', () => {
  it.each<[string, unknown]>([
    ['a lost race (RetryableConflict)', new RetryableConflict('version changed')],
    ['ProvisionedThroughputExceededException', new ProvisionedThroughputExceededException({ message: 'throughput exceeded', $metadata })],
    ['RequestLimitExceeded', new RequestLimitExceeded({ message: 'account limit', $metadata })],
    ['InternalServerError', new InternalServerError({ message: 'internal', $metadata: { httpStatusCode: 500 } })],
    ['TransactionConflictException (a single-item write)', new TransactionConflictException({ message: 'conflict', $metadata })],
    ['an HTTP 429', Object.assign(new Error('too many'), { name: 'SomethingThrottled', $metadata: { httpStatusCode: 429 } })],
    ['an HTTP 503', Object.assign(new Error('unavailable'), { name: 'UnknownError', $metadata: { httpStatusCode: 503 } })],
    ['a timeout', Object.assign(new Error('Connection timed out after 2000 ms'), { name: 'TimeoutError' })],
    ['a reset connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['a transaction cancelled by another transaction', cancelled('None', 'TransactionConflict')],
    ['a transaction cancelled by throttling', cancelled('ThrottlingError', 'None')],
    ['a transaction cancelled by conflicts and throttling', cancelled('TransactionConflict', 'ProvisionedThroughputExceeded', 'ThrottlingError')],
  ])('%s', (_, error) => {
    expect(errorResult(error, { route: 'PUT /api/v1/posts/detail/{slug}' })).toEqual(BUSY);
  });
});

describe('errorResult: anything else is a 500 that shows nothing of the error', () => {
  it.each<[string, unknown]>([
    ['an Error', new Error('Cannot read properties of undefined (reading "PK") at TABLE community-posts-prod')],
    ['a TypeError', new TypeError('x is not a function')],
    ['a failed condition outside a transaction', new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata })],
    ['a missing table', new ResourceNotFoundException({ message: 'Requested resource not found: Table: secret-table not found', $metadata })],
    [
      'an access denial',
      Object.assign(new Error('User: arn:aws:sts::123456789012:assumed-role/x is not authorized'), { name: 'AccessDeniedException', $metadata }),
    ],
    ['a transaction cancelled by a failed condition', cancelled('None', 'ConditionalCheckFailed')],
    ['a transaction cancelled by a conflict and a failed condition', cancelled('TransactionConflict', 'ConditionalCheckFailed')],
    ['a transaction cancelled without a reason', cancelled('None', undefined)],
    ['a string', 'oops: password=hunter2'],
    ['undefined', undefined],
    ['null', null],
    ['an HTTP 400 without a name', { $metadata: { httpStatusCode: 400 } }],
  ])('%s', (_, error) => {
    const result = errorResult(error, { route: 'GET /api/v1/posts', requestId: 'r-1' });
    expect(result).toEqual(SERVER_ERROR);
    expect(JSON.stringify(toHttpResponse(result, undefined))).not.toMatch(/PK|community-posts-prod|secret-table|hunter2|arn:aws|conditional|function/);
    // Logged for the operator (LOG_LEVEL=error), with the request's context.
    expect(logged()).toContain('r-1');
    if (error instanceof Error) expect(logged()).toContain(JSON.stringify(error.message).slice(1, -1));
  });
});

describe('toHttpResponse', () => {
  it('sends a body as JSON with its content type, its status and the CORS headers of any origin by default', () => {
    expect(toHttpResponse(ok({ b: 1, a: [null, 'é'] }), 'https://a.example')).toEqual({
      statusCode: 200,
      headers: {
        'Content-Type': 'application/json',
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Expose-Headers': 'Link, ETag, X-Total-Count, WWW-Authenticate, Retry-After',
      },
      body: '{"b":1,"a":[null,"é"]}',
    });
    expect(toHttpResponse(created({ slug: 'x' }), undefined)).toMatchObject({ statusCode: 201, body: '{"slug":"x"}' });
  });

  it("keeps the result's own headers", () => {
    const response = toHttpResponse(ok([], { Link: '<https://x.example/api/v1/posts?page=2>; rel="next"' }), undefined);
    expect(response.headers).toMatchObject({ Link: '<https://x.example/api/v1/posts?page=2>; rel="next"', 'Content-Type': 'application/json' });
    expect(toHttpResponse(errorResult(new NotAuthenticated()), undefined)).toEqual({
      statusCode: 401,
      headers: {
        'Content-Type': 'application/json',
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Expose-Headers': 'Link, ETag, X-Total-Count, WWW-Authenticate, Retry-After',
        'WWW-Authenticate': 'Token',
      },
      body: '{"detail":"Authentication credentials were not provided."}',
    });
    expect(toHttpResponse(errorResult(new ServiceUnavailable()), undefined).headers).toMatchObject({ 'Retry-After': '1' });
  });

  it('sends no body and no content type for a result without one', () => {
    expect(toHttpResponse(noContent(), undefined)).toEqual({
      statusCode: 204,
      headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Link, ETag, X-Total-Count, WWW-Authenticate, Retry-After' },
    });
  });

  it('sends a raw body as it is, with the content type the handler gave and its base64 flag', () => {
    const page = toHttpResponse(
      { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' }, raw: { data: '<!doctype html><p>{"not": "json"}</p>' } },
      undefined,
    );
    expect(page).toEqual({
      statusCode: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Expose-Headers': 'Link, ETag, X-Total-Count, WWW-Authenticate, Retry-After',
      },
      body: '<!doctype html><p>{"not": "json"}</p>',
      isBase64Encoded: false,
    });
    const png = toHttpResponse({ status: 200, headers: { 'Content-Type': 'image/png' }, raw: { data: 'iVBORw0KGgo=', isBase64Encoded: true } }, undefined);
    expect(png).toMatchObject({ body: 'iVBORw0KGgo=', isBase64Encoded: true, headers: { 'Content-Type': 'image/png' } });
  });

  it('with CORS_ALLOWED_ORIGINS, allows only those origins, and says the answer varies with Origin', () => {
    vi.stubEnv('CORS_ALLOWED_ORIGINS', 'https://a.example, https://b.example');
    expect(toHttpResponse(ok({}), 'https://b.example').headers).toEqual({
      'Content-Type': 'application/json',
      'Access-Control-Allow-Origin': 'https://b.example',
      'Access-Control-Expose-Headers': 'Link, ETag, X-Total-Count, WWW-Authenticate, Retry-After',
      Vary: 'Origin',
    });
    for (const origin of ['https://c.example', 'https://a.example.evil', undefined]) {
      const headers = toHttpResponse(ok({}), origin).headers!;
      expect(headers, origin).not.toHaveProperty('Access-Control-Allow-Origin');
      expect(headers, origin).not.toHaveProperty('Access-Control-Expose-Headers');
    }
  });
});

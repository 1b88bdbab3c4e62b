// How big a response may get: AWS Lambda refuses a function result over 6 MB, and API Gateway then
// answers an error instead of the response.

/**
 * Lambda's cap on a synchronous function's response: the whole serialized result object
 * (`{"statusCode":...,"headers":{...},"body":"..."}`), 6,291,456 bytes.
 */
export const LAMBDA_RESPONSE_LIMIT_BYTES = 6 * 1024 * 1024;

/**
 * The most a list page's body may take inside that result object: 5 MiB, counted as the body's
 * UTF-8 bytes once escaped as the result's `body` string (see `escapedSize` in lib/http/paging.ts),
 * so a body full of `"` or `\` (which double when escaped) is counted at its real size. The other
 * 1 MiB is headroom for the rest of the result: status, headers (CORS, Content-Type, a `Link` that
 * repeats the request's query string, bounded by API Gateway's URL limit of about 10 KB) and the
 * envelope's own punctuation: a few hundred bytes in practice, never near 1 MiB.
 */
export const PAGE_BODY_BUDGET_BYTES = 5 * 1024 * 1024;

import { EXCERPT_LENGTH } from '#lib/posts/limits.ts';
import { DOCS_ASSETS } from '#lib/docs/swagger-ui.ts';
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS } from '#lib/http/cors.ts';
import { PAGE_SIZES } from '#lib/pager.ts';
import { requestBase } from '#lib/http/request.ts';
import { POST_SORTS, RELATED } from '#lib/lists/post-lists.ts';
import { API_PREFIX, ROUTES, routeMethods, type Route } from '#lib/routes.ts';
import { MAX_SUFFIXED_SLUG_LENGTH } from '#lib/slugs/rules.ts';
import { PROFILE_FIELDS, USERNAME_MAX_LENGTH } from '#lib/profiles/profile.ts';
import { BODY_LIMIT_BYTES, BOOLEAN_TEXT_PATTERN, SCHEMAS, detail, fieldErrors, ref, type Schema } from './schemas.ts';
import { MODERATORS_ONLY } from '#lib/auth/moderators.ts';
import { PREVIEW_REPLIES } from '#lib/comments/comment.ts';
import { NOT_OWNER as NOT_COMMENT_OWNER } from '#lib/comments/delete.ts';
import { COMMENT_PAGE_SIZES } from '#lib/comments/pages.ts';
import { CANNOT_HIDE, ONLY_MODERATOR_UNHIDES } from '#lib/comments/update.ts';
import { DRAFT_COMMENTS, LOCKED_COMMENTS } from '#lib/posts/comment-target.ts';
import { NOT_REPORTABLE, OWN_COMMENT, OWN_POST } from '#lib/reports/file.ts';
import { REPORTS_PAGE_SIZE } from '#lib/reports/list.ts';
import { ALREADY_RESOLVED } from '#lib/reports/resolve.ts';
import { MODERATOR_NOT_SUSPENDABLE } from '#lib/users/suspension.ts';

// The OpenAPI 3.1 document of the whole API, built from the route table and the modules that
// enforce the limits, so that it cannot name a route the code lacks or miss one it has. Served at
// GET /api/v1/openapi.json; the integration tests validate every response they get against it.

type JsonObject = Record<string, unknown>;

export const OPENAPI_VERSION = '3.1.0';

/** Request bodies are accepted in both encodings on every operation that takes one. */
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** `1 MiB (1,048,576 bytes)` */
// Thousands separators by hand: toLocaleString at module scope would load ICU data on every cold start.
const BODY_LIMIT = `${BODY_LIMIT_BYTES / 1024 / 1024} MiB (${String(BODY_LIMIT_BYTES).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} bytes)`;

const AUTH_TEXTS = ['Authentication credentials were not provided.', 'Invalid token.'] as const;

const json = (schema: Schema, example?: unknown): JsonObject => ({ [JSON_TYPE]: { schema, ...(example !== undefined ? { example } : {}) } });

const responseRef = (name: string): JsonObject => ({ $ref: `#/components/responses/${name}` });

/** A JSON request body in both encodings. */
function body(description: string, jsonSchema: string, formSchema: string, required: boolean, example?: JsonObject): JsonObject {
  return {
    description,
    required,
    content: {
      [JSON_TYPE]: { schema: ref(jsonSchema), ...(example ? { example } : {}) },
      // A form's fields are text: `publish=true`.
      [FORM_TYPE]: {
        schema: ref(formSchema),
        ...(example ? { example: Object.fromEntries(Object.entries(example).map(([name, value]) => [name, String(value)])) } : {}),
      },
    },
  };
}

const HEADERS = {
  Link: {
    description: 'Present when another page follows: its URL (same parameters, the next `page` and a `cursor`).',
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
  'WWW-Authenticate': { description: 'Always `Token`.', required: true, schema: { type: 'string', const: 'Token' } },
  Allow: { description: 'The methods of the path, e.g. `GET, POST`.', required: true, schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  ETag: {
    description:
      'Always sent: a strong validator of the body as sent (as of a GET, also on HEAD); send it back in `If-None-Match` to get 304 while the body is the same.',
    schema: { type: 'string', pattern: '^"[^"]*"$' },
  },
  'Cache-Control': {
    description:
      'Always sent. Anonymous reads (public reads on): `public, max-age=0, s-maxage=<S>`, S the deploy setting `publicCacheSeconds` (default 10; 0: `public, no-cache`). ' +
      'Requests with a token: `private, no-cache`.',
    schema: { type: 'string', pattern: '^(public, max-age=0, s-maxage=[0-9]+|public, no-cache|private, no-cache)$' },
  },
  Vary: {
    description: 'Always sent: the answer depends on the `Authorization` and `Origin` of the request.',
    schema: { type: 'string', const: 'Authorization, Origin' },
  },
  'X-Total-Count': {
    description:
      'How many items the whole list holds (all its pages), as committed: sent unless the request searches (a `q` that holds a word; ' +
      'on `/tags` any non-empty `q`). With `sort=featured`, the featured ones.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
} as const;

/** The headers of a validated 200 (a GET of content) and of its 304. */
const VALIDATED_HEADERS = { ETag: HEADERS.ETag, 'Cache-Control': HEADERS['Cache-Control'], Vary: HEADERS.Vary };

/** Shared responses, referenced by the operations. */
const RESPONSES: Record<string, JsonObject> = {
  Unauthorized: {
    description:
      'No valid token: no `Authorization` header, one not of the form `Token <value>` (credentials not provided), or an unknown, revoked or expired token.',
    headers: { 'WWW-Authenticate': HEADERS['WWW-Authenticate'] },
    content: json(detail(AUTH_TEXTS), { detail: 'Invalid token.' }),
  },
  NotFound: { description: 'Not found.', content: json(detail(['Not found.']), { detail: 'Not found.' }) },
  InvalidPage: {
    description: '`page` is not a positive integer or lies past the end, or `cursor` is malformed or belongs to another list.',
    content: json(detail(['Invalid page.']), { detail: 'Invalid page.' }),
  },
  NotFoundOrInvalidPage: {
    description:
      "`Not found.`: the list's owner (the tag or user of the path) does not exist. `Invalid page.`: `page` is not a positive integer or " +
      'lies past the end, or `cursor` is malformed or belongs to another list.',
    content: json(detail(['Not found.', 'Invalid page.']), { detail: 'Not found.' }),
  },
  MethodNotAllowed: {
    description: 'A known path with a method it does not have.',
    headers: { Allow: HEADERS.Allow },
    content: json(detail(), { detail: 'Method "PATCH" not allowed.' }),
  },
  PayloadTooLarge: {
    description: `A body over ${BODY_LIMIT} (the functions' \`detail\`); or, with API Gateway's \`message\` before any function runs, a request over 10 MiB or one whose event would exceed Lambda's 6 MiB invocation limit (a non-JSON body arrives base64-encoded, a third larger).`,
    content: json({ anyOf: [ref('Detail'), ref('GatewayMessage')] }, { detail: `Request body exceeds the limit of ${BODY_LIMIT_BYTES} bytes.` }),
  },
  UnsupportedMediaType: {
    description: 'A non-empty body that is neither JSON nor `application/x-www-form-urlencoded`.',
    content: json(detail(), { detail: 'Unsupported media type "text/plain" in request.' }),
  },
  TooManyRequests: {
    description: "Deployed only: the API's rate limit is exceeded (API Gateway's body).",
    content: json(ref('GatewayMessage'), { message: 'Too Many Requests' }),
  },
  Throttled: {
    description:
      "Too many attempts from this source address or for this username (`detail`, with `Retry-After`: seconds until the window ends); or, deployed, the API's own rate limit (API Gateway's `message`).",
    headers: { 'Retry-After': { ...HEADERS['Retry-After'], required: false } },
    content: json({ anyOf: [ref('Detail'), ref('GatewayMessage')] }, { detail: 'Request was throttled. Expected available in 60 seconds.' }),
  },
  ServerError: {
    description:
      "An unexpected failure; the details go to the log only. API Gateway's `message` when the function itself failed (crashed, or its answer exceeded Lambda's 6 MB).",
    content: json({ anyOf: [detail(['A server error occurred.']), ref('GatewayMessage')] }, { detail: 'A server error occurred.' }),
  },
  ServiceUnavailable: {
    description:
      'DynamoDB is throttling, or a write kept losing races with concurrent writes; try again (API Gateway sends `message` when Lambda itself is throttled or the function did not answer in time).',
    headers: { 'Retry-After': { ...HEADERS['Retry-After'], required: false } },
    content: json(
      { anyOf: [detail(['The service is busy. Please try again shortly.']), ref('GatewayMessage')] },
      { detail: 'The service is busy. Please try again shortly.' },
    ),
  },
  Preflight: {
    description:
      "CORS preflight (an `OPTIONS` request with `Origin` and `Access-Control-Request-Method`), answered for every path by API Gateway from the API's CORS settings, without a function. The CORS headers are present when the `Origin` is allowed.",
    headers: {
      'Access-Control-Allow-Origin': { schema: { type: 'string' } },
      'Access-Control-Allow-Methods': { schema: { type: 'string', examples: [CORS_ALLOWED_METHODS.join(', ')] } },
      'Access-Control-Allow-Headers': { schema: { type: 'string', examples: [CORS_ALLOWED_HEADERS.join(', ')] } },
      'Access-Control-Max-Age': { schema: { type: 'string', examples: [String(CORS_MAX_AGE_SECONDS)] } },
    },
  },
};

/** Statuses any request can get from the platform, whatever the operation. */
const PLATFORM_RESPONSES: JsonObject = {
  '429': responseRef('TooManyRequests'),
  '500': responseRef('ServerError'),
};

const PAGE_PARAMETERS = (list: keyof typeof PAGE_SIZES): JsonObject[] => pageParameters(PAGE_SIZES[list]);

/** `page`, `page_size` (at most `max`) and `cursor`. */
const pageParameters = (max: number): JsonObject[] => [
  {
    name: 'page',
    in: 'query',
    description: '1-based page number.',
    schema: { type: 'integer', minimum: 1, maximum: 999_999_999, default: 1 },
  },
  {
    name: 'page_size',
    in: 'query',
    description:
      `Items per page, at most ${max} (also the default): a larger number counts as ${max}, and a value that is not ` +
      'a positive integer of at most 9 digits is ignored (as DRF ignores it), so any value is accepted.',
    schema: {
      anyOf: [
        { type: 'integer', minimum: 1, maximum: max, description: 'The items of a page.' },
        { type: 'string', description: `Anything else: a larger number counts as ${max}, any other value is ignored.` },
      ],
      default: max,
      examples: [Math.min(20, max)],
    },
  },
  {
    name: 'cursor',
    in: 'query',
    description: 'Opaque position, taken from the `Link` header of the previous page; following it costs the same on every page.',
    schema: { type: 'string' },
  },
];

const PATH_PARAMETERS: Record<string, JsonObject> = {
  username: {
    name: 'username',
    in: 'path',
    required: true,
    description: 'Matched exactly (case-sensitive).',
    schema: { type: 'string', minLength: 1, maxLength: USERNAME_MAX_LENGTH },
    example: 'alice',
  },
  slug: {
    name: 'slug',
    in: 'path',
    required: true,
    description: `The post's slug. A value that cannot be a slug (longer than ${MAX_SUFFIXED_SLUG_LENGTH} characters, or not of lowercase letters, digits and single hyphens) is answered 404.`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_SUFFIXED_SLUG_LENGTH },
    example: 'hello-world',
  },
  asset: { name: 'asset', in: 'path', required: true, schema: { type: 'string', enum: Object.keys(DOCS_ASSETS) }, example: 'swagger-ui.css' },
  id: {
    name: 'id',
    in: 'path',
    required: true,
    description: "A comment's id. Any value that is not 22 characters of `A–Z a–z 0–9 - _` is answered 404 without a read.",
    schema: { type: 'string', minLength: 1 },
    example: '3Jx9QmR2tK7vW1yZ4aB6cQ',
  },
};

/** `{id}` of the report paths: a report's id. */
const REPORT_ID_PARAMETER: JsonObject = {
  ...PATH_PARAMETERS.id,
  description:
    "A report's id. Any value that is not 22 characters of `A–Z a–z 0–9 - _` is answered 404 without a read (403 first to a caller who does not moderate).",
  example: 'Rp4kZ0vQ9sLm2xT7wN1bYg',
};

/** `{slug}` of the tag paths: a tag's slug; the example is the tag `POST /tags` creates in its example. */
const TAG_SLUG_PARAMETER: JsonObject = {
  ...PATH_PARAMETERS.slug,
  description: `The tag's slug. A value that cannot be a slug (longer than ${MAX_SUFFIXED_SLUG_LENGTH} characters, or not of lowercase letters, digits and single hyphens) is answered 404.`,
  example: 'lambda',
};

const EXAMPLE_PROFILE = {
  user: 'alice',
  last_login: '2026-01-05 14:12:15.258987+00:00',
  date_joined: '2026-01-02 09:30:00.000001+00:00',
  total_posts: 3,
  total_favorites: 0,
  total_featured_posts: 1,
  display_name: 'Alice A.',
  location: null,
  about_me: null,
  website: 'https://alice.example.com',
  twitter: '',
  linkedin: null,
  github: null,
  birth_date: '1990-04-01',
  is_moderator: false,
};
const EXAMPLE_TAG = { title: 'AWS Lambda', slug: 'lambda', total_posts: 0 };
const EXAMPLE_POST = {
  author: 'alice',
  title: 'Hello World',
  slug: 'hello-world',
  description: 'First *post*',
  created: '2026-01-05T14:12:15.258987+00:00',
  modified: '2026-01-05T14:12:15.258987+00:00',
  publish: true,
  is_featured: false,
  tags: ['AWS Lambda', 'serverless'],
  keywords: null,
  meta_description: null,
  rating_likes: 0,
  rating_dislikes: 0,
  total_visitors: 0,
  total_favorites: 0,
  total_comments: 0,
  comments_locked: false,
};

/** Where the post lists read their parameters. */
const EXAMPLE_COMMENT = {
  id: '3Jx9QmR2tK7vW1yZ4aB6cQ',
  post: 'hello-world',
  author: 'alice',
  body: 'Thanks, this helped!',
  created: '2026-01-05T14:20:00.000001+00:00',
  modified: '2026-01-05T14:20:00.000001+00:00',
  edited: false,
  status: 'published',
  hidden_by: null,
  parent: null,
  in_reply_to: null,
  total_replies: 0,
};
const EXAMPLE_THREAD = { ...EXAMPLE_COMMENT, replies: [] };
const EXAMPLE_POST_REPORT = {
  id: 'Rp4kZ0vQ9sLm2xT7wN1bYg',
  reason: 'spam',
  note: 'Links to a shop.',
  reporter: 'bob',
  created: '2026-01-05T15:00:00.000001+00:00',
  status: 'open',
  resolved: null,
  resolved_by: null,
  target: { type: 'post', slug: 'hello-world', title: 'Hello World', author: 'alice', publish: true },
  open_reports: 1,
};
const EXAMPLE_COMMENT_REPORT = {
  ...EXAMPLE_POST_REPORT,
  reason: 'abuse',
  note: null,
  target: { type: 'comment', id: '3Jx9QmR2tK7vW1yZ4aB6cQ', post: 'hello-world', author: 'alice', body: 'Thanks, this helped!', status: 'published' },
};
const COMMENT_LIMITS = 'more than `COMMENTS_PER_MINUTE` comments (default 10) in this UTC minute or `COMMENTS_PER_DAY` (100) today';
const EXAMPLE_VOTE = { vote: 'up', rating_likes: 3, rating_dislikes: 1 };
const EXAMPLE_FAVORITE = { favorited: true, total_favorites: 2 };
const LIST_PARAMETER_SOURCES =
  'Each parameter is read from the query string; when the query string lacks it, from a form or JSON body of the GET request ' +
  '(as clients of the reference service send them).';

/** The parameters of `GET /posts`, which the other post lists take as well. */
/** `view` of every list of posts (lib/posts/summary.ts). */
const VIEW_PARAMETER: JsonObject = {
  name: 'view',
  in: 'query',
  description:
    '`summary`: each post without `description`, with `excerpt` (the meta description, else the description, as plain text cut to ' +
    `${EXCERPT_LENGTH} code points and \`…\`) and \`reading_time_minutes\`; the page's cost does not grow with the descriptions. ` +
    'Absent: whole posts. Any other value is a 400 `{"view": ["\\"<value>\\" is not a valid choice."]}`.',
  schema: { type: 'string', enum: ['summary'] },
};
const VIEW_REFUSED = { view: ['"full" is not a valid choice.'] };

const POST_LIST_PARAMETERS: JsonObject[] = [
  {
    name: 'sort',
    in: 'query',
    description:
      '`newest`: created, descending (also for unknown values). `featured`: featured posts only, newest first. `views`: total_visitors, ' +
      'descending. `votes`: rating_likes, descending. `active`: modified, descending. Ties go to the newest.',
    schema: {
      anyOf: [
        { type: 'string', enum: [...POST_SORTS] },
        { type: 'string', description: 'Any other value: `newest`.' },
      ],
      default: 'newest',
      examples: ['views'],
    },
  },
  {
    name: 'q',
    in: 'query',
    description:
      'Search words: a post matches when each word of `q` begins a word of its title, description, keywords or meta_description (case and accents ignored; words are runs of letters and digits). Combines with `sort`; a `q` with no word lists what the request without it lists.',
    schema: { type: 'string' },
  },
  ...PAGE_PARAMETERS('posts'),
  VIEW_PARAMETER,
];

/** What the route table does not say about an operation. */
interface OperationSpec {
  operationId: string;
  tag: 'Authentication' | 'Users' | 'Tags' | 'Posts' | 'Votes' | 'Favorites' | 'Comments' | 'Reports' | 'Moderation' | 'Documentation';
  summary: string;
  description: string;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  /** The success response(s), by status. */
  success: Record<string, JsonObject>;
  /** Field names of its 400 field errors (besides `non_field_errors`). */
  fields?: readonly string[];
  /** 404 responses it gives, as component names. */
  notFound?: 'NotFound' | 'InvalidPage' | 'NotFoundOrInvalidPage';
  /** The example of its 400 (default: the first field required, or a JSON parse error). */
  badRequestExample?: JsonObject;
  /** Its 403 text, or texts, if owners only. */
  forbidden?: string | readonly string[];
  /** When its 403 is answered, if not to someone who is not the owner. */
  forbiddenWhen?: string;
  /** Its 409 text. */
  conflict?: string;
  /** When its 409 is answered, if not for something that already exists. */
  conflictWhen?: string;
  /** Its own 401 (logout). */
  unauthorized?: JsonObject;
  /** false: the body is never read (documentation routes). */
  readsBody?: boolean;
  /** false: never touches DynamoDB (no 503). */
  database?: boolean;
  /** Its own 429 with `Retry-After` (the login and sign-up limits: docs/api.md, endpoints 1 and 6a), or this response. */
  throttled?: boolean | JsonObject;
}

/** A page's 200; `counted`: the list's answers carry its total (docs/api.md, "Totals"). */
const paged = (
  list: keyof typeof PAGE_SIZES | number,
  item: string,
  example: unknown,
  counted = true,
  order = 'newest first unless sorted otherwise',
): Record<string, JsonObject> => {
  const max = typeof list === 'number' ? list : PAGE_SIZES[list];
  return {
    '200': {
      description: `A page: a bare JSON array, ${order}, at most ${max} items.`,
      headers: { Link: HEADERS.Link, ...(counted ? { 'X-Total-Count': HEADERS['X-Total-Count'] } : {}) },
      content: json({ type: 'array', maxItems: max, items: ref(item) }, [example]),
    },
  };
};

/** The body a GET of a list may carry its parameters in (`listParams` of lib/lists/list.ts). */
const listRequestBody = (schema: string): JsonObject => ({
  description: LIST_PARAMETER_SOURCES,
  required: false,
  content: { [JSON_TYPE]: { schema: ref(schema) }, [FORM_TYPE]: { schema: ref(`${schema}Form`) } },
});

/** The operations, by the handler module of their route (lib/routes.ts). */
const OPERATIONS: Record<string, OperationSpec> = {
  'auth/login': {
    operationId: 'login',
    tag: 'Authentication',
    summary: 'Log in',
    description:
      'Exchanges a username and password for a new token (40 lowercase hex characters). Each login issues another token; earlier ones keep working. ' +
      'Unknown user, wrong password, a deactivated account and an account without a password all get the same 400. ' +
      'Failed logins are limited per username and source address, per address and per username (429 with `Retry-After` until the window passes). ' +
      'On the docs page, a successful login here authorizes the page with the new token.',
    requestBody: body('The credentials; `password` is taken as sent (not trimmed).', 'Credentials', 'Credentials', true, {
      username: 'alice',
      password: 'correct horse battery',
    }),
    success: { '200': { description: 'The new token.', content: json(ref('TokenResponse'), { token: 'ab146675a2c6da2b404ba8d5e34d5dc21aa5fa2d' }) } },
    fields: ['username', 'password'],
    throttled: true,
  },
  'auth/logout': {
    operationId: 'logout',
    tag: 'Authentication',
    summary: 'Log out',
    description: "Revokes the request's token at once; the user's other tokens stay valid.",
    success: { '200': { description: 'Logged out.', content: json(detail(['You are logged out!']), { detail: 'You are logged out!' }) } },
    unauthorized: {
      description: 'No header, a header not of the form `Token <value>`, or a token that is unknown, revoked or expired.',
      headers: { 'WWW-Authenticate': HEADERS['WWW-Authenticate'] },
      content: json(detail(['You are not logged in!']), { detail: 'You are not logged in!' }),
    },
  },
  'auth/check': {
    operationId: 'checkAuth',
    tag: 'Authentication',
    summary: 'Check the token',
    description: "Whose token this is; `token` echoes the caller's token.",
    success: {
      '200': {
        description: 'The authentication record.',
        content: json(ref('AuthRecord'), { id: 1, token: 'caeebe15548e97bbd35e1c539b5fc99877ad6c71', username: 'alice', is_moderator: false }),
      },
    },
  },
  'users/list': {
    operationId: 'listUsers',
    tag: 'Users',
    summary: 'List users',
    description: 'Active users, newest `date_joined` first.',
    parameters: PAGE_PARAMETERS('users'),
    success: paged('users', 'Profile', EXAMPLE_PROFILE),
    notFound: 'InvalidPage',
  },
  'users/detail': {
    operationId: 'getUser',
    tag: 'Users',
    summary: 'Get a profile',
    description: "One user's profile, also of a deactivated user (their posts stay published and link to it); the users list leaves deactivated users out.",
    success: { '200': { description: 'The profile.', content: json(ref('Profile'), EXAMPLE_PROFILE) } },
    notFound: 'NotFound',
  },
  'users/update': {
    operationId: 'updateUser',
    tag: 'Users',
    summary: 'Update your profile',
    description:
      'The owner changes any subset of the editable fields; omitted fields keep their value; read-only and unknown fields are ignored. ' +
      "Checks run in this order: authentication; 404 for an unknown user, 403 for another user's profile (deactivated or not); validation.",
    requestBody: body('Editable fields.', 'ProfileUpdate', 'ProfileUpdateForm', false, {
      display_name: 'Alice A.',
      website: 'https://alice.example.com',
      birth_date: '1990-04-01',
    }),
    success: { '200': { description: 'The updated profile.', content: json(ref('Profile'), EXAMPLE_PROFILE) } },
    fields: PROFILE_FIELDS,
    notFound: 'NotFound',
    forbidden: 'You are not owner of this profile!',
  },
  'users/signup': {
    operationId: 'signUp',
    tag: 'Users',
    summary: 'Sign up',
    description:
      'Creates an active account with an empty profile and returns its id, username and a first token (as a login does). No token needed. ' +
      '403 when the deployment or an administrator has closed sign-up; 429 after too many attempts from the source address (every attempt counts, whatever its outcome). ' +
      'A username taken in any case is reported as taken.',
    requestBody: body('The new account.', 'SignUp', 'SignUp', true, { username: 'alice', password: 'correct horse battery' }),
    success: {
      '201': {
        description: 'The new account and its token.',
        content: json(ref('SignUpResponse'), { id: 7, username: 'alice', token: 'ab146675a2c6da2b404ba8d5e34d5dc21aa5fa2d' }),
      },
    },
    fields: ['username', 'password'],
    forbidden: 'Sign-up is closed.',
    forbiddenWhen: 'Sign-up is closed (`SIGNUP=closed`, or closed by an administrator); nothing is created.',
    throttled: true,
  },
  'users/password': {
    operationId: 'changePassword',
    tag: 'Users',
    summary: 'Change your password',
    description:
      "The owner gives the current password and a new one (checked as at sign-up). Every other token of the user stops working; the caller's keeps working. " +
      "Checks run in this order: authentication; 404 for an unknown user, 403 for another user's account; validation.",
    requestBody: body('The current and the new password.', 'PasswordChange', 'PasswordChange', true, {
      old_password: 'correct horse battery',
      new_password: 'another long passphrase',
    }),
    success: { '200': { description: 'Changed.', content: json(detail(['Password changed.']), { detail: 'Password changed.' }) } },
    fields: ['old_password', 'new_password'],
    notFound: 'NotFound',
    forbidden: 'You are not owner of this profile!',
  },
  'tags/list': {
    operationId: 'listTags',
    tag: 'Tags',
    summary: 'List tags',
    description: 'Tags, newest first.',
    parameters: [
      { name: 'q', in: 'query', description: 'Case-insensitive substring of the title; empty: no filter.', schema: { type: 'string' } },
      ...PAGE_PARAMETERS('tags'),
    ],
    success: paged('tags', 'Tag', EXAMPLE_TAG),
    notFound: 'InvalidPage',
  },
  'tags/create': {
    operationId: 'createTag',
    tag: 'Tags',
    summary: 'Create a tag',
    description:
      "Any authenticated user may. A taken title (compared case-insensitively), or a taken `slug` given in the request, is a 409; a slug derived from the title that is taken gets `-1`, `-2`, ... as a post's does.",
    requestBody: body('The tag.', 'TagCreate', 'TagCreate', true, { title: 'AWS Lambda', slug: 'lambda' }),
    success: { '201': { description: 'The new tag.', content: json(ref('Tag'), EXAMPLE_TAG) } },
    fields: ['title', 'slug'],
    conflict: 'Tag already exists.',
  },
  'tags/detail': {
    operationId: 'getTag',
    tag: 'Tags',
    summary: 'Get a tag',
    description: 'One tag by its slug.',
    success: { '200': { description: 'The tag.', content: json(ref('Tag'), EXAMPLE_TAG) } },
    notFound: 'NotFound',
  },
  'posts/list': {
    operationId: 'listPosts',
    tag: 'Posts',
    summary: 'List posts',
    description: `Published posts only. ${LIST_PARAMETER_SOURCES}`,
    parameters: POST_LIST_PARAMETERS,
    requestBody: listRequestBody('PostListParameters'),
    success: paged('posts', 'ListedPost', EXAMPLE_POST),
    fields: ['view'],
    badRequestExample: VIEW_REFUSED,
    notFound: 'InvalidPage',
  },
  'posts/tagged': {
    operationId: 'listTaggedPosts',
    tag: 'Posts',
    summary: "List a tag's posts",
    description:
      `The published posts carrying the tag \`{slug}\`, with the parameters and answers of \`GET /posts\` (\`sort=featured\` keeps only ` +
      `featured posts). An unknown tag is a 404 \`Not found.\`. ${LIST_PARAMETER_SOURCES}`,
    parameters: POST_LIST_PARAMETERS,
    requestBody: listRequestBody('PostListParameters'),
    success: paged('posts', 'ListedPost', EXAMPLE_POST),
    fields: ['view'],
    badRequestExample: VIEW_REFUSED,
    notFound: 'NotFoundOrInvalidPage',
  },
  'posts/author': {
    operationId: 'listAuthorPosts',
    tag: 'Posts',
    summary: "List a user's posts",
    description:
      `The published posts of the user \`{username}\`, also of a deactivated user, with the parameters and answers of \`GET /posts\` ` +
      `(\`sort=featured\` keeps only featured posts). Drafts are never listed, not even to their author (see \`GET /posts/me\`). ` +
      `An unknown user is a 404 \`Not found.\`. ${LIST_PARAMETER_SOURCES}`,
    parameters: POST_LIST_PARAMETERS,
    requestBody: listRequestBody('PostListParameters'),
    success: paged('posts', 'ListedPost', EXAMPLE_POST),
    fields: ['view'],
    badRequestExample: VIEW_REFUSED,
    notFound: 'NotFoundOrInvalidPage',
  },
  'posts/mine': {
    operationId: 'listMyPosts',
    tag: 'Posts',
    summary: 'List your own posts',
    description:
      `The caller's own posts, published and drafts, with the parameters and answers of \`GET /posts\` (\`sort=featured\` keeps only ` +
      `featured posts), and \`publish\` to keep only published posts or only drafts. ${LIST_PARAMETER_SOURCES}`,
    parameters: [
      ...POST_LIST_PARAMETERS,
      {
        name: 'publish',
        in: 'query',
        description:
          '`true`: only published posts; `false`: only drafts; absent: both. Also accepted as `t`/`f`, `yes`/`no`, `y`/`n`, `on`/`off`, ' +
          '`1`/`0`, in any case; any other value is a 400 `{"publish": ["Must be a valid boolean."]}`.',
        schema: { anyOf: [{ type: 'boolean' }, { type: 'string', pattern: BOOLEAN_TEXT_PATTERN }], examples: [false] },
      },
    ],
    requestBody: listRequestBody('MyPostListParameters'),
    success: paged('posts', 'ListedPost', { ...EXAMPLE_POST, publish: false }),
    fields: ['publish', 'view'],
    badRequestExample: { publish: ['Must be a valid boolean.'] },
    notFound: 'InvalidPage',
  },
  'posts/create': {
    operationId: 'createPost',
    tag: 'Posts',
    summary: 'Create a post',
    description:
      'A post by the caller. The slug is derived from the title (`-1`, `-2`, ... when taken). `slug`, `author`, ' +
      'timestamps and counters in the body are ignored; counters start at 0. `comments_locked` (default false) closes it to comments; ' +
      "`is_featured` is a moderator's (a published post only: featuring a draft is a 400), anyone else's is ignored.",
    requestBody: body('The post.', 'PostCreate', 'PostCreateForm', true, {
      title: 'Hello World',
      description: 'First *post*',
      tags: 'AWS Lambda, serverless',
      publish: true,
    }),
    success: { '201': { description: 'The new post.', content: json(ref('Post'), EXAMPLE_POST) } },
    fields: ['title', 'description', 'tags', 'keywords', 'meta_description', 'publish', 'comments_locked', 'is_featured'],
  },
  'posts/detail': {
    operationId: 'getPost',
    tag: 'Posts',
    summary: 'Get a post',
    description:
      "A published post, or the caller's own draft. The caller's first view adds one to `total_visitors` (already included), recorded before " +
      '`If-None-Match` is compared: a first visit answers 200 with the new count.',
    success: { '200': { description: 'The post.', content: json(ref('Post'), EXAMPLE_POST) } },
    notFound: 'NotFound',
  },
  'posts/related': {
    operationId: 'listRelatedPosts',
    tag: 'Posts',
    summary: 'List related posts',
    description:
      `Up to ${RELATED.limit} published posts that share the most tags with the post \`{slug}\`, most shared tags first, then the newest ` +
      `\`created\` first; never the post itself, never a draft. The candidates are the ${RELATED.perTag} newest published posts of each of ` +
      "the post's tags. A post without tags, or without neighbours, answers `[]`. The post itself may be the caller's own draft; another " +
      "user's draft, or an unknown slug, is 404. A bare array: no paging, no `Link`.",
    parameters: [VIEW_PARAMETER],
    success: {
      '200': { description: 'The related posts.', content: json({ type: 'array', items: ref('ListedPost'), maxItems: RELATED.limit }, [EXAMPLE_POST]) },
    },
    fields: ['view'],
    badRequestExample: VIEW_REFUSED,
    notFound: 'NotFound',
  },
  'posts/update': {
    operationId: 'updatePost',
    tag: 'Posts',
    summary: 'Update your post',
    description:
      'The author changes any subset of the fields. `tags`, when given, replaces the tag set. A new title re-derives the slug (the old ' +
      'slug then answers 404). `modified` is refreshed. With `modified` (the value the client read), a post changed since then is a 409 and nothing ' +
      'changes; visits, votes and favorites do not change `modified`. Order of checks: authentication, existence and visibility, ownership, ' +
      'the edit conflict, validation. A moderator may send `is_featured` and `comments_locked` on any post they can see: on ' +
      "another's, the body holds one of them and none of the author's fields (else 403); a change of these flags alone neither compares " +
      'nor refreshes `modified`. A post a moderator removed (a report resolved with `remove`) stays a draft: `publish=true` is 403 until ' +
      '`npm run admin -- restore-post`.',
    requestBody: body('Fields to change.', 'PostUpdate', 'PostUpdateForm', false, { meta_description: 'A first post about AWS Lambda.', tags: 'AWS Lambda' }),
    success: { '200': { description: 'The updated post.', content: json(ref('Post'), EXAMPLE_POST) } },
    fields: ['title', 'description', 'tags', 'keywords', 'meta_description', 'publish', 'comments_locked', 'is_featured'],
    notFound: 'NotFound',
    forbidden: ['You are not owner of this post!', 'A moderator removed this post.'],
    forbiddenWhen:
      "Not the owner (a moderator's change of another's post: not only its flags); or `publish=true` on a post a moderator removed. Nothing changes.",
    conflict: 'The post was changed since you read it.',
    conflictWhen: "`modified` was given and is not the post's current `modified`: someone changed it since; nothing changes.",
  },
  'posts/delete': {
    operationId: 'deletePost',
    tag: 'Posts',
    summary: 'Delete your post',
    description:
      "The author (or a moderator) deletes the post; its tags remain, its comments and reports go with it. Another user's draft is 404, " +
      'their published post 403 (but to a moderator).',
    success: { '204': { description: 'Deleted; no body.' } },
    notFound: 'NotFound',
    forbidden: 'You are not owner of this post!',
  },
  'feed/rss': {
    operationId: 'getFeed',
    tag: 'Posts',
    summary: 'RSS feed of the newest posts',
    description:
      "RSS 2.0: the 20 newest published posts (of one tag with `tag`), newest first, each with `title`, `link` = `guid` (the frontend's " +
      "`<SITE_URL>/posts/<slug>` when the deployment sets SITE_URL, else this API's post detail URL), `description` (the " +
      '`meta_description`, or the first 300 characters of the description), `pubDate` (RFC 822 of `created`), `dc:creator` (the ' +
      'author) and one `category` per tag title. No token needed (an `Authorization` header is not looked at). Conditional ' +
      'requests: `If-None-Match` (weak comparison, lists, `*`) decides when sent, else `If-Modified-Since`; a current copy gets 304. ' +
      'Other query parameters are ignored.',
    parameters: [
      {
        name: 'tag',
        in: 'query',
        description: 'The slug of a tag: the feed of its posts.',
        schema: { type: 'string', maxLength: MAX_SUFFIXED_SLUG_LENGTH },
        example: 'lambda',
      },
    ],
    success: {
      '200': {
        description: 'The RSS 2.0 document.',
        headers: {
          ETag: { description: 'Changes whenever the document does.', required: true, schema: { type: 'string', pattern: '^"[^"]*"$' } },
          'Last-Modified': { description: 'The last time the document can have changed.', required: true, schema: { type: 'string' } },
        },
        content: { 'application/rss+xml': { schema: { type: 'string' } } },
      },
      '304': {
        description: 'The copy the request names (If-None-Match, If-Modified-Since) is current; no body.',
        headers: {
          ETag: { description: 'The current entity tag.', required: true, schema: { type: 'string', pattern: '^"[^"]*"$' } },
          'Last-Modified': { description: 'As on the 200.', required: true, schema: { type: 'string' } },
        },
      },
    },
    notFound: 'NotFound',
    readsBody: false,
  },
  'posts/vote/show': {
    operationId: 'getVote',
    tag: 'Votes',
    summary: 'Your vote on a post',
    description: "The caller's vote (`up`, `down` or null) on a post they can see, with the post's counts.",
    success: { '200': { description: 'The vote state.', content: json(ref('VoteState'), EXAMPLE_VOTE) } },
    notFound: 'NotFound',
  },
  'posts/vote/cast': {
    operationId: 'castVote',
    tag: 'Votes',
    summary: 'Vote a post up or down',
    description:
      'One vote per user and post: `up` counts in `rating_likes`, `down` in `rating_dislikes`; voting the other way moves the count, ' +
      "the same way again changes nothing. Another user's draft or an unknown slug is 404; the author's own post is 403.",
    requestBody: body('The vote.', 'VoteInput', 'VoteInput', true, { vote: 'up' }),
    success: { '200': { description: 'The vote state after the request.', content: json(ref('VoteState'), EXAMPLE_VOTE) } },
    fields: ['vote'],
    badRequestExample: { vote: ['"sideways" is not a valid choice.'] },
    notFound: 'NotFound',
    forbidden: 'You cannot vote on your own post.',
  },
  'posts/vote/remove': {
    operationId: 'removeVote',
    tag: 'Votes',
    summary: 'Remove your vote',
    description: "Removes the caller's vote; 200 with `vote: null` also when there was none.",
    success: { '200': { description: 'The vote state after the request.', content: json(ref('VoteState'), { ...EXAMPLE_VOTE, vote: null }) } },
    notFound: 'NotFound',
  },
  'posts/favorite/show': {
    operationId: 'getFavorite',
    tag: 'Favorites',
    summary: 'Whether a post is your favorite',
    description: 'Whether the caller holds a post they can see as a favorite, with its `total_favorites`.',
    success: { '200': { description: 'The favorite state.', content: json(ref('FavoriteState'), EXAMPLE_FAVORITE) } },
    notFound: 'NotFound',
  },
  'posts/favorite/add': {
    operationId: 'addFavorite',
    tag: 'Favorites',
    summary: 'Make a post a favorite',
    description: "Any post the caller can see, their own included (idempotent). Another user's draft or an unknown slug is 404.",
    success: { '200': { description: 'The favorite state after the request.', content: json(ref('FavoriteState'), EXAMPLE_FAVORITE) } },
    notFound: 'NotFound',
  },
  'posts/favorite/remove': {
    operationId: 'removeFavorite',
    tag: 'Favorites',
    summary: 'Remove a favorite',
    description: 'Removes the favorite (idempotent).',
    success: { '200': { description: 'The favorite state after the request.', content: json(ref('FavoriteState'), { favorited: false, total_favorites: 0 }) } },
    notFound: 'NotFound',
  },
  'users/favorites': {
    operationId: 'listFavorites',
    tag: 'Favorites',
    summary: "List a user's favorite posts",
    description:
      'The posts the user `{username}` holds as favorites, newest favorite first, as `GET /posts` shows posts: only posts published now, ' +
      "and the user's own drafts when the caller is that user. An unknown user is a 404 `Not found.`. " +
      'Parameters are read from the query string, and from a form or JSON body of the GET request when the query string lacks them.',
    parameters: [...PAGE_PARAMETERS('posts'), VIEW_PARAMETER],
    requestBody: listRequestBody('PageParameters'),
    success: paged('posts', 'ListedPost', EXAMPLE_POST, false),
    fields: ['view'],
    badRequestExample: VIEW_REFUSED,
    notFound: 'NotFoundOrInvalidPage',
  },
  'posts/comments/list': {
    operationId: 'listComments',
    tag: 'Comments',
    summary: "List a post's comments",
    description:
      `The threads of the post \`{slug}\`, oldest first (by \`created\`, then \`id\`; new threads land on the last page): each top-level comment ` +
      `with, last, \`replies\`: its first ${PREVIEW_REPLIES} listed replies, oldest first. Each comment as the caller may see it (a placeholder ` +
      'when deleted or hidden from them). On a draft, only its author reads them (404 to everyone else, moderators too).',
    parameters: pageParameters(COMMENT_PAGE_SIZES.threads),
    requestBody: listRequestBody('CommentPageParameters'),
    success: paged(COMMENT_PAGE_SIZES.threads, 'CommentThread', EXAMPLE_THREAD, false, 'oldest first'),
    notFound: 'NotFoundOrInvalidPage',
  },
  'posts/comments/create': {
    operationId: 'createComment',
    tag: 'Comments',
    summary: 'Comment on a post',
    description:
      'A top-level comment on the post `{slug}`, or, with `parent`, a reply: its `in_reply_to` is the comment given, its `parent` that ' +
      "comment's thread. Checked in this order, the first that holds answering: the post not visible (404), the caller's own draft (403), " +
      'comments locked (403, moderators too), `body` (400), `parent` unknown, gone or of another post (400), `parent` hidden or a placeholder ' +
      `(400), the rate limit (429: ${COMMENT_LIMITS}).`,
    requestBody: body('The comment.', 'CommentCreate', 'CommentCreateForm', true, { body: 'Thanks, this helped!' }),
    success: { '201': { description: 'The new comment.', content: json(ref('Comment'), EXAMPLE_COMMENT) } },
    fields: ['body', 'parent'],
    notFound: 'NotFound',
    forbidden: [DRAFT_COMMENTS, LOCKED_COMMENTS],
    forbiddenWhen: "The post is the caller's own draft, or its comments are locked.",
    throttled: {
      description: `The caller created ${COMMENT_LIMITS}: \`Retry-After\` is the rest of the window, in seconds.`,
      headers: { 'Retry-After': HEADERS['Retry-After'] },
      content: json(detail(), { detail: 'Request was throttled. Expected available in 42 seconds.' }),
    },
  },
  'comments/detail': {
    operationId: 'getComment',
    tag: 'Comments',
    summary: 'Get a comment',
    description: 'One comment as the caller may see it (a placeholder when deleted, or hidden from them). On a draft, 404 but to its author.',
    success: { '200': { description: 'The comment.', content: json(ref('Comment'), EXAMPLE_COMMENT) } },
    notFound: 'NotFound',
  },
  'comments/update': {
    operationId: 'updateComment',
    tag: 'Comments',
    summary: 'Edit, hide or show a comment',
    description:
      '`body`: its author only, not on a locked post; a new text sets `modified` and `edited`, the same text changes nothing; with ' +
      "`modified` (the value read), a comment changed since is a 409. `status`: `hidden` or `published`, by moderators and the post's " +
      'author (who shows again only what they hid); a moderator hiding a hidden comment makes it `hidden_by: moderator`. All or nothing; ' +
      "checks 401, 404, 403, 409, 400. An empty body is 200 unchanged for its author, moderators and the post's author. A placeholder is 404.",
    requestBody: body('What to change.', 'CommentUpdate', 'CommentUpdateForm', false, { body: 'Thanks, this helped a lot!' }),
    success: { '200': { description: 'The comment after the request.', content: json(ref('Comment'), { ...EXAMPLE_COMMENT, edited: true }) } },
    fields: ['body', 'status'],
    badRequestExample: { status: ['"deleted" is not a valid choice.'] },
    notFound: 'NotFound',
    forbidden: [NOT_COMMENT_OWNER, LOCKED_COMMENTS, CANNOT_HIDE, ONLY_MODERATOR_UNHIDES, DRAFT_COMMENTS],
    forbiddenWhen: 'The caller may not change what the body names; nothing changes.',
    conflict: 'The comment was changed since you read it.',
    conflictWhen: "`body` and `modified` were given and `modified` is not the comment's current one; nothing changes.",
  },
  'comments/delete': {
    operationId: 'deleteComment',
    tag: 'Comments',
    summary: 'Delete a comment',
    description:
      'By its author or a moderator. A top-level comment with listed replies stays as a placeholder; any other comment is gone (404 ' +
      'after), and a placeholder goes with its last reply. A placeholder is 404.',
    success: { '204': { description: 'Deleted; no body.' } },
    notFound: 'NotFound',
    forbidden: [NOT_COMMENT_OWNER, DRAFT_COMMENTS],
  },
  'comments/replies': {
    operationId: 'listReplies',
    tag: 'Comments',
    summary: "List a thread's replies",
    description: "The replies of the top-level comment `{id}`, oldest first, with `X-Total-Count` its `total_replies`. A reply's id is 404.",
    parameters: pageParameters(COMMENT_PAGE_SIZES.replies),
    requestBody: listRequestBody('CommentPageParameters'),
    success: paged(
      COMMENT_PAGE_SIZES.replies,
      'Comment',
      { ...EXAMPLE_COMMENT, parent: EXAMPLE_COMMENT.id, in_reply_to: EXAMPLE_COMMENT.id },
      true,
      'oldest first',
    ),
    notFound: 'NotFoundOrInvalidPage',
  },
  'users/comments': {
    operationId: 'listUserComments',
    tag: 'Comments',
    summary: "List a user's comments",
    description:
      'The comments of the user `{username}`, newest first: their published ones (hidden ones too, to themselves and moderators) on posts ' +
      'the caller can see; no placeholders. An unknown user is a 404 `Not found.`.',
    parameters: pageParameters(COMMENT_PAGE_SIZES.user),
    requestBody: listRequestBody('CommentPageParameters'),
    success: paged(COMMENT_PAGE_SIZES.user, 'Comment', EXAMPLE_COMMENT, false),
    notFound: 'NotFoundOrInvalidPage',
  },
  'posts/report/file': {
    operationId: 'reportPost',
    tag: 'Reports',
    summary: 'Report a post',
    description: "Once per user and post: a new report (201), or the caller's existing one, unchanged (200). Not on one's own post (403).",
    requestBody: body('The report.', 'ReportInput', 'ReportInputForm', true, { reason: 'spam', note: 'Links to a shop.' }),
    success: {
      '200': { description: "The caller's report, filed before; nothing changes.", content: json(ref('Report'), EXAMPLE_POST_REPORT) },
      '201': { description: 'The new report.', content: json(ref('Report'), EXAMPLE_POST_REPORT) },
    },
    fields: ['reason', 'note'],
    badRequestExample: { reason: ['"boring" is not a valid choice.'] },
    notFound: 'NotFound',
    forbidden: OWN_POST,
    forbiddenWhen: "The post is the caller's own.",
  },
  'posts/report/show': {
    operationId: 'getPostReport',
    tag: 'Reports',
    summary: 'Your report on a post',
    description: "The caller's report on a post they can see; none: 404.",
    success: { '200': { description: "The caller's report.", content: json(ref('Report'), EXAMPLE_POST_REPORT) } },
    notFound: 'NotFound',
  },
  'comments/report/file': {
    operationId: 'reportComment',
    tag: 'Reports',
    summary: 'Report a comment',
    description:
      "Once per user and comment: a new report (201), or the caller's existing one, unchanged (200). Not on one's own comment, nor on a " +
      'comment that is not published and that the caller did not report before (403). The report that gives a published comment open ' +
      'reports from `REPORTS_TO_HIDE` users (default 3) hides it (`hidden_by: reports`).',
    requestBody: body('The report.', 'ReportInput', 'ReportInputForm', true, { reason: 'abuse' }),
    success: {
      '200': { description: "The caller's report, filed before; nothing changes.", content: json(ref('Report'), EXAMPLE_COMMENT_REPORT) },
      '201': { description: 'The new report.', content: json(ref('Report'), EXAMPLE_COMMENT_REPORT) },
    },
    fields: ['reason', 'note'],
    badRequestExample: { reason: ['This field is required.'] },
    notFound: 'NotFound',
    forbidden: [OWN_COMMENT, NOT_REPORTABLE, DRAFT_COMMENTS],
    forbiddenWhen: "The comment is the caller's own, or is not published (and the caller did not report it before), or its post is the caller's draft.",
  },
  'comments/report/show': {
    operationId: 'getCommentReport',
    tag: 'Reports',
    summary: 'Your report on a comment',
    description: "The caller's report on a comment they can see; none (or a deleted comment's): 404.",
    success: { '200': { description: "The caller's report.", content: json(ref('Report'), EXAMPLE_COMMENT_REPORT) } },
    notFound: 'NotFound',
  },
  'reports/list': {
    operationId: 'listReports',
    tag: 'Reports',
    summary: 'List the open reports',
    description: 'Moderators only: each target with open reports once, as its newest open report, newest first.',
    parameters: pageParameters(REPORTS_PAGE_SIZE),
    requestBody: listRequestBody('CommentPageParameters'),
    success: paged(REPORTS_PAGE_SIZE, 'Report', EXAMPLE_POST_REPORT, false),
    notFound: 'InvalidPage',
    forbidden: MODERATORS_ONLY,
    forbiddenWhen: 'The caller does not moderate (answered before any other check but the token).',
  },
  'reports/resolve': {
    operationId: 'resolveReport',
    tag: 'Reports',
    summary: 'Resolve a report',
    description:
      'Moderators only: closes every open report of the target of report `{id}`. `dismiss` shows again a comment its reports hid; ' +
      '`remove` hides a comment (`hidden_by: moderator`) or unpublishes a post and marks it removed (its author cannot publish it until ' +
      '`npm run admin -- restore-post`). Checks 401, 403, 404, 409, 400.',
    requestBody: body('The resolution.', 'ReportResolve', 'ReportResolve', true, { action: 'dismiss' }),
    success: {
      '200': {
        description: 'The report, resolved.',
        content: json(ref('Report'), {
          ...EXAMPLE_POST_REPORT,
          status: 'dismissed',
          resolved: '2026-01-06T09:00:00.000001+00:00',
          resolved_by: 'mod',
          open_reports: 0,
        }),
      },
    },
    fields: ['action'],
    badRequestExample: { action: ['"ban" is not a valid choice.'] },
    notFound: 'NotFound',
    forbidden: MODERATORS_ONLY,
    forbiddenWhen: 'The caller does not moderate (answered before the 404).',
    conflict: ALREADY_RESOLVED,
    conflictWhen: 'The report was resolved before; nothing changes.',
  },
  'users/suspension/show': {
    operationId: 'getSuspension',
    tag: 'Moderation',
    summary: "A user's suspension",
    description: 'Moderators only: whether the user is suspended (a moderator never is).',
    success: { '200': { description: 'The suspension state.', content: json(ref('Suspension'), { suspended: false }) } },
    notFound: 'NotFound',
    forbidden: MODERATORS_ONLY,
    forbiddenWhen: 'The caller does not moderate (answered before the 404).',
  },
  'users/suspension/suspend': {
    operationId: 'suspendUser',
    tag: 'Moderation',
    summary: 'Suspend a user',
    description:
      "Moderators only, idempotent: as `npm run admin -- deactivate-user`: the user's tokens are revoked (401 within about a second), " +
      'their profile, posts and comments stay. A moderator, oneself included, cannot be suspended (403).',
    success: { '200': { description: 'The suspension state.', content: json(ref('Suspension'), { suspended: true }) } },
    notFound: 'NotFound',
    forbidden: [MODERATORS_ONLY, MODERATOR_NOT_SUSPENDABLE],
    forbiddenWhen: 'The caller does not moderate (answered before the 404), or the user moderates.',
  },
  'users/suspension/reinstate': {
    operationId: 'reinstateUser',
    tag: 'Moderation',
    summary: 'Reinstate a user',
    description: 'Moderators only, idempotent: as `npm run admin -- reactivate-user` (the old tokens stay revoked).',
    success: { '200': { description: 'The suspension state.', content: json(ref('Suspension'), { suspended: false }) } },
    notFound: 'NotFound',
    forbidden: [MODERATORS_ONLY, MODERATOR_NOT_SUSPENDABLE],
    forbiddenWhen: 'The caller does not moderate (answered before the 404), or the user moderates.',
  },
  'docs/index': {
    operationId: 'getApiIndex',
    tag: 'Documentation',
    summary: 'Index of the API',
    description:
      'The URLs of the docs page and of this document, and every endpoint (method, path, summary, whether it needs a token). URLs use the host the request was sent to.',
    success: { '200': { description: 'The index.', content: json(ref('ApiIndex')) } },
    readsBody: false,
    database: false,
  },
  'docs/openapi': {
    operationId: 'getOpenApiDocument',
    tag: 'Documentation',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API. Its server URL is the host the request was sent to.',
    success: { '200': { description: 'The document.', content: json(ref('OpenApiDocument')) } },
    readsBody: false,
    database: false,
  },
  'docs/page': {
    operationId: 'getDocsPage',
    tag: 'Documentation',
    summary: 'Interactive reference',
    description: 'Swagger UI for this document, served by the API (no CDN). Log in with `POST /login` there, or use "Authorize" with `Token <your token>`.',
    success: { '200': { description: 'The HTML page.', content: { 'text/html': { schema: { type: 'string' } } } } },
    readsBody: false,
    database: false,
  },
  'docs/asset': {
    operationId: 'getDocsAsset',
    tag: 'Documentation',
    summary: 'An asset of the docs page',
    description: 'The stylesheet, scripts and icons the docs page loads (from the npm package swagger-ui-dist); text assets are gzipped when accepted.',
    success: {
      '200': {
        description: 'The asset.',
        content: {
          'text/css': { schema: { type: 'string' } },
          'text/javascript': { schema: { type: 'string' } },
          'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
        },
      },
    },
    notFound: 'NotFound',
    readsBody: false,
    database: false,
  },
};

const PUBLIC_READ_NOTE =
  'With public reads on (deploy setting `publicReads`, `PUBLIC_READS=true`), also answered without an `Authorization` header, as for a ' +
  'caller who owns nothing: published posts only, and no visit is counted. A request with the header is authenticated as always (401 for a ' +
  'malformed header or a bad token).';

/** A content GET's 200 gets its caching headers, and the 304 of a matching `If-None-Match` is added. */
function validate(responses: JsonObject): void {
  const ok = responses['200'] as JsonObject;
  const headers = { ...(ok.headers as JsonObject | undefined), ...VALIDATED_HEADERS };
  responses['200'] = { ...ok, headers };
  responses['304'] = {
    description:
      '`If-None-Match` matches the current `ETag` (weak comparison: `W/"x"` matches `"x"`; `*` matches any): no body, and the headers of the 200 but `Content-Type` and `Content-Length`.',
    headers: { ...headers, ETag: { ...HEADERS.ETag, required: true } },
  };
}

function operation(route: Route): JsonObject {
  const spec = OPERATIONS[route.handler];
  if (!spec) throw new Error(`The OpenAPI document has no operation for ${route.method} ${route.path} (handler ${route.handler}).`);
  const responses: JsonObject = { ...spec.success };
  if (spec.readsBody !== false) {
    responses['400'] = {
      description: 'Invalid input: field errors, or a body that could not be parsed (`detail`).',
      content: json(
        { anyOf: [fieldErrors(spec.fields ?? []), ref('Detail')] },
        spec.badRequestExample ??
          (spec.fields?.length ? { [spec.fields[0]!]: ['This field is required.'] } : { detail: 'JSON parse error - unexpected end of input.' }),
      ),
    };
  }
  if (spec.unauthorized) responses['401'] = spec.unauthorized;
  else if (!route.public) responses['401'] = responseRef('Unauthorized');
  if (spec.forbidden) {
    const texts = typeof spec.forbidden === 'string' ? [spec.forbidden] : spec.forbidden;
    responses['403'] = {
      description: spec.forbiddenWhen ?? 'Not the owner; nothing changes.',
      content: json(detail(texts), { detail: texts[0] }),
    };
  }
  if (spec.notFound) responses['404'] = responseRef(spec.notFound);
  if (spec.conflict)
    responses['409'] = { description: spec.conflictWhen ?? 'Already exists.', content: json(detail([spec.conflict]), { detail: spec.conflict }) };
  if (route.validated) validate(responses);
  if (spec.readsBody !== false) {
    responses['413'] = responseRef('PayloadTooLarge');
    responses['415'] = responseRef('UnsupportedMediaType');
  }
  if (spec.database !== false) responses['503'] = responseRef('ServiceUnavailable');
  Object.assign(responses, PLATFORM_RESPONSES);
  if (spec.throttled) responses['429'] = spec.throttled === true ? responseRef('Throttled') : spec.throttled;

  const parameters = [...pathParameters(route.path), ...(spec.parameters ?? [])];
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: route.publicRead ? `${spec.description} ${PUBLIC_READ_NOTE}` : spec.description,
    // A public read: a token, or none when the deployment has public reads on.
    ...(route.public ? { security: [] } : route.publicRead ? { security: [{ tokenAuth: [] }, {}] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: sortByStatus(responses),
  };
}

/** The path parameters of a path, in their order. */
function pathParameters(path: string): JsonObject[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    if (name === 'slug' && /^\/(tags|posts\/tagged)\//.test(path)) return TAG_SLUG_PARAMETER;
    if (name === 'id' && path.startsWith('/reports/')) return REPORT_ID_PARAMETER;
    const parameter = PATH_PARAMETERS[name!];
    if (!parameter) throw new Error(`No OpenAPI description of the path parameter {${name}} of ${path}.`);
    return parameter;
  });
}

/** `/posts/detail/{slug}/vote` → `PostsDetailSlugVote` */
const pascalPath = (path: string): string =>
  path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/**
 * The OPTIONS of a path: API Gateway answers a CORS preflight itself, on every path; an OPTIONS
 * that is not a preflight reaches the functions, which have no OPTIONS route: 405.
 */
function preflightOperation(path: string, methods: readonly string[]): JsonObject {
  return {
    operationId: `preflight${pascalPath(path)}`,
    tags: ['CORS'],
    summary: `CORS preflight of ${path}`,
    description:
      'Answered by API Gateway from the CORS settings, without a function and without a token, when the request carries `Origin` and ' +
      '`Access-Control-Request-Method` (browsers send it before a cross-origin request with `Authorization` or a JSON body). ' +
      `Without them the request is an ordinary one, and \`OPTIONS\` is not a method of the path: 405 with \`Allow: ${methods.join(', ')}\`.`,
    security: [],
    parameters: [
      ...pathParameters(path),
      {
        name: 'Origin',
        in: 'header',
        description: "The page's origin; the CORS headers are answered when it is allowed.",
        schema: { type: 'string' },
        example: 'https://app.example.com',
      },
      {
        name: 'Access-Control-Request-Method',
        in: 'header',
        description: 'The method of the request to come; with `Origin`, it makes the request a preflight.',
        schema: { type: 'string' },
        example: methods[0],
      },
      {
        name: 'Access-Control-Request-Headers',
        in: 'header',
        description: 'The headers the request to come will carry.',
        schema: { type: 'string' },
        example: 'authorization',
      },
    ],
    responses: sortByStatus({
      '204': responseRef('Preflight'),
      '405': responseRef('MethodNotAllowed'),
      '413': responseRef('PayloadTooLarge'),
      ...PLATFORM_RESPONSES,
    }),
  };
}

function sortByStatus(responses: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

const DESCRIPTION = `The REST API of a community site of posts: token authentication, user profiles, tags and posts.
The wire contract follows Django REST Framework's shapes (bodies, errors and messages).

**Authentication.** \`POST /login\` with a username and password returns a token. Every other operation
(except this documentation) needs the header \`Authorization: Token <token>\`. On the docs page, trying out
\`POST /login\` authorizes the page; or click **Authorize** and enter \`Token <token>\`.

**Request bodies** are accepted as \`application/json\` or \`application/x-www-form-urlencoded\` on every
operation that takes one. Bodies over ${BODY_LIMIT}: 413; any other media type: 415.

**Errors** are JSON: field errors \`{"field": ["message", ...]}\` (400), otherwise \`{"detail": "..."}\`. API Gateway
answers some statuses itself with \`{"message": "..."}\` (413 over 10 MiB or over Lambda's 6 MiB event, 429, 500 when a
function fails, 503 when it times out).

**Reading without an account.** With the deploy setting \`publicReads\` (\`PUBLIC_READS=true\`), the reads of published
content (the operations whose security allows no token) also answer a request without an \`Authorization\` header; a request
with one is authenticated as always. Off by default: every operation but the public ones needs a token.

**Caching.** Every \`GET\` of a post, a list, a profile or a tag carries an \`ETag\` (strong, of the body); \`If-None-Match\` with it
(weak comparison, or \`*\`) answers 304 without a body. \`Cache-Control\`: anonymous reads \`public, max-age=0, s-maxage=<S>\`
(deploy setting \`publicCacheSeconds\`, default 10; 0: \`public, no-cache\`), answers to a request with a token
\`private, no-cache\`, errors \`no-store\`; \`Vary: Authorization, Origin\` on every cacheable answer.

**Lists** are bare JSON arrays. When another page follows, the response carries \`Link: <url>; rel="next"\`;
follow it rather than counting pages. \`X-Total-Count\` tells how many items the whole list holds (on 200, 304 and \`HEAD\`), on every
list but a search (a \`q\` that holds a word; on \`/tags\` any \`q\`), a user's favorites, the comment lists but a thread's replies, and
the open reports.

**Unknown paths and methods.** Any path not listed here answers 404 \`{"detail": "Not found."}\`, whatever the
method; a listed path with another method answers 405 \`{"detail": "Method \\"X\\" not allowed."}\` with an
\`Allow\` header; \`OPTIONS\` with \`Origin\` and \`Access-Control-Request-Method\` on any path is the CORS preflight
(204), answered by API Gateway (each path's \`options\` operation). Every \`GET\` but \`/logout\` also answers \`HEAD\`:
the same status and headers, no body, no side effect. The answers are the responses \`NotFound\`, \`MethodNotAllowed\` and
\`Preflight\` of \`components\`; which of them a path or method outside the operations gets is listed by the extensions
\`x-unmatched-path-responses\`, \`x-method-not-allowed-responses\` and \`x-preflight-responses\`.

**CORS.** Browsers on other origins may call every operation; responses expose the headers
${CORS_EXPOSED_HEADERS.map((header) => `\`${header}\``).join(', ')}.

**Timestamps** are UTC with microseconds: posts \`2026-01-05T14:12:15.258987+00:00\`, profiles
\`2026-01-05 14:12:15.258987+00:00\`.`;

/**
 * The routes in the order the document lists them: the order a client meets them in, so that
 * running each operation's example in document order against a new deployment works (sign up,
 * log in, profile, tags, posts, their votes and favorites, the documentation, then deleting the
 * post, changing the password and logging out, which ends the session). The operations of one
 * path stay together.
 */
const DOCUMENT_ORDER = [
  'users/signup',
  'users/list',
  'auth/login',
  'auth/check',
  'users/detail',
  'users/update',
  'tags/list',
  'tags/create',
  'tags/detail',
  'posts/list',
  'posts/create',
  'posts/tagged',
  'posts/author',
  'posts/mine',
  'posts/vote/show',
  'posts/vote/cast',
  'posts/vote/remove',
  'posts/favorite/show',
  'posts/favorite/add',
  'posts/favorite/remove',
  'posts/related',
  'users/favorites',
  'posts/comments/list',
  'posts/comments/create',
  'comments/detail',
  'comments/update',
  'comments/delete',
  'comments/replies',
  'users/comments',
  'posts/report/file',
  'posts/report/show',
  'comments/report/file',
  'comments/report/show',
  'reports/list',
  'reports/resolve',
  'users/suspension/show',
  'users/suspension/suspend',
  'users/suspension/reinstate',
  'feed/rss',
  'docs/index',
  'docs/openapi',
  'docs/page',
  'docs/asset',
  'posts/detail',
  'posts/update',
  'posts/delete',
  'users/password',
  'auth/logout',
];

/** The route table in DOCUMENT_ORDER; throws when the two differ, or a path's routes are apart. */
export function documentOrder(): Route[] {
  const byHandler = new Map(ROUTES.map((route) => [route.handler, route]));
  const ordered = DOCUMENT_ORDER.map((handler) => {
    const route = byHandler.get(handler);
    if (!route) throw new Error(`The OpenAPI document's order names ${handler}, which no route has.`);
    byHandler.delete(handler);
    return route;
  });
  if (byHandler.size > 0) throw new Error(`The OpenAPI document's order lacks ${[...byHandler.keys()].join(', ')}.`);
  ordered.forEach((route, i) => {
    if (i > 0 && ordered[i - 1]!.path !== route.path && ordered.slice(0, i - 1).some((earlier) => earlier.path === route.path)) {
      throw new Error(`The OpenAPI document's order puts the routes of ${route.path} apart.`);
    }
  });
  return ordered;
}

/** Who answers for the API; the deployment's frontend (SITE_URL) is not known to every function. */
const CONTACT = { name: 'Community Posts API maintainers' };

/** The project is not published under an open licence (package.json: private); `LicenseRef-` is SPDX's form for a licence not on its list. */
const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };

/** The base URL of the API for a request: the host it reached, as the paging links name it (requestBase). */
export function serverUrlOf(event: Parameters<typeof requestBase>[0]): string {
  return `${requestBase(event)}${API_PREFIX}`;
}

/** A route's key in the document's paths: OpenAPI paths start with `/`, so the API's root is `/`. */
export function openApiPath(route: Pick<Route, 'path'>): string {
  return route.path || '/';
}

/**
 * The document. `serverUrl` is the API's base URL (`.../api/v1`); the default, `/api/v1`, is
 * relative to wherever the document was fetched from.
 */
export function openApiDocument(serverUrl: string = API_PREFIX): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of documentOrder()) {
    const item = (paths[openApiPath(route)] ??= {});
    const get = operation(route);
    for (const method of routeMethods(route)) {
      item[method.toLowerCase()] =
        method === 'HEAD'
          ? {
              ...get,
              operationId: `${get.operationId}Head`,
              summary: `${get.summary} (headers only)`,
              description: `As \`GET\`, without the body and without side effects.`,
            }
          : get;
    }
  }
  for (const [path, item] of Object.entries(paths))
    item.options = preflightOperation(
      path,
      Object.keys(item).map((method) => method.toUpperCase()),
    );
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Community Posts API',
      version: '1.0.0',
      summary: 'Posts, tags and profiles of a community site.',
      description: DESCRIPTION,
      contact: CONTACT,
      license: LICENSE,
    },
    servers: [{ url: serverUrl, description: 'This API (version 1)' }],
    tags: [
      { name: 'Authentication', description: 'Log in, log out, check a token.' },
      { name: 'Users', description: 'Sign-up, profiles and password changes. Accounts are also created with the administrator CLI.' },
      { name: 'Tags', description: 'Tags of posts.' },
      { name: 'Posts', description: 'Posts with Markdown bodies; drafts are seen only by their authors.' },
      { name: 'Votes', description: 'One vote per user and post, up or down.' },
      { name: 'Favorites', description: "Posts a user keeps as favorites, and a user's list of them." },
      { name: 'Comments', description: "Comments on posts, with one level of replies, and a user's list of them." },
      { name: 'Reports', description: 'Reports of posts and comments, and their resolution by moderators.' },
      { name: 'Moderation', description: 'What moderators do to users: suspension.' },
      { name: 'Documentation', description: 'The index of the API, this document and its interactive page.' },
      { name: 'CORS', description: "The preflight answers API Gateway gives browsers on every path (the API's CORS settings)." },
    ],
    security: [{ tokenAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        tokenAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The header value is `Token <token>`, with a token from `POST /login`.',
        },
      },
      schemas: SCHEMAS,
      responses: RESPONSES,
    },
    'x-unmatched-path-responses': {
      '404': responseRef('NotFound'),
      '413': responseRef('PayloadTooLarge'),
      ...PLATFORM_RESPONSES,
    },
    'x-method-not-allowed-responses': {
      '405': responseRef('MethodNotAllowed'),
      '413': responseRef('PayloadTooLarge'),
      ...PLATFORM_RESPONSES,
    },
    'x-preflight-responses': {
      '204': responseRef('Preflight'),
      '429': responseRef('TooManyRequests'),
    },
  };
}

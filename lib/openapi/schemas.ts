import { PASSWORD_MESSAGES } from '#lib/auth/password-rules.ts';
import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import { EXCERPT_LENGTH, POST_LIMITS, WORDS_PER_MINUTE } from '#lib/posts/limits.ts';
import { MAX_SLUG_LENGTH, MAX_SUFFIXED_SLUG_LENGTH } from '#lib/slugs/rules.ts';
import { TAG_TITLE_MAX_LENGTH } from '#lib/tags/tag.ts';
import { ROUTES } from '#lib/routes.ts';
import { COMMENT_BODY_MAX, SETTABLE_STATUSES } from '#lib/comments/input.ts';
import { COMMENT_STATUSES, HIDERS, PREVIEW_REPLIES } from '#lib/comments/comment.ts';
import { REPORT_NOTE_MAX, RESOLVE_ACTIONS } from '#lib/reports/input.ts';
import { REPORT_REASONS } from '#lib/reports/report.ts';
import { PROFILE_SPECS, USERNAME_MAX_LENGTH } from '#lib/profiles/profile.ts';
import { BOOLEAN_TEXTS, type FieldSpec } from '#lib/validation.ts';

// The JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the document: resources, request bodies
// in both encodings, and the DRF-shaped errors. Limits come from the modules that enforce them.

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
/** `2026-01-05T14:12:15.258987+00:00` */
const POST_TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}\\+00:00$';
/** `2026-01-05 14:12:15.258987+00:00` */
const PROFILE_TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{6}\\+00:00$';
/** An http(s) URL (scheme in any case), or blank. */
const URL_OR_BLANK_PATTERN = '^([Hh][Tt][Tt][Pp][Ss]?://\\S+)?$';

/** `100000` → `100,000` (by hand: toLocaleString at module scope would load ICU data on every cold start). */
export const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * `^\s*(?:[Tt]|[Yy][Ee][Ss]|...)\s*$`: one of the texts in any case, with white space around it
 * (JSON Schema patterns have no case-insensitive flag).
 */
function textsPattern(texts: readonly string[]): string {
  const anyCase = (text: string) => [...text].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toUpperCase()}${c.toLowerCase()}]`)).join('');
  return `^\\s*(?:${texts.map(anyCase).join('|')})\\s*$`;
}

/** The texts a boolean field takes (lib/validation.ts): `true`, `on`, `yes`, `1`, ... in any case. */
export const BOOLEAN_TEXT_PATTERN = textsPattern([...BOOLEAN_TEXTS.true, ...BOOLEAN_TEXTS.false]);

const BOOLEAN_TEXTS_DESCRIPTION = `${BOOLEAN_TEXTS.true.map((t) => `\`${t}\``).join(', ')} (true) and ${BOOLEAN_TEXTS.false.map((t) => `\`${t}\``).join(', ')} (false), in any case`;

/** A boolean field as a form sends it (a checkbox sends `on`), or as JSON (a boolean, 0/1, or one of the texts). */
export function booleanField(encoding: 'json' | 'form', description: string): Schema {
  const text: Schema = { type: 'string', pattern: BOOLEAN_TEXT_PATTERN };
  const full = `${description ? `${description} ` : ''}Accepted as ${BOOLEAN_TEXTS_DESCRIPTION}${encoding === 'json' ? '; in JSON also `true`/`false` and `1`/`0`' : ''}.`;
  return encoding === 'form'
    ? { ...text, description: full, examples: ['on', 'true', 'false'] }
    : { anyOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }, text], description: full, examples: [true] };
}

/**
 * The most messages one field gets: the password rules each add one (too similar, too short,
 * too common, entirely numeric); every other field gets one.
 */
const MAX_FIELD_MESSAGES = Object.keys(PASSWORD_MESSAGES).length;

const messages: Schema = { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: MAX_FIELD_MESSAGES };

/** A field of the profile, as answered (`response`), sent as JSON, or sent as a form field. */
function profileField(spec: FieldSpec, encoding: 'response' | 'json' | 'form'): Schema {
  const form = encoding === 'form';
  const type = form || !spec.nullable ? 'string' : ['string', 'null'];
  switch (spec.type) {
    case 'date':
      // A form cannot send null: its empty value clears the date.
      return form
        ? { type: 'string', anyOf: [{ format: 'date' }, { const: '' }], description: 'YYYY-MM-DD; an empty value clears the date (null).' }
        : { type, format: 'date' };
    case 'url':
      return { type, ...(spec.maxLength ? { maxLength: spec.maxLength } : {}), pattern: URL_OR_BLANK_PATTERN, description: 'An http(s) URL, or blank.' };
    case 'string':
      return { type, ...(spec.maxLength ? { maxLength: spec.maxLength } : {}) };
    case 'boolean':
      return form ? booleanField('form', '') : { type: 'boolean' };
  }
}

const profileFields = (encoding: 'response' | 'json' | 'form'): Record<string, Schema> =>
  Object.fromEntries(Object.entries(PROFILE_SPECS).map(([name, spec]) => [name, profileField(spec as FieldSpec, encoding)]));

const counter: Schema = { type: 'integer', minimum: 0 };

const postTags = (form: boolean): Schema =>
  form
    ? {
        type: 'string',
        description: `Comma-separated tag titles (at most ${POST_LIMITS.tags} distinct ones, each at most ${TAG_TITLE_MAX_LENGTH} characters); matched case-insensitively to existing tags, unknown ones are created.`,
        examples: ['serverless, New Tag'],
      }
    : {
        description: `Comma-separated tag titles, or an array of titles (at most ${POST_LIMITS.tags} distinct ones, each at most ${TAG_TITLE_MAX_LENGTH} characters).`,
        oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string', maxLength: TAG_TITLE_MAX_LENGTH } }],
        examples: [['serverless', 'New Tag']],
      };

function postInput(form: boolean, partial: boolean): Schema {
  const optionalText = (max: number): Schema => (form ? { type: 'string', maxLength: max } : { type: ['string', 'null'], maxLength: max });
  return {
    type: 'object',
    ...(partial ? {} : { required: ['title', 'description'] }),
    properties: {
      title: { type: 'string', minLength: 1, maxLength: POST_LIMITS.title, description: 'Must contain a letter or digit (the slug is derived from it).' },
      description: {
        type: 'string',
        minLength: 1,
        maxLength: POST_LIMITS.description,
        description: `Markdown; at most ${thousands(POST_LIMITS.description)} characters (Unicode code points) and ${thousands(POST_LIMITS.descriptionBytes)} bytes in UTF-8.`,
      },
      tags: postTags(form),
      keywords: optionalText(POST_LIMITS.keywords),
      meta_description: optionalText(POST_LIMITS.meta_description),
      publish: booleanField(form ? 'form' : 'json', 'Absent on create: false (a draft).'),
      comments_locked: booleanField(
        form ? 'form' : 'json',
        "No new comments and no edits of comments, for everyone. The author's, and a moderator's on any post they can see. Absent on create: false.",
      ),
      is_featured: booleanField(
        form ? 'form' : 'json',
        "Moderators only (anyone else's is ignored): features the post (a published one; a draft is 400). A moderator's change of another's post holds this or `comments_locked`, and none of the author's fields.",
      ),
      ...(partial
        ? {
            modified: {
              type: 'string',
              description: "The post's `modified` as the client read it: when the post's current one differs, 409 and nothing changes. Absent: no check.",
              examples: ['2026-01-05T14:12:15.258987+00:00'],
            },
          }
        : {}),
    },
  };
}

/** The parameters of the post lists (lib/lists/list.ts) that a GET may send in its body instead. */
const LIST_BODY_FIELDS: Record<string, { description: string; examples?: unknown[] }> = {
  q: { description: 'As the query parameter `q`.', examples: ['serverless'] },
  sort: {
    description: 'As the query parameter `sort`: `newest`, `featured`, `views`, `votes` or `active`; any other value lists the newest first.',
    examples: ['views'],
  },
  page: { description: 'As the query parameter `page`.', examples: [2] },
  page_size: { description: 'As the query parameter `page_size`.', examples: [20] },
  cursor: { description: 'As the query parameter `cursor`.' },
  publish: { description: 'As the query parameter `publish` of `GET /posts/me`.', examples: [false] },
  view: { description: 'As the query parameter `view`: `summary`, or absent.', examples: ['summary'] },
};

/**
 * The body of a GET of a post list: its parameters for clients that send them there (the reference
 * service's did). Each is used only when the query string lacks it. In JSON a number or boolean is
 * taken as its text; values of other JSON types are ignored, as are other fields.
 */
function listBody(fields: readonly string[], encoding: 'json' | 'form'): Schema {
  return {
    type: 'object',
    description:
      'List parameters sent in the body of the GET, as clients of the reference service do; each is used only when the query string lacks it. ' +
      (encoding === 'json' ? 'A number or a boolean is taken as its text. ' : '') +
      'Other fields are ignored.',
    properties: Object.fromEntries(
      fields.map((name) => {
        const { description, examples } = LIST_BODY_FIELDS[name]!;
        const type = encoding === 'json' ? ['string', 'number', 'boolean'] : 'string';
        const shown = examples && encoding === 'form' ? examples.map(String) : examples;
        return [name, { type, description, ...(shown ? { examples: shown } : {}) }];
      }),
    ),
  };
}

const POST_LIST_FIELDS = ['q', 'sort', 'page', 'page_size', 'cursor', 'view'] as const;
const PAGE_FIELDS = ['page', 'page_size', 'cursor', 'view'] as const;

/**
 * A post as the API shows it (`full`), or as a list shows it with `view=summary`: without
 * `description`, with `excerpt` and `reading_time_minutes` after `meta_description`.
 */
function postSchema(view: 'full' | 'summary'): Schema {
  const properties: Record<string, Schema> = {
    author: { type: 'string', minLength: 1, maxLength: USERNAME_MAX_LENGTH },
    title: { type: 'string', minLength: 1, maxLength: POST_LIMITS.title },
    slug: ref('Slug'),
    ...(view === 'full' ? { description: { type: 'string', maxLength: POST_LIMITS.description, description: 'Markdown.' } } : {}),
    created: { type: 'string', format: 'date-time', pattern: POST_TIMESTAMP_PATTERN },
    modified: { type: 'string', format: 'date-time', pattern: POST_TIMESTAMP_PATTERN },
    publish: { type: 'boolean', description: 'false: a draft, seen only by its author.' },
    is_featured: { type: 'boolean' },
    tags: {
      type: 'array',
      maxItems: POST_LIMITS.tags,
      items: { type: 'string', minLength: 1, maxLength: TAG_TITLE_MAX_LENGTH },
      description: `Tag titles, at most ${POST_LIMITS.tags}.`,
    },
    keywords: { type: ['string', 'null'], maxLength: POST_LIMITS.keywords },
    meta_description: { type: ['string', 'null'], maxLength: POST_LIMITS.meta_description },
    ...(view === 'summary'
      ? {
          excerpt: {
            type: 'string',
            maxLength: EXCERPT_LENGTH + 1,
            description: `The meta description when it holds more than whitespace, else the description, as plain text (Markdown and HTML removed, whitespace runs as one space), cut to ${EXCERPT_LENGTH} code points at the last whitespace and ended with \`…\`.`,
          },
          reading_time_minutes: {
            type: 'integer',
            minimum: 1,
            description: `The description's words (runs of letters and digits) / ${WORDS_PER_MINUTE}, rounded up; at least 1.`,
          },
        }
      : {}),
    rating_likes: { ...counter, description: 'Users who voted the post up.' },
    rating_dislikes: { ...counter, description: 'Users who voted the post down.' },
    total_visitors: { ...counter, description: 'Distinct users who opened the post.' },
    total_favorites: { ...counter, description: 'Users who hold the post as a favorite.' },
    total_comments: { ...counter, description: 'Its published comments, replies included; the same for every caller.' },
    comments_locked: { type: 'boolean', description: 'No new comments and no edits of comments, for everyone (moderators too).' },
  };
  return {
    ...(view === 'summary'
      ? {
          description:
            'A post as a list shows it with `view=summary`: without `description`, with its `excerpt` and `reading_time_minutes` after `meta_description`.',
        }
      : {}),
    type: 'object',
    required: Object.keys(properties),
    properties,
    additionalProperties: false,
  };
}

/** `{"field": ["message", ...]}` for exactly these fields (and `non_field_errors`). */
export function fieldErrors(fields: readonly string[]): Schema {
  return {
    type: 'object',
    description: 'Field errors: each invalid field with its messages (DRF).',
    minProperties: 1,
    properties: Object.fromEntries([...fields, 'non_field_errors'].map((field) => [field, ref('Messages')])),
    additionalProperties: false,
  };
}

/** `{"detail": "..."}`, with the texts it may carry when they are fixed. */
export function detail(texts?: readonly string[]): Schema {
  return {
    type: 'object',
    required: ['detail'],
    properties: { detail: texts ? { type: 'string', enum: [...texts] } : { type: 'string' } },
    additionalProperties: false,
  };
}

const ENTITY_ID: Schema = { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$', minLength: 22, maxLength: 22 };
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

function commentInput(form: boolean, create: boolean): Schema {
  const body: Schema = {
    type: 'string',
    minLength: 1,
    description: `Markdown: 1 to ${thousands(COMMENT_BODY_MAX)} characters (Unicode code points) once trimmed.`,
    examples: ['Thanks, this helped!'],
  };
  if (create) {
    const parent: Schema = {
      description: "The comment answered (one of the post's published comments): the reply goes into its thread. Absent, null or blank: a top-level comment.",
      ...(form ? { type: 'string', anyOf: [ENTITY_ID, { const: '' }] } : { anyOf: [ENTITY_ID, { type: 'string', const: '' }, { type: 'null' }] }),
    };
    return { type: 'object', required: ['body'], properties: { body, parent } };
  }
  return {
    type: 'object',
    description: "Any of: `body` (its author), `status` (moderators and the post's author), `modified` (compared when `body` is sent).",
    properties: {
      body,
      status: { type: 'string', enum: [...SETTABLE_STATUSES], description: '`hidden` hides it from other readers; `published` shows it again.' },
      modified: {
        type: 'string',
        description: "The comment's `modified` as the client read it: with `body`, when the stored one differs, 409 and nothing changes.",
        examples: ['2026-01-05T14:20:00.000001+00:00'],
      },
    },
  };
}

function reportInput(form: boolean): Schema {
  return {
    type: 'object',
    required: ['reason'],
    properties: {
      reason: { type: 'string', enum: [...REPORT_REASONS] },
      note: form
        ? { type: 'string', maxLength: REPORT_NOTE_MAX, description: 'Optional; blank is none.' }
        : { type: ['string', 'null'], maxLength: REPORT_NOTE_MAX, description: 'Optional; blank or null is none.' },
    },
  };
}

const COMMENT_PROPERTIES: Record<string, Schema> = {
  id: ref('CommentId'),
  post: { ...ref('Slug'), description: "The post's slug now." },
  author: { type: ['string', 'null'], maxLength: USERNAME_MAX_LENGTH, description: 'Username; null on a placeholder.' },
  body: { type: 'string', maxLength: COMMENT_BODY_MAX, description: 'Markdown; empty on a placeholder.' },
  created: { type: 'string', format: 'date-time', pattern: POST_TIMESTAMP_PATTERN },
  modified: { type: 'string', format: 'date-time', pattern: POST_TIMESTAMP_PATTERN, description: 'The last change of `body` (`created` until then).' },
  edited: { type: 'boolean', description: 'True once `body` has changed.' },
  status: { type: 'string', enum: [...COMMENT_STATUSES] },
  hidden_by: { type: ['string', 'null'], enum: [...HIDERS, null], description: 'While hidden: who hid it.' },
  parent: { ...nullable(ref('CommentId')), description: "A reply's thread (its top-level comment); null for a top-level comment." },
  in_reply_to: { ...nullable(ref('CommentId')), description: 'A reply: the comment it answers (which may be gone since); null for a top-level comment.' },
  total_replies: { ...counter, description: 'A top-level comment: its listed (published or hidden) replies; a reply: 0.' },
};

const COMMENT_SCHEMAS: Record<string, Schema> = {
  CommentId: { ...ENTITY_ID, description: '22 characters of `A–Z a–z 0–9 - _`, random.', examples: ['3Jx9QmR2tK7vW1yZ4aB6cQ'] },
  Comment: {
    type: 'object',
    description: 'A comment as the caller may see it: a placeholder (author null, body empty) when deleted, or hidden from the caller.',
    required: Object.keys(COMMENT_PROPERTIES),
    properties: COMMENT_PROPERTIES,
    additionalProperties: false,
  },
  CommentThread: {
    type: 'object',
    description: `A top-level comment with its first ${PREVIEW_REPLIES} listed replies, oldest first (the rest: \`GET /comments/detail/{id}/replies\`).`,
    required: [...Object.keys(COMMENT_PROPERTIES), 'replies'],
    properties: { ...COMMENT_PROPERTIES, replies: { type: 'array', maxItems: PREVIEW_REPLIES, items: ref('Comment') } },
    additionalProperties: false,
  },
  CommentCreate: commentInput(false, true),
  CommentCreateForm: commentInput(true, true),
  CommentUpdate: commentInput(false, false),
  CommentUpdateForm: commentInput(true, false),
  CommentPageParameters: listBody(['page', 'page_size', 'cursor'], 'json'),
  CommentPageParametersForm: listBody(['page', 'page_size', 'cursor'], 'form'),
  ReportInput: reportInput(false),
  ReportInputForm: reportInput(true),
  ReportResolve: { type: 'object', required: ['action'], properties: { action: { type: 'string', enum: [...RESOLVE_ACTIONS] } } },
  PostReportTarget: {
    type: 'object',
    required: ['type', 'slug', 'title', 'author', 'publish'],
    properties: {
      type: { type: 'string', const: 'post' },
      slug: ref('Slug'),
      title: { type: 'string', minLength: 1, maxLength: POST_LIMITS.title },
      author: { type: 'string', maxLength: USERNAME_MAX_LENGTH },
      publish: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  CommentReportTarget: {
    type: 'object',
    required: ['type', 'id', 'post', 'author', 'body', 'status'],
    properties: {
      type: { type: 'string', const: 'comment' },
      id: ref('CommentId'),
      post: ref('Slug'),
      author: COMMENT_PROPERTIES.author!,
      body: COMMENT_PROPERTIES.body!,
      status: COMMENT_PROPERTIES.status!,
    },
    additionalProperties: false,
  },
  Report: {
    type: 'object',
    required: ['id', 'reason', 'note', 'reporter', 'created', 'status', 'resolved', 'resolved_by', 'target', 'open_reports'],
    properties: {
      id: ref('CommentId'),
      reason: { type: 'string', enum: [...REPORT_REASONS] },
      note: { type: ['string', 'null'], maxLength: REPORT_NOTE_MAX },
      reporter: { type: 'string', maxLength: USERNAME_MAX_LENGTH },
      created: { type: 'string', format: 'date-time', pattern: POST_TIMESTAMP_PATTERN },
      status: { type: 'string', enum: ['open', 'dismissed', 'removed'] },
      resolved: { type: ['string', 'null'], pattern: POST_TIMESTAMP_PATTERN, description: 'When it was resolved; null while open.' },
      resolved_by: { type: ['string', 'null'], maxLength: USERNAME_MAX_LENGTH, description: 'The moderator who resolved it; null while open.' },
      target: { oneOf: [ref('PostReportTarget'), ref('CommentReportTarget')] },
      open_reports: { ...counter, description: "The target's open reports." },
    },
    additionalProperties: false,
  },
  Suspension: { type: 'object', required: ['suspended'], properties: { suspended: { type: 'boolean' } }, additionalProperties: false },
};

export const SCHEMAS: Record<string, Schema> = {
  Token: { type: 'string', pattern: '^[0-9a-f]{40}$', description: '40 lowercase hex characters.', examples: ['ab146675a2c6da2b404ba8d5e34d5dc21aa5fa2d'] },
  Slug: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_SUFFIXED_SLUG_LENGTH,
    pattern: SLUG_PATTERN,
    description: `Lowercase letters and digits in words joined by single hyphens: a base of at most ${MAX_SLUG_LENGTH} characters, and \`-N\` when the base was taken.`,
    examples: ['hello-world'],
  },
  Messages: messages,
  Detail: detail(),
  GatewayMessage: {
    type: 'object',
    description: "API Gateway's own error body (also sent by the local server for bodies over 10 MiB).",
    required: ['message'],
    properties: { message: { type: 'string' } },
    additionalProperties: false,
  },
  Credentials: {
    type: 'object',
    required: ['username', 'password'],
    properties: {
      username: { type: 'string', minLength: 1, examples: ['alice'] },
      password: { type: 'string', minLength: 1, format: 'password', examples: ['correct horse battery'] },
    },
  },
  TokenResponse: { type: 'object', required: ['token'], properties: { token: ref('Token') }, additionalProperties: false },
  SignUp: {
    type: 'object',
    required: ['username', 'password'],
    properties: {
      username: {
        type: 'string',
        minLength: 1,
        maxLength: USERNAME_MAX_LENGTH,
        description: 'Letters, digits and @/./+/-/_; unique case-insensitively.',
        examples: ['alice'],
      },
      password: {
        type: 'string',
        minLength: 1,
        format: 'password',
        description: "Django's default rules: at least 8 characters, not entirely numeric, not a common password, not too similar to the username.",
        examples: ['correct horse battery'],
      },
    },
  },
  SignUpResponse: {
    type: 'object',
    required: ['id', 'username', 'token'],
    properties: { id: { type: 'integer', minimum: 1 }, username: { type: 'string', maxLength: USERNAME_MAX_LENGTH }, token: ref('Token') },
    additionalProperties: false,
  },
  PasswordChange: {
    type: 'object',
    required: ['old_password', 'new_password'],
    properties: {
      old_password: { type: 'string', minLength: 1, format: 'password' },
      new_password: { type: 'string', minLength: 1, format: 'password', description: 'Checked as at sign-up.' },
    },
  },
  AuthRecord: {
    type: 'object',
    required: ['id', 'token', 'username', 'is_moderator'],
    properties: {
      id: { type: 'integer', minimum: 1 },
      token: ref('Token'),
      username: { type: 'string', maxLength: USERNAME_MAX_LENGTH },
      is_moderator: { type: 'boolean', description: 'Whether the caller moderates (read with the token).' },
    },
    additionalProperties: false,
  },
  Profile: {
    type: 'object',
    required: ['user', 'last_login', 'date_joined', 'total_posts', 'total_favorites', 'total_featured_posts', ...Object.keys(PROFILE_SPECS), 'is_moderator'],
    properties: {
      user: { type: 'string', minLength: 1, maxLength: USERNAME_MAX_LENGTH, description: 'Username.' },
      last_login: {
        type: ['string', 'null'],
        format: 'date-time',
        pattern: PROFILE_TIMESTAMP_PATTERN,
        description: 'Null until the first login. RFC 3339 with a space for the `T` (as RFC 3339 allows), UTC, microseconds.',
        examples: ['2026-01-05 14:12:15.258987+00:00'],
      },
      date_joined: {
        type: 'string',
        format: 'date-time',
        pattern: PROFILE_TIMESTAMP_PATTERN,
        description: 'RFC 3339 with a space for the `T` (as RFC 3339 allows), UTC, microseconds.',
        examples: ['2026-01-02 09:30:00.000001+00:00'],
      },
      total_posts: { ...counter, description: "The user's published posts." },
      total_favorites: { ...counter, description: 'Favorites the user holds.' },
      total_featured_posts: { ...counter, description: "The user's published, featured posts." },
      ...profileFields('response'),
      is_moderator: { type: 'boolean', description: 'Read-only: set by `npm run admin -- set-moderator`.' },
    },
    additionalProperties: false,
  },
  ProfileUpdate: {
    type: 'object',
    description: 'Any subset of the editable fields; omitted fields keep their value, read-only and unknown fields are ignored.',
    properties: profileFields('json'),
  },
  ProfileUpdateForm: {
    type: 'object',
    description: 'Any subset of the editable fields; an empty value stores "" (birth_date: null).',
    properties: profileFields('form'),
  },
  Tag: {
    type: 'object',
    required: ['title', 'slug', 'total_posts'],
    properties: {
      title: { type: 'string', minLength: 1, maxLength: TAG_TITLE_MAX_LENGTH },
      slug: ref('Slug'),
      total_posts: { ...counter, description: 'Published posts carrying the tag.' },
    },
    additionalProperties: false,
  },
  TagCreate: {
    type: 'object',
    required: ['title'],
    properties: {
      title: { type: 'string', minLength: 1, maxLength: TAG_TITLE_MAX_LENGTH },
      slug: {
        type: 'string',
        maxLength: MAX_SLUG_LENGTH,
        pattern: `^$|${SLUG_PATTERN}`,
        description: 'Optional; blank or absent: derived from the title.',
      },
    },
  },
  Post: postSchema('full'),
  PostSummary: postSchema('summary'),
  ListedPost: { description: 'A post, or its summary (`view=summary`).', oneOf: [ref('Post'), ref('PostSummary')] },
  PostCreate: postInput(false, false),
  PostCreateForm: postInput(true, false),
  PostUpdate: postInput(false, true),
  PostUpdateForm: postInput(true, true),
  PostListParameters: listBody(POST_LIST_FIELDS, 'json'),
  PostListParametersForm: listBody(POST_LIST_FIELDS, 'form'),
  MyPostListParameters: listBody([...POST_LIST_FIELDS, 'publish'], 'json'),
  MyPostListParametersForm: listBody([...POST_LIST_FIELDS, 'publish'], 'form'),
  PageParameters: listBody(PAGE_FIELDS, 'json'),
  PageParametersForm: listBody(PAGE_FIELDS, 'form'),
  VoteInput: { type: 'object', required: ['vote'], properties: { vote: { type: 'string', enum: ['up', 'down'] } } },
  VoteState: {
    type: 'object',
    required: ['vote', 'rating_likes', 'rating_dislikes'],
    properties: { vote: { type: ['string', 'null'], enum: ['up', 'down', null] }, rating_likes: counter, rating_dislikes: counter },
    additionalProperties: false,
  },
  FavoriteState: {
    type: 'object',
    required: ['favorited', 'total_favorites'],
    properties: { favorited: { type: 'boolean' }, total_favorites: counter },
    additionalProperties: false,
  },
  ...COMMENT_SCHEMAS,
  ApiIndex: {
    type: 'object',
    description: 'Where the documentation is, and every endpoint.',
    required: ['name', 'version', 'docs', 'openapi', 'endpoints'],
    properties: {
      name: { type: 'string' },
      version: { type: 'string' },
      docs: { type: 'string', description: 'The interactive reference (Swagger UI).' },
      openapi: { type: 'string', description: 'The OpenAPI document.' },
      endpoints: {
        type: 'array',
        // One per route: the index lists no HEAD twin.
        maxItems: ROUTES.length,
        items: {
          type: 'object',
          required: ['method', 'path', 'summary', 'token'],
          properties: {
            method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'DELETE'] },
            path: { type: 'string', description: 'With the `{name}` parameters of the OpenAPI document.' },
            summary: { type: 'string' },
            token: { type: 'boolean', description: 'Whether it needs `Authorization: Token <token>`.' },
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
  OpenApiDocument: {
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' }, info: { type: 'object' }, paths: { type: 'object' } },
  },
};

/** Bodies over this size are refused with 413 by the functions. */
export const BODY_LIMIT_BYTES = MAX_BODY_BYTES;

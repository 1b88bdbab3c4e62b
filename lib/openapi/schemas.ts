import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import { POST_LIMITS } from '#lib/posts/limits.ts';
import { MAX_SLUG_LENGTH } from '#lib/slugs/rules.ts';
import { TAG_TITLE_MAX_LENGTH } from '#lib/tags/tag.ts';
import { PROFILE_SPECS, USERNAME_MAX_LENGTH } from '#lib/users/profile.ts';
import type { FieldSpec } from '#lib/validation.ts';

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

const messages: Schema = { type: 'array', items: { type: 'string' }, minItems: 1 };

/** A field of the profile, as answered (`response`), sent as JSON, or sent as a form field. */
function profileField(spec: FieldSpec, encoding: 'response' | 'json' | 'form'): Schema {
  const form = encoding === 'form';
  const type = form || !spec.nullable ? 'string' : ['string', 'null'];
  switch (spec.type) {
    case 'date':
      return { type, format: 'date', ...(form ? { description: 'YYYY-MM-DD; an empty value means null.' } : {}) };
    case 'url':
      return { type, ...(spec.maxLength ? { maxLength: spec.maxLength } : {}), pattern: URL_OR_BLANK_PATTERN, description: 'An http(s) URL, or blank.' };
    case 'string':
      return { type, ...(spec.maxLength ? { maxLength: spec.maxLength } : {}) };
    case 'boolean':
      return { type: form ? 'string' : 'boolean' };
  }
}

const profileFields = (encoding: 'response' | 'json' | 'form'): Record<string, Schema> =>
  Object.fromEntries(Object.entries(PROFILE_SPECS).map(([name, spec]) => [name, profileField(spec as FieldSpec, encoding)]));

const counter: Schema = { type: 'integer', minimum: 0 };

const postTags = (form: boolean): Schema =>
  form
    ? { type: 'string', description: `Comma-separated tag titles (at most ${POST_LIMITS.tags} distinct ones, each at most ${TAG_TITLE_MAX_LENGTH} characters); matched case-insensitively to existing tags, unknown ones are created.`, examples: ['serverless, New Tag'] }
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
      publish: { type: 'boolean', description: 'Absent on create: false (a draft). Also accepted as text: true/false, yes/no, on/off, 1/0, t/f, y/n.' },
    },
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

export const SCHEMAS: Record<string, Schema> = {
  Token: { type: 'string', pattern: '^[0-9a-f]{40}$', description: '40 lowercase hex characters.', examples: ['ab146675a2c6da2b404ba8d5e34d5dc21aa5fa2d'] },
  Slug: { type: 'string', pattern: SLUG_PATTERN, examples: ['hello-world'] },
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
      username: { type: 'string', minLength: 1, maxLength: USERNAME_MAX_LENGTH, description: 'Letters, digits and @/./+/-/_; unique case-insensitively.', examples: ['alice'] },
      password: { type: 'string', minLength: 1, format: 'password', description: "Django's default rules: at least 8 characters, not entirely numeric, not a common password, not too similar to the username.", examples: ['correct horse battery'] },
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
    required: ['id', 'token', 'username'],
    properties: { id: { type: 'integer', minimum: 1 }, token: ref('Token'), username: { type: 'string', maxLength: USERNAME_MAX_LENGTH } },
    additionalProperties: false,
  },
  Profile: {
    type: 'object',
    required: ['user', 'last_login', 'date_joined', 'total_posts', 'total_favorites', 'total_featured_posts', ...Object.keys(PROFILE_SPECS)],
    properties: {
      user: { type: 'string', minLength: 1, maxLength: USERNAME_MAX_LENGTH, description: 'Username.' },
      last_login: { type: ['string', 'null'], pattern: PROFILE_TIMESTAMP_PATTERN, description: 'Null until the first login.' },
      date_joined: { type: 'string', pattern: PROFILE_TIMESTAMP_PATTERN },
      total_posts: { ...counter, description: "The user's published posts." },
      total_favorites: { ...counter, description: 'Favorites the user holds.' },
      total_featured_posts: { ...counter, description: "The user's published, featured posts." },
      ...profileFields('response'),
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
  Post: {
    type: 'object',
    required: [
      'author', 'title', 'slug', 'description', 'created', 'modified', 'publish', 'is_featured', 'tags',
      'keywords', 'meta_description', 'rating_likes', 'rating_dislikes', 'total_visitors', 'total_favorites',
    ],
    properties: {
      author: { type: 'string', minLength: 1, maxLength: USERNAME_MAX_LENGTH },
      title: { type: 'string', minLength: 1, maxLength: POST_LIMITS.title },
      slug: ref('Slug'),
      description: { type: 'string', maxLength: POST_LIMITS.description, description: 'Markdown.' },
      created: { type: 'string', format: 'date-time', pattern: POST_TIMESTAMP_PATTERN },
      modified: { type: 'string', format: 'date-time', pattern: POST_TIMESTAMP_PATTERN },
      publish: { type: 'boolean', description: 'false: a draft, seen only by its author.' },
      is_featured: { type: 'boolean' },
      tags: { type: 'array', maxItems: POST_LIMITS.tags, items: { type: 'string', minLength: 1, maxLength: TAG_TITLE_MAX_LENGTH }, description: `Tag titles, at most ${POST_LIMITS.tags}.` },
      keywords: { type: ['string', 'null'], maxLength: POST_LIMITS.keywords },
      meta_description: { type: ['string', 'null'], maxLength: POST_LIMITS.meta_description },
      rating_likes: { ...counter, description: 'Users who voted the post up.' },
      rating_dislikes: { ...counter, description: 'Users who voted the post down.' },
      total_visitors: { ...counter, description: 'Distinct users who opened the post.' },
      total_favorites: { ...counter, description: 'Users who hold the post as a favorite.' },
    },
    additionalProperties: false,
  },
  PostCreate: postInput(false, false),
  PostCreateForm: postInput(true, false),
  PostUpdate: postInput(false, true),
  PostUpdateForm: postInput(true, true),
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

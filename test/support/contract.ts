// The API's bodies as the contract (DRF's serializers) gives them: each body's fields in order,
// written out here rather than read from lib/, so that a test comparing with them can fail.

export const POST_FIELDS = [
  'author',
  'title',
  'slug',
  'description',
  'created',
  'modified',
  'publish',
  'is_featured',
  'tags',
  'keywords',
  'meta_description',
  'rating_likes',
  'rating_dislikes',
  'total_visitors',
  'total_favorites',
  // v1.3: appended after every v1.2 key.
  'total_comments',
  'comments_locked',
];

export const PROFILE_FIELDS = [
  'user',
  'last_login',
  'date_joined',
  'total_posts',
  'total_favorites',
  'total_featured_posts',
  'display_name',
  'location',
  'about_me',
  'website',
  'twitter',
  'linkedin',
  'github',
  'birth_date',
  // v1.3: appended after every v1.2 key.
  'is_moderator',
];

export const TAG_FIELDS = ['title', 'slug', 'total_posts'];

/** A profile's editable fields as a new account has them: all null. */
export const EMPTY_PROFILE_FIELDS = {
  display_name: null,
  location: null,
  about_me: null,
  website: null,
  twitter: null,
  linkedin: null,
  github: null,
  birth_date: null,
};

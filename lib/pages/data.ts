import { batchGet } from '#lib/db/batch.ts';
import { ServiceUnavailable } from '#lib/errors.ts';
import { excerptOf, cutText } from '#lib/posts/excerpt.ts';
import { postReads } from '#lib/posts/detail.ts';
import { postFromRead, type PostRecord } from '#lib/posts/post.ts';
import { renamedTarget } from '#lib/posts/renamed.ts';
import { readAsVisitor, type VisitorRead } from '#lib/reads/anonymous.ts';
import { authoredList, allPostsList, postDetail, profileDetailRead, tagDetailRead, tagsList, taggedList } from '#lib/reads/routes.ts';
import type { PublicReadRoute } from '#lib/http/endpoint.ts';
import type { MatchedRoute } from '#lib/site/routes.ts';
import { POSTS_PAGE_SIZE, readKey, TAGS_PAGE_SIZE, type PreloadedAnswer, type PreloadedAnswers } from '#lib/site/reads.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { slugify } from '#lib/slugs/slugify.ts';
import type { Head } from './head.ts';

// What a rendered page is made of (docs/site.md, "Pages for crawlers and link previews"): the
// API answers its components show, read as a reader without an account, and its head. A post is
// at most 3 sequential round trips: the post (or, when no post holds the slug, the rename
// record and the post that left it), then its tags' pages.

export interface PageContext {
  origin: string;
  siteName: string;
  /** The path as requested (URL-encoded): the 404's canonical. */
  path: string;
}

export type PageData = { kind: 'page'; status: 200 | 404; head: Head; answers: PreloadedAnswers } | { kind: 'moved'; location: string };

const encode = encodeURIComponent;

/** The site's own description, of the home page and the pages that have none of their own. */
export const siteDescription = (siteName: string) => `${siteName}: read, write, vote on and discuss the community's posts.`;

/** The "Page not found" page; `answers` make the page's own component show it (a post's 404). */
function notFound(context: PageContext, answers: PreloadedAnswers = {}): PageData {
  return {
    kind: 'page',
    status: 404,
    answers,
    head: {
      subject: 'Page not found',
      description: siteDescription(context.siteName),
      ogType: 'website',
      canonical: `${context.origin}${context.path}`,
      noindex: true,
    },
  };
}

const NOT_FOUND_ANSWER: PreloadedAnswer = { status: 404, headers: {}, body: { detail: 'Not found.' } };

/** A read of a page; a server failure makes the page fail (503) rather than show it. */
async function visit<T, P>(route: PublicReadRoute<T, P>, read: VisitorRead) {
  const result = await readAsVisitor(route, read);
  if (result.answer.status >= 500) throw new ServiceUnavailable();
  return result;
}

/** The answers of `reads`, by key. */
function answersOf(...reads: { key: string; answer: PreloadedAnswer }[]): PreloadedAnswers {
  return Object.fromEntries(reads.map(({ key, answer }) => [key, answer]));
}

const isEmptyList = (answer: PreloadedAnswer) => Array.isArray(answer.body) && answer.body.length === 0;

/** Tag titles, then the post's comma-separated keywords: trimmed, no blanks, no repeats whatever their case. */
function keywordsOf(post: PostRecord): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const word of [...post.tags, ...String(post.keywords ?? '').split(',')]) {
    const trimmed = word.trim();
    if (trimmed === '' || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    words.push(trimmed);
  }
  return words;
}

async function postPage(slug: string, context: PageContext): Promise<PageData> {
  const key = readKey(`/posts/detail/${encode(slug)}`);
  if (!couldBeSlug(slug)) return notFound(context, { [key]: NOT_FOUND_ANSWER });
  const items = await batchGet(postReads(slug));
  const post = postFromRead(items, slug);
  if (!post) {
    // No post holds the slug: the post that last left it by a rename, if it still exists.
    const target = await renamedTarget(slug);
    return target.kind === 'moved'
      ? { kind: 'moved', location: `${context.origin}/posts/${encode(target.slug)}` }
      : notFound(context, { [key]: NOT_FOUND_ANSWER });
  }
  // A draft holds its slug: 404 for everyone here; in the browser the app shows it to its author.
  if (!post.publish) return notFound(context, { [key]: NOT_FOUND_ANSWER });
  const [detail, ...tags] = await Promise.all([
    visit(postDetail, { path: `/posts/detail/${encode(slug)}`, params: { slug }, origin: context.origin, items }),
    ...post.tags.map((title) => {
      const tagSlug = slugify(title);
      return visit(tagDetailRead, { path: `/tags/detail/${encode(tagSlug)}`, params: { slug: tagSlug }, origin: context.origin });
    }),
  ]);
  const canonical = `${context.origin}/posts/${encode(post.slug)}`;
  const author = `${context.origin}/users/${encode(post.author)}`;
  const description = excerptOf(post);
  return {
    kind: 'page',
    status: 200,
    answers: answersOf(detail!, ...tags.filter((tag) => tag.answer.status === 200)),
    head: {
      subject: post.title,
      description,
      ogType: 'article',
      canonical,
      noindex: false,
      properties: [
        ['article:published_time', post.created],
        ['article:modified_time', post.modified],
        ['article:author', author],
        ...post.tags.map((tag): [string, string] => ['article:tag', tag]),
      ],
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: post.title,
        description,
        author: { '@type': 'Person', name: post.author, url: author },
        datePublished: post.created,
        dateModified: post.modified,
        keywords: keywordsOf(post),
        mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
        publisher: { '@type': 'Organization', name: context.siteName },
      },
    },
  };
}

const summaryPage = { page: 1, page_size: POSTS_PAGE_SIZE, view: 'summary' } as const;

async function homePage(context: PageContext): Promise<PageData> {
  const list = await visit(allPostsList, { path: '/posts', query: { ...summaryPage, sort: 'newest' }, origin: context.origin });
  return {
    kind: 'page',
    status: 200,
    answers: answersOf(list),
    head: { subject: null, description: siteDescription(context.siteName), ogType: 'website', canonical: `${context.origin}/`, noindex: false },
  };
}

async function tagsPage(context: PageContext): Promise<PageData> {
  const list = await visit(tagsList, { path: '/tags', query: { page: 1, page_size: TAGS_PAGE_SIZE }, origin: context.origin });
  return {
    kind: 'page',
    status: 200,
    answers: answersOf(list),
    head: { subject: 'Tags', description: `All tags on ${context.siteName}.`, ogType: 'website', canonical: `${context.origin}/tags`, noindex: false },
  };
}

async function tagPage(slug: string, context: PageContext): Promise<PageData> {
  const [tag, posts] = await Promise.all([
    visit(tagDetailRead, { path: `/tags/detail/${encode(slug)}`, params: { slug }, origin: context.origin }),
    visit(taggedList, { path: `/posts/tagged/${encode(slug)}`, params: { slug }, query: summaryPage, origin: context.origin }),
  ]);
  if (tag.answer.status !== 200) return notFound(context, answersOf(tag));
  const { title } = tag.answer.body as { title: string };
  const subject = `Posts tagged “${title}”`;
  return {
    kind: 'page',
    status: 200,
    answers: answersOf(tag, posts),
    head: {
      subject,
      description: `${subject} on ${context.siteName}.`,
      ogType: 'website',
      canonical: `${context.origin}/tags/${encode(slug)}`,
      // A tag without a published post: a page, but not one to index.
      noindex: isEmptyList(posts.answer),
      feeds: [{ title: `${context.siteName}: ${title}`, href: `/api/v1/feed?tag=${encode(slug)}` }],
    },
  };
}

async function userPage(username: string, context: PageContext): Promise<PageData> {
  const [profile, posts] = await Promise.all([
    visit(profileDetailRead, { path: `/users/detail/${encode(username)}`, params: { username }, origin: context.origin }),
    visit(authoredList, { path: `/posts/author/${encode(username)}`, params: { username }, query: summaryPage, origin: context.origin }),
  ]);
  if (profile.answer.status !== 200) return notFound(context, answersOf(profile));
  const { user, display_name: displayName, about_me: aboutMe } = profile.answer.body as { user: string; display_name: string | null; about_me: string | null };
  const name = displayName || user;
  const about = (aboutMe ?? '').replace(/\s+/gu, ' ').trim();
  return {
    kind: 'page',
    status: 200,
    answers: answersOf(profile, posts),
    head: {
      subject: name,
      description: about ? cutText(about) : `Posts by ${name} on ${context.siteName}.`,
      ogType: 'profile',
      canonical: `${context.origin}/users/${encode(user)}`,
      noindex: isEmptyList(posts.answer),
      properties: [['profile:username', user]],
    },
  };
}

/** The content and head of a rendered route's page, or where it moved. */
export function pageData({ route, params }: MatchedRoute, context: PageContext): Promise<PageData> {
  switch (route.page) {
    case 'post':
      return postPage(params.slug!, context);
    case 'tags':
      return tagsPage(context);
    case 'tag':
      return tagPage(params.slug!, context);
    case 'user':
      return userPage(params.username!, context);
    case 'home':
      return homePage(context);
    default:
      return Promise.resolve(notFound(context));
  }
}

export { notFound as notFoundPage };

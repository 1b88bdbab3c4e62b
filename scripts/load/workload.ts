import { LIST_PAGE_SIZE, type MixEntry } from './mix.ts';
import { postBody, postTags, postTitle, skewedIndex, type World } from './world.ts';

// One request of a mix entry over the seeded world: the kinds of docs/scale.md's mix, as a
// client of the site would send them (a random user, mostly the newest posts).

export interface PlannedRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the API prefix, with its query string. */
  path: string;
  token?: string;
  form?: Record<string, string>;
  json?: unknown;
  /** Keeps the world up to date with what the answer made (a post created, a visit recorded). */
  onAnswer?: (status: number, body: string) => void;
}

const PAGE = `page_size=${LIST_PAGE_SIZE}`;

export function planRequest(entry: MixEntry, world: World, random: () => number): PlannedRequest {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const user = Math.floor(random() * world.users.length);
  const token = world.users[user]!.token;
  const post = () => world.posts[skewedIndex(random, world.posts.length)]!;
  // An author may not vote on their own post (403): votes go to other users' posts.
  const othersPost = () => {
    let picked = post();
    for (let attempt = 0; attempt < 20 && picked.author === user; attempt++) picked = post();
    return picked;
  };
  const tag = () => world.tags[Math.floor(world.tags.length * random() ** 2)]!.slug;
  switch (entry.kind) {
    case 'front list, newest':
      return { method: 'GET', path: `/posts?${PAGE}`, token };
    case 'front list, votes':
    case 'front list, views':
    case 'front list, featured':
    case 'front list, active':
      return { method: 'GET', path: `/posts?sort=${entry.kind.split(', ')[1]}&${PAGE}`, token };
    case 'front list, page 2 (Link)':
      return { method: 'GET', path: world.frontPage2 ?? `/posts?${PAGE}&page=2`, token };
    case 'tagged list':
      return { method: 'GET', path: `/posts/tagged/${tag()}?${PAGE}`, token };
    case 'author list':
      return { method: 'GET', path: `/posts/author/${world.users[post().author]!.username}?${PAGE}`, token };
    case 'own posts':
      return { method: 'GET', path: `/posts/me?${PAGE}`, token };
    case 'post detail, first visit':
      return firstVisit(world, random);
    case 'post detail, repeat visit': {
      if (world.visits.length === 0) return firstVisit(world, random);
      const [reader, index] = pick(world.visits);
      return { method: 'GET', path: `/posts/detail/${world.posts[index]!.slug}`, token: world.users[reader]!.token };
    }
    case 'search, front list':
      return { method: 'GET', path: `/posts?q=${pick(world.searchWords)}&${PAGE}`, token };
    case 'search, tagged list':
      return { method: 'GET', path: `/posts/tagged/${tag()}?q=${pick(world.searchWords)}&${PAGE}`, token };
    case 'vote':
      return { method: 'POST', path: `/posts/detail/${othersPost().slug}/vote`, token, form: { vote: random() < 0.75 ? 'up' : 'down' } };
    case 'favorite or unfavorite':
      return { method: random() < 0.6 ? 'POST' : 'DELETE', path: `/posts/detail/${post().slug}/favorite`, token };
    case 'post create':
      return {
        method: 'POST',
        path: '/posts',
        token,
        form: { title: postTitle(random, world.posts.length), description: postBody(random), tags: postTags(random, world.tags), publish: 'true' },
        onAnswer: (status, body) => {
          if (status === 201) world.posts.push({ slug: (JSON.parse(body) as { slug: string }).slug, author: user });
        },
      };
    case 'post update': {
      const own = post();
      return { method: 'PUT', path: `/posts/detail/${own.slug}`, token: world.users[own.author]!.token, form: { description: postBody(random) } };
    }
    case 'login': {
      const { username, password } = world.users[user]!;
      return { method: 'POST', path: '/login', json: { username, password } };
    }
    case 'tags list':
      return { method: 'GET', path: `/tags?${PAGE}`, token };
    case 'user detail':
      return { method: 'GET', path: `/users/detail/${pick(world.users).username}`, token };
    case "a user's favorites":
      return { method: 'GET', path: `/users/detail/${pick(world.users).username}/favorites?${PAGE}`, token };
    case 'RSS feed':
      return { method: 'GET', path: '/feed' };
    default:
      throw new Error(`No request for the mix entry "${entry.kind}"`);
  }
}

/** A post read for the first time by its reader: a (user, post) pair never sent before. */
function firstVisit(world: World, random: () => number): PlannedRequest {
  const unread = (reader: number, index: number) => !world.visited.has(`${reader}#${index}`);
  let reader = Math.floor(random() * world.users.length);
  let index = skewedIndex(random, world.posts.length);
  // The newest posts run out of unread pairs first: then the newest post someone has not read.
  for (let attempt = 0; attempt < 20 && !unread(reader, index); attempt++) {
    reader = Math.floor(random() * world.users.length);
    index = skewedIndex(random, world.posts.length);
  }
  for (let i = world.posts.length * world.users.length - 1; i >= 0 && !unread(reader, index); i--) {
    index = Math.floor(i / world.users.length);
    reader = i % world.users.length;
  }
  if (unread(reader, index)) {
    world.visited.add(`${reader}#${index}`);
    return {
      method: 'GET',
      path: `/posts/detail/${world.posts[index]!.slug}`,
      token: world.users[reader]!.token,
      onAnswer: (status) => {
        if (status === 200) world.visits.push([reader, index]);
      },
    };
  }
  throw new Error('No unread (user, post) pair left: seed more users or posts, or run shorter');
}

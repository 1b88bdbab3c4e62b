import type { Item } from '#lib/db/batch.ts';
import { postCreatedOfActive } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import type { Window } from '#lib/search/find.ts';
import type { PostList } from './post-lists.ts';

// Which posts a page of a search reads, decided without I/O from what its first round trip read
// (search.ts does the reads). Every query word has a window: its newest postings (find.ts). A
// window knows, for any post at least as new as the end it reached, whether the post has the
// word; past it, nothing. So:
// - in creation order (`newest`, `featured`) the page's candidates are the posts in every window
//   that are at least as new as the newest of the windows' ends (the page's reach): exactly the
//   matches that new. When they are too few for the page, the page is short and its `Link`
//   continues from the reach: a page never reads past what its windows tell.
// - in an order the postings do not carry (`views`, `votes`, `active`), the list's entries in
//   that order are walked (the leading entries, from the page's cursor): an entry's post is in or
//   out by the windows where they reach it, else by its own posting of the word, read with the
//   posts (a check), at most so many a page.
// Posts changed in the last moments (the fresh entries) may not be in the index yet: they are
// candidates whatever the windows say, and their words are checked on the post as read.

/** A post a page may show, in the order it would rank: where to read it and what to check when read. */
export interface Candidate {
  id: string;
  /** Where its items are read first: its entry's slug, or the slug its posting was written under. */
  slug: string;
  /** Its key in the list's order: what the page's cursor continues after. */
  key: string;
  /** Its key by creation (`created#id`): where its postings are. */
  creation: string;
  /** Its words are checked on the post as read (a post changed too lately for the index to be sure of). */
  fresh: boolean;
  /** Whether the index holds it with every query word (a fresh post's fallback when its summary cannot tell). */
  indexed: boolean;
  /** The query words whose postings of this post are to be read to tell whether it has them. */
  checks: string[];
}

/** The first entries of a list in its order (from the page's cursor), as the first round trip reads them. */
export interface LeadingEntries {
  items: Item[];
  /** Whether they reach the end of the list. */
  complete: boolean;
}

/** Whether a post with creation key `key` has the window's word: known where the window reaches. */
export function windowSays(window: Window, id: string, key: string): 'yes' | 'no' | 'unknown' {
  if (window.postings.has(id)) return 'yes';
  return window.reach === undefined || key >= window.reach ? 'no' : 'unknown';
}

/** The newest of the windows' ends: every post at least this new is known to every window. Undefined when every window is whole. */
export function reachOf(windows: readonly Window[]): string | undefined {
  let reach: string | undefined;
  for (const window of windows) if (window.reach !== undefined && (reach === undefined || window.reach > reach)) reach = window.reach;
  return reach;
}

/** The creation key (`created#id`) inside an entry's key in any of the four post orders. */
export function creationKeyOf(sortAttribute: string, value: string): string {
  return sortAttribute === INDEXES.postsByCreated.sortKey ? value : (postCreatedOfActive(value) ?? value);
}

/** The fresh entries as candidates: their current slug and creation key. */
function freshCandidates(fresh: readonly Item[]): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>();
  for (const entry of fresh) {
    const key = creationKeyOf(INDEXES.postsByActive.sortKey, String(entry[INDEXES.postsByActive.sortKey] ?? ''));
    candidates.set(String(entry.post_id), { id: String(entry.post_id), slug: String(entry.slug), key, creation: key, fresh: true, indexed: false, checks: [] });
  }
  return candidates;
}

/** What a page in creation order reads: its candidates, newest first, and where it goes on when they are not enough. */
export interface CreationPlan {
  candidates: Candidate[];
  /**
   * The last post the page looks at (the last candidate the index holds, when more are left) or
   * its reach (reachOf): the next page starts below it. Undefined when nothing is left.
   */
  stoppedAt?: { id: string; key: string };
}

/**
 * The candidates of a page in creation order: the posts every window holds, no older than the
 * page's reach, that the list may hold by what their postings carry (and, where the list's
 * entries were read whole, that are among them), the `wanted` newest of them; and beside them
 * the fresh posts in the same span (never in their place). Newest first.
 */
export function creationPlan(input: {
  windows: readonly Window[];
  list: PostList;
  fresh: readonly Item[];
  wanted: number;
  /** The list's entries read whole from the page's start, when its posts are told by them (a tag's list, featured posts). */
  members?: readonly Item[];
  /** The key the page starts below (its cursor's). */
  below?: string;
}): CreationPlan {
  const { windows, list, below, wanted } = input;
  const reach = reachOf(windows);
  const inSpan = (key: string) => (reach === undefined || key >= reach) && (below === undefined || key < below);
  const members = input.members && new Map(input.members.map((entry) => [String(entry.post_id), String(entry.slug)]));
  const held = new Map<string, Candidate>();
  const [first, ...others] = windows;
  for (const [id, posting] of first?.postings ?? []) {
    if (!others.every((window) => window.postings.has(id)) || !list.mayHold(posting) || !inSpan(posting.key)) continue;
    if (members && !members.has(id)) continue;
    held.set(id, { id, slug: members?.get(id) ?? posting.slug, key: posting.key, creation: posting.key, fresh: false, indexed: true, checks: [] });
  }
  const fresh = [...freshCandidates(input.fresh).values()].filter(({ id, key }) => inSpan(key) && (!members || members.has(id)));
  for (const candidate of fresh) if (held.has(candidate.id)) held.set(candidate.id, { ...candidate, indexed: true });
  const read = [...held.values()].sort(newestFirst).slice(0, wanted);
  const cut = held.size > wanted ? read.at(-1)! : undefined;
  const unheld = fresh.filter(({ id, key }) => !held.has(id) && (cut === undefined || key > cut.key));
  const stoppedAt = cut
    ? { id: cut.id, key: cut.key }
    : reach !== undefined && matchesMayLieBelow(windows, reach, list)
      ? { id: reach.slice(reach.lastIndexOf('#') + 1), key: reach }
      : undefined;
  return { candidates: [...read, ...unheld].sort(newestFirst), ...(stoppedAt ? { stoppedAt } : {}) };
}

/**
 * Whether a match may lie below the reach: the whole windows (a word with few postings) hold
 * every match there is, so when none of their posts below the reach is in all of them, none is
 * left for a next page. With no whole window, nothing is known below the reach.
 */
function matchesMayLieBelow(windows: readonly Window[], reach: string, list: PostList): boolean {
  const whole = windows.filter((window) => window.reach === undefined);
  const [first, ...others] = whole;
  if (!first) return true;
  for (const [id, posting] of first.postings)
    if (posting.key < reach && list.mayHold(posting) && others.every((window) => window.postings.has(id))) return true;
  return false;
}

const newestFirst = (a: { key: string }, b: { key: string }) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);

/** What a page in an order of the entries reads: its candidates in that order, and how far down the entries it looked. */
export interface EntryPlan {
  candidates: Candidate[];
  /** The number of leading entries looked at: the page continues after the last of them. */
  examined: number;
}

/**
 * The candidates of a page in an order the postings do not carry, walking the list's leading
 * entries: an entry is out when a window that reaches it lacks it; in when every window holds it;
 * else in with checks of the words whose windows stop short of it, as long as `checkBudget`
 * allows (the walk stops before an entry that would pass it). A fresh entry is in, to be checked
 * when read. The walk stops at `wanted` candidates.
 */
export function entryPlan(input: {
  windows: readonly Window[];
  words: readonly string[];
  entries: readonly Item[];
  sortAttribute: string;
  fresh: readonly Item[];
  wanted: number;
  checkBudget: number;
}): EntryPlan {
  const { windows, words, entries, sortAttribute, wanted } = input;
  const fresh = new Set(input.fresh.map((entry) => String(entry.post_id)));
  const candidates: Candidate[] = [];
  let checks = 0;
  let examined = 0;
  for (const entry of entries) {
    if (candidates.length >= wanted) break;
    const id = String(entry.post_id);
    const key = String(entry[sortAttribute]);
    const created = creationKeyOf(sortAttribute, key);
    const says = windows.map((window) => windowSays(window, id, created));
    const indexed = says.every((said) => said === 'yes');
    if (fresh.has(id)) {
      candidates.push({ id, slug: String(entry.slug), key, creation: created, fresh: true, indexed, checks: [] });
    } else if (!says.includes('no')) {
      const unknown = words.filter((_, at) => says[at] === 'unknown');
      if (checks + unknown.length > input.checkBudget) break;
      checks += unknown.length;
      candidates.push({ id, slug: String(entry.slug), key, creation: created, fresh: false, indexed, checks: unknown });
    }
    examined += 1;
  }
  return { candidates, examined };
}

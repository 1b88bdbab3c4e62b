import { PRELOADED_ID, type PreloadedAnswer, type PreloadedAnswers } from '../../lib/site/reads.ts';

// The API answers the server rendered this page from (lib/site/reads.ts), each taken once: the
// first render of a page starts from them, so the app takes over the server's HTML without an
// empty state; anything later asks the API.

let answers: PreloadedAnswers = {};

/** While true, the app renders what the server rendered (a visitor's view): the first render over the server's HTML. */
let hydrating = false;

/** The server sets the answers before it renders; the browser reads them from the page's data block. */
export function setPreloaded(given: PreloadedAnswers, takingOver: boolean): void {
  answers = given;
  hydrating = takingOver;
}

/** The answers of the page's data block, or none. */
export function preloadedOfPage(): PreloadedAnswers {
  const block = document.getElementById(PRELOADED_ID);
  if (!block?.textContent) return {};
  try {
    return JSON.parse(block.textContent) as PreloadedAnswers;
  } catch {
    return {};
  }
}

/** The answer of `key`, once. */
export function takePreloaded(key: string | undefined): PreloadedAnswer | undefined {
  if (key === undefined) return undefined;
  const answer = answers[key];
  delete answers[key];
  return answer;
}

export function isHydrating(): boolean {
  return hydrating;
}

/**
 * The first page has taken over the server's HTML (or rendered over the shell): from now on the
 * session is the reader's own, and `#app` says the app runs (`data-app="running"`: its buttons work).
 */
export function hydrated(): void {
  hydrating = false;
  document.getElementById('app')?.setAttribute('data-app', 'running');
}

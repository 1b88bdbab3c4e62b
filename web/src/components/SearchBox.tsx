import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { paths, withQuery } from '../paths.ts';

/**
 * The site's search, a `search` landmark (role on the form: every browser and tool knows it) with a
 * plain textbox (a type=search input would be a searchbox): lists the matching posts at `/?q=...`.
 */
export function SearchBox() {
  const { route, path, query } = useLocation();
  const searched = path === paths.home ? (query.q ?? '') : '';
  const [text, setText] = useState(searched);
  useEffect(() => setText(searched), [searched]);

  const submit = (event: Event) => {
    event.preventDefault();
    route(withQuery(paths.home, { q: text.trim() }));
  };
  return (
    <form role="search" class="search" action="/" method="get" onSubmit={submit} noValidate>
      <label for="site-search" class="visually-hidden">
        Search
      </label>
      <input id="site-search" name="q" type="text" autoComplete="off" value={text} onInput={(event) => setText(event.currentTarget.value)} />
      <button type="submit">Search</button>
    </form>
  );
}

import { DEFAULT_SITE_NAME } from '../../lib/site-name.ts';

// The site's name (the deploy setting siteName): the server puts it in every page as
// `<meta name="application-name">`; the header, the footer and the titles read it there.

let name: string | undefined;

/** The server renders with the setting's name. */
export function setSiteName(given: string): void {
  name = given;
}

export function siteName(): string {
  name ??=
    (typeof document === 'undefined' ? undefined : document.querySelector<HTMLMetaElement>('meta[name="application-name"]')?.content) || DEFAULT_SITE_NAME;
  return name;
}

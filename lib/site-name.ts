// The site's name: its default and what the settings accept (lib/config.ts reads SITE_NAME, the
// deploy settings check it, the site shows it).

export const DEFAULT_SITE_NAME = 'Community Posts';

/** A site name as the settings accept it: 1 to 60 characters, none of them a control character. */
export function isSiteName(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return value.trim() !== '' && [...value].length <= 60 && !/[\u0000-\u001f\u007f-\u009f]/.test(value);
}

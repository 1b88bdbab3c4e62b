const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A date of the API (ISO 8601, or with a space for profiles), shown as its day in UTC: `5 Jan 2026`.
 * The same text on the server and in every browser (Intl's month names vary: "Sept").
 */
export function DateTime({ value }: { value: string }) {
  const date = new Date(value.replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  return <time dateTime={date.toISOString()}>{`${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`}</time>;
}

const format = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric' });

/** A date of the API (ISO 8601, or with a space for profiles), shown as a day. */
export function DateTime({ value }: { value: string }) {
  const date = new Date(value.replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  return <time dateTime={date.toISOString()}>{format.format(date)}</time>;
}

/** The pages a list links to: the first, the last, and two either side of the current one. */
function pageNumbers(page: number, last: number): (number | 'gap')[] {
  const shown = new Set([1, last, page - 2, page - 1, page, page + 1, page + 2].filter((n) => n >= 1 && n <= last));
  const sorted = [...shown].sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  sorted.forEach((n, i) => {
    if (i > 0 && n - sorted[i - 1]! > 1) out.push('gap');
    out.push(n);
  });
  return out;
}

interface Props {
  page: number;
  /** The list's length (X-Total-Count); null when the API does not say (searches, favorites). */
  total: number | null;
  pageSize: number;
  /** Whether the API's Link names a next page. */
  hasNext: boolean;
  href: (page: number) => string;
}

/** Paging: a `nav` named "Pagination" with "Previous", "Next", page numbers and "Page N of M". */
export function Pagination({ page, total, pageSize, hasNext, href }: Props) {
  const last = total !== null ? Math.max(1, Math.ceil(total / pageSize)) : hasNext ? page + 1 : page;
  const next = total !== null ? page < last : hasNext;
  return (
    <nav aria-label="Pagination" class="pagination">
      <ul>
        {page > 1 && (
          <li>
            <a href={href(page - 1)} rel="prev">
              Previous
            </a>
          </li>
        )}
        {pageNumbers(page, last).map((n, i) =>
          n === 'gap' ? (
            <li key={`gap-${i}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              <a href={href(n)} aria-current={n === page ? 'page' : undefined}>
                {n}
              </a>
            </li>
          ),
        )}
        {next && (
          <li>
            <a href={href(page + 1)} rel="next">
              Next
            </a>
          </li>
        )}
      </ul>
      {total !== null && (
        <p>
          Page {page} of {last}
        </p>
      )}
    </nav>
  );
}

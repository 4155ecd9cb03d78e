/**
 * Turns the rows a repository returned for one page (it fetches one row more than
 * `limit`, to learn whether another page follows) into the page and its pagination.
 */
export function paginate<T>(rows: T[], limit: number, offset: number) {
  const isLast = rows.length <= limit;
  const page = isLast ? rows : rows.slice(0, limit);
  return { page, pagination: { limit, nextOffset: isLast ? null : offset + page.length, isLast } };
}

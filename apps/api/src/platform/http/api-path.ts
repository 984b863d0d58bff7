/** True for /api and anything below it (not /apiary). `url` may carry a query string. */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api') && (url.length === 4 || url[4] === '/' || url[4] === '?');
}

export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

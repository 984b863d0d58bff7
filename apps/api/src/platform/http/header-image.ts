// The clinic's logo heads both the intake form and the payment page.
/** A logo as the page can load it: absolute http(s) URLs as they are, anything else root-relative. */
export function headerImageOf(logoUrl: string | null): string {
  const url = logoUrl?.trim() ?? '';
  if (url === '') return '';
  if (/^https?:\/\//i.test(url)) return url;
  return url.startsWith('/') && !url.startsWith('//') ? url : `/${url.replace(/^\/+/, '')}`;
}

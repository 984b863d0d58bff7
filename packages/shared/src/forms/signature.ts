/**
 * What a signature field may hold (docs/product/intake-form.md#signature-pad): an image data URL in
 * png, jpeg or svg form, under a size limit.
 */

/** Default limit on a signature's data URL, in characters (ASCII, so bytes): 1 MB. */
export const signatureMaxBytes = 1_000_000;

const base64Image = /^data:image\/(?:png|jpeg|svg\+xml);base64,([A-Za-z0-9+/]+={0,2})$/;
const encodedSvg = /^data:image\/svg\+xml(?:;charset=utf-8|;utf8)?,(.+)$/i;

/**
 * `data:image/png;base64,…`, `data:image/jpeg;base64,…`, `data:image/svg+xml;base64,…`, or a
 * URL-encoded `data:image/svg+xml,…` (optionally `;charset=utf-8`) whose text starts with `<svg`
 * or `<?xml`. The base64 must be well-formed (length a multiple of 4). At most `maxBytes`
 * characters.
 */
export function isSignatureDataUrl(value: string, maxBytes: number = signatureMaxBytes): boolean {
  if (value.length > maxBytes) return false;
  const base64 = base64Image.exec(value);
  if (base64) return (base64[1] ?? '').length % 4 === 0;
  const svg = encodedSvg.exec(value);
  if (!svg) return false;
  let text: string;
  try {
    text = decodeURIComponent(svg[1] ?? '');
  } catch {
    return false;
  }
  return /^\s*<(?:svg|\?xml)[\s>]/i.test(text);
}

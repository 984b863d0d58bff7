/** The signature pad's constants (docs/product/intake-form.md#signature-pad). */
export const signatureHeightPx = 280;
export const signaturePadOptions = {
  minWidth: 0.5,
  maxWidth: 2.5,
  throttle: 16,
  minDistance: 5,
  velocityFilterWeight: 0.7,
  penColor: 'black',
  backgroundColor: 'rgba(0,0,0,0)',
} as const;
export const defaultExportQuality = 0.92;

/** The only types a signature exports to. */
export const signatureImageTypes = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type SignatureImageType = (typeof signatureImageTypes)[number];

/** A signature's value: an image data URL, or the empty flag. */
export type SignatureOutput = { isEmpty: true } | { isEmpty: false; data: string };

export class SignatureImageTypeError extends Error {
  override readonly name = 'SignatureImageTypeError';
  constructor(readonly type: string) {
    super('image type is incorrect');
  }
}

function isSignatureImageType(type: string): type is SignatureImageType {
  return (signatureImageTypes as readonly string[]).includes(type);
}

/** The part of signature_pad an export needs (a fake in tests). */
export interface ExportablePad {
  isEmpty(): boolean;
  toDataURL(type?: string, quality?: number): string;
}

/**
 * The pad's drawing as a data URL of `type` (png by default), or the empty flag. Any type other
 * than png, jpeg or svg throws "image type is incorrect", drawn on or not.
 */
export function exportSignature(
  pad: ExportablePad,
  type: string = 'image/png',
  quality: number = defaultExportQuality,
): SignatureOutput {
  if (!isSignatureImageType(type)) throw new SignatureImageTypeError(type);
  if (pad.isEmpty()) return { isEmpty: true };
  return {
    isEmpty: false,
    data: type === 'image/svg+xml' ? pad.toDataURL(type) : pad.toDataURL(type, quality),
  };
}

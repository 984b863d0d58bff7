import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { fontsDir } from '../paths.js';

// A signature as an image: PNG and JPEG as they are, once their bytes say so; an SVG (the engine
// accepts them from other clients) is rasterised with resvg, compiled to WebAssembly: it reads no
// files and fetches nothing, so an SVG naming an external image or file only loses that part.
// Submissions store the result (forms-service), so clinic software is never handed an SVG, which
// can carry scripts; the PDF embeds it.

const require = createRequire(import.meta.url);

/** The longer side of a rasterised SVG, in pixels: sharp when printed a few centimetres wide. */
const SVG_RASTER_SIDE = 1200;

let resvgReady: Promise<void> | undefined;

function loadResvg(): Promise<void> {
  resvgReady ??= readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm')).then((wasm) =>
    initWasm(wasm),
  );
  return resvgReady;
}

const base64Image = /^data:image\/(png|jpeg|svg\+xml);base64,([A-Za-z0-9+/]+={0,2})$/;
const encodedSvg = /^data:image\/svg\+xml(?:;charset=utf-8|;utf8)?,(.+)$/i;

const isPng = (bytes: Buffer) =>
  bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
const isJpeg = (bytes: Buffer) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

function svgText(dataUrl: string): string | null {
  const base64 = base64Image.exec(dataUrl);
  if (base64?.[1] === 'svg+xml') return Buffer.from(base64[2] ?? '', 'base64').toString('utf8');
  const encoded = encodedSvg.exec(dataUrl);
  if (!encoded) return null;
  try {
    return decodeURIComponent(encoded[1] ?? '');
  } catch {
    return null;
  }
}

async function rasterise(svg: string, font: Uint8Array): Promise<Buffer | null> {
  await loadResvg();
  const options = {
    font: { fontBuffers: [font], defaultFontFamily: 'Heebo' },
  };
  try {
    // Sized from the SVG's own size, so a huge declared width cannot make a huge raster.
    const probe = new Resvg(svg, options);
    const side = Math.max(probe.width, probe.height);
    probe.free();
    if (!(side > 0)) return null;
    const resvg = new Resvg(svg, {
      ...options,
      fitTo: { mode: 'zoom', value: SVG_RASTER_SIDE / side },
    });
    const image = resvg.render();
    const png = Buffer.from(image.asPng());
    image.free();
    resvg.free();
    return png;
  } catch {
    return null;
  }
}

/**
 * PNG or JPEG bytes of a signature data URL, or null when it holds no readable image. `font`
 * draws any text in an SVG (a typed signature).
 */
export async function signatureImage(dataUrl: string, font: Uint8Array): Promise<Buffer | null> {
  const base64 = base64Image.exec(dataUrl);
  if (base64 && base64[1] !== 'svg+xml') {
    const bytes = Buffer.from(base64[2] ?? '', 'base64');
    return isPng(bytes) || isJpeg(bytes) ? bytes : null;
  }
  const svg = svgText(dataUrl);
  return svg === null ? null : rasterise(svg, font);
}

let heeboRegular: Promise<Uint8Array> | undefined;

/** The font a typed signature in an SVG is drawn with: Heebo, the web app's font. */
function signatureFont(): Promise<Uint8Array> {
  heeboRegular ??= readFile(path.join(fontsDir, 'Heebo-Regular.ttf')).then(
    (bytes) => new Uint8Array(bytes),
  );
  return heeboRegular;
}

/**
 * The data URL a signature is kept as: a PNG or JPEG data URL as sent (its bytes checked), an SVG
 * rasterised to a PNG data URL; null when it holds no readable image.
 */
export async function storedSignature(dataUrl: string): Promise<string | null> {
  const base64 = base64Image.exec(dataUrl);
  if (base64 && base64[1] !== 'svg+xml') {
    return (await signatureImage(dataUrl, new Uint8Array())) === null ? null : dataUrl;
  }
  const png = await signatureImage(dataUrl, await signatureFont());
  return png === null ? null : `data:image/png;base64,${png.toString('base64')}`;
}

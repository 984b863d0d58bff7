// Writes .br and .gz siblings next to every text asset of a build's output folder (the argument,
// from the working directory: `node ../../scripts/compress.mjs dist`), so the API server can send
// pre-compressed files instead of compressing on each request.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

if (!process.argv[2]) throw new Error('usage: node scripts/compress.mjs <dist folder>');
const distDir = path.resolve(process.argv[2]);
// woff2, png, jpg and the like are already compressed; a second pass only costs CPU.
const compressible = new Set(['.js', '.mjs', '.css', '.svg', '.html', '.json', '.txt', '.xml']);
const minBytes = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function compressFile(file) {
  const source = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gzip(source, { level: 9 }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  return { file: path.relative(distDir, file), raw: source.length, br: br.length, gz: gz.length };
}

const entries = await readdir(distDir, { recursive: true });
const files = [];
for (const entry of entries) {
  const file = path.join(distDir, entry);
  if (!compressible.has(path.extname(file))) continue;
  const info = await stat(file);
  if (info.isFile() && info.size > minBytes) files.push(file);
}

const results = await Promise.all(files.map(compressFile));
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
for (const r of results.sort((a, b) => b.raw - a.raw)) {
  console.log(`${r.file}: ${kib(r.raw)} → br ${kib(r.br)}, gz ${kib(r.gz)}`);
}
console.log(
  `compressed ${results.length} files in ${path.relative(process.cwd(), distDir) || '.'}`,
);

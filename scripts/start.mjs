// `npm start`: build what is missing or stale, then run the production server in this process.
// The script is `exec node scripts/start.mjs`: without the `exec`, npm's shell would stand between npm
// and this process, and a SIGTERM sent to npm would kill the shell and leave the server running.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputs = [
  'apps/web/dist/index.html',
  'apps/desk/dist/index.html',
  'apps/api/dist/main.js',
].map((p) => path.join(root, p));
const inputs = [
  'package-lock.json',
  'packages/shared/src',
  'apps/api/src',
  'apps/api/drizzle',
  'apps/api/build.mjs',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/scripts',
  'apps/desk/src',
  'apps/desk/index.html',
  'apps/desk/vite.config.ts',
  'scripts/compress.mjs',
].map((p) => path.join(root, p));

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p))
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const builtAt = Math.min(...outputs.map((p) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0)));
const changedAt = Math.max(...inputs.map(newestMtime));
if (builtAt === 0 || changedAt > builtAt) {
  console.log(builtAt === 0 ? 'Building Marpe (first start)…' : 'Sources changed: rebuilding…');
  // A production build whatever NODE_ENV this was started with (a test runner sets `test`, which
  // would make Vite build React's development code).
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error('Build failed; see the output above.');
    process.exit(result.status ?? 1);
  }
}

await import(pathToFileURL(path.join(root, 'apps/api/dist/main.js')).href);

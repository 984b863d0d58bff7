// Writes, from the page registry (docs/pages.md): dist/prerendered/*.html, the pages that are the
// same for every visitor (the landing, legal and status pages) rendered at build time, so they
// paint before any script runs (ADR 021); dist/prerendered/shells/*.html, the shells the server
// renders the pages with data into; and dist/prerendered/routes.json, the modulepreload links of
// each client route, which the server adds to index.html. Also preloads the Hebrew font files from every page. Runs after
// `vite build` (the browser bundle, with its manifest) and `vite build --ssr src/prerender.tsx`
// (the renderer, in dist-ssr).
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isBuiltin } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const webDir = fileURLToPath(new URL('..', import.meta.url));
const distDir = path.join(webDir, 'dist');
const ssrDir = path.join(webDir, 'dist-ssr');

const escapeHtml = (value) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function replaceOnce(html, search, replacement, what) {
  const at = html.indexOf(search);
  if (at === -1 || html.indexOf(search, at + search.length) !== -1) {
    throw new Error(`index.html must hold exactly one ${what}`);
  }
  return html.slice(0, at) + replacement + html.slice(at + search.length);
}

const manifest = JSON.parse(await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8'));
const { prerender, placeholders, pageList, pageCodeManifestElementId } = await import(
  pathToFileURL(path.join(ssrDir, 'prerender.js')).href
);
/** The page registry (docs/pages.md): every page's address, HTML, start and next pages. */
const pages = pageList();
const pageById = (id) => {
  const page = pages.find((candidate) => candidate.id === id);
  if (!page) throw new Error(`no page ${id}`);
  return page;
};
/** The pages whose code loads on first visit (all but the landing page, in the entry chunk). */
const lazyPages = pages.filter(({ modules }) => modules.length > 0);
const wakeManifest = JSON.parse(
  await readFile(path.join(distDir, '.vite/wake-manifest.json'), 'utf8'),
);
const wakeScript = `/${wakeManifest['src/wake-on-demand.ts'].file}`;

// Modules merged into a flow's chunk (vite.config.ts) are not in the manifest by name.
const moduleChunks = JSON.parse(
  await readFile(path.join(distDir, '.vite/module-chunks.json'), 'utf8'),
);
const manifestKeyOfFile = new Map(Object.entries(manifest).map(([key, { file }]) => [file, key]));

/** The chunk of a source module and every chunk it imports statically, as URLs. */
function chunkUrls(source, seen = new Set()) {
  const entry = manifest[source] ?? manifest[manifestKeyOfFile.get(moduleChunks[source])];
  if (!entry) throw new Error(`${source} is not in Vite's manifest`);
  if (seen.has(entry.file)) return seen;
  seen.add(entry.file);
  for (const imported of entry.imports ?? []) chunkUrls(imported, seen);
  return seen;
}
const entryChunks = chunkUrls('index.html');

// Hebrew text in the body (400) and headings (700) is on every page; the other files load by
// unicode-range and weight when a page needs them.
const assets = await readdir(path.join(distDir, 'assets'));
const fontPreloads = ['heebo-hebrew-400-normal', 'heebo-hebrew-700-normal']
  .map((name) => {
    const file = assets.find((f) => f.startsWith(`${name}-`) && f.endsWith('.woff2'));
    if (!file) throw new Error(`no ${name} font in dist/assets`);
    return `<link rel="preload" href="/assets/${file}" as="font" type="font/woff2" crossorigin>`;
  })
  .join('');

let template = replaceOnce(
  await readFile(path.join(distDir, 'index.html'), 'utf8'),
  '</head>',
  `${fontPreloads}</head>`,
  '</head>',
);
// The app's only stylesheet is the @font-face rules (1.5 KiB): inline, it costs no request
// before the first paint (the CSP allows inline styles, as emotion needs).
const stylesheet = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/.exec(
  template,
);
if (!stylesheet) throw new Error('index.html links no stylesheet');
const css = await readFile(path.join(distDir, stylesheet[1]), 'utf8');
template = template.replace(stylesheet[0], `<style>${css.trim()}</style>`);
await writeFile(path.join(distDir, 'index.html'), template);

/**
 * The chunks of a lazy route beyond the entry's: its modules, what they import, and what they load
 * lazily themselves (a step, a dialog), as URLs.
 */
function routeChunks(id) {
  const route = pageById(id);
  const lazyModules = route.modules.flatMap((m) => manifest[m]?.dynamicImports ?? []);
  return [...new Set([...route.modules, ...lazyModules].flatMap((m) => [...chunkUrls(m)]))]
    .filter((file) => !entryChunks.has(file))
    .map((file) => `/${file}`);
}

/**
 * The pages of `ids` whose code is all in `chunks` (URLs): the app can load them before it starts
 * without a request (PageCodeManifest.nextRoutes).
 */
function routesWithin(ids, chunks) {
  return lazyPages
    .filter(({ id }) => ids.includes(id))
    .filter(({ modules }) =>
      modules.every((m) =>
        [...chunkUrls(m)].every((file) => entryChunks.has(file) || chunks.includes(`/${file}`)),
      ),
    )
    .map(({ id }) => id);
}

/** modulepreload links for the chunks of `modules` that the entry does not already load. */
function modulePreloads(modules) {
  return [...new Set(modules.flatMap((m) => [...chunkUrls(m)]))]
    .filter((file) => !entryChunks.has(file))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join('');
}

/**
 * A page painted from its HTML (ADR 025): its module script and modulepreload links become the
 * data of the small waking script, which loads them at the patient's first touch, key or focus,
 * or at once when the app must render the page itself, and runs again a click that came before
 * the app. `next`: a page a patient came to act on, and the pages (ids) it leads to: its
 * app starts while the patient reads, with those routes' chunks, so a tap waits on no request
 * (ADR 033). `withoutSession`: the HTML is what a patient without a session sees; `leavesFrame`: the
 * page moves a frame of ours that holds it to the whole window; `namesLinkClinic`: the page names
 * the clinic its address's `?clinic=` gives (PageCodeManifest).
 */
function wakingOnDemand(
  page,
  { withoutSession = false, leavesFrame = false, namesLinkClinic = false, next = null } = {},
) {
  const preload = [];
  const html = page.replace(
    /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g,
    (_, href) => {
      preload.push(href);
      return '';
    },
  );
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
  if (!entry) throw new Error('index.html must hold the module script of the app');
  const code = JSON.stringify({
    entry: entry[1],
    preload,
    ...(next && {
      next: [...new Set(next.flatMap(routeChunks))].filter((file) => !preload.includes(file)),
      nextRoutes: routesWithin(next, preload),
      startsWhileReading: true,
    }),
    ...(withoutSession && { withoutSession }),
    ...(leavesFrame && { leavesFrame }),
    ...(namesLinkClinic && { namesLinkClinic }),
  });
  return replaceOnce(
    html,
    entry[0],
    `<script type="module" crossorigin src="${wakeScript}"></script>` +
      `<script type="application/json" id="${pageCodeManifestElementId}">${code}</script>`,
    'module script',
  );
}

await mkdir(path.join(distDir, 'prerendered', 'shells'), { recursive: true });
// For every other page, the server puts its route's links into the empty index.html, so the
// page's code downloads beside the entry chunk instead of after it.
const routes = lazyPages.map(({ path: pattern, modules }) => ({
  path: pattern,
  head: modulePreloads(modules),
}));
await writeFile(path.join(distDir, 'prerendered', 'routes.json'), JSON.stringify(routes));

/** How a page painted from HTML starts, as its registry entry says (PatientPage). */
const wakeOptions = (page) => ({
  withoutSession: page.withoutSession === true,
  leavesFrame: page.leavesFrame === true,
  namesLinkClinic: page.namesLinkClinic === true,
  next: page.leadsTo ?? null,
});

// The pages the API server renders per request with their data (ADR 021), each into a shell of
// its own: index.html with the page's modulepreload links, its module script turned into the
// waking script (ADR 025). The server fills in the markup, styles, title and data
// (dist/prerendered/shells/<page id>.html). Their <noscript> notice stays: booking needs
// JavaScript. A page sent as another's HTML (`rendersAs`) uses that page's shell.
for (const page of pages) {
  if (page.html.from !== 'server' || page.html.rendersAs) continue;
  const shell = replaceOnce(
    template,
    '</head>',
    `${modulePreloads(page.modules)}</head>`,
    '</head>',
  );
  await writeFile(
    path.join(distDir, 'prerendered', 'shells', `${page.id}.html`),
    wakingOnDemand(shell, wakeOptions(page)),
  );
}

// The pages the same for every visitor, rendered now: dist/prerendered/<address>.html (`index`
// for /), which the server sends at their addresses.
for (const page of pages.filter(({ html }) => html.from === 'build')) {
  const address = page.path;
  const name = address === '/' ? 'index' : address.slice(1);
  const { html, styles, title, modules } = await prerender(address);
  if (html.includes(placeholders.publicOrigin)) {
    throw new Error(`${address}: the public origin must not be in prerendered HTML`);
  }
  const preloads = modulePreloads(modules);
  let document = replaceOnce(
    template,
    '<div id="root"></div>',
    `<div id="root">${html}</div>`,
    '#root',
  );
  document = document.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  // The page reads fine without JavaScript: no need to ask for it.
  document = document.replace(/<noscript[\s\S]*?<\/noscript\s*>\s*/, '');
  document = wakingOnDemand(
    replaceOnce(document, '</head>', `${styles}${preloads}</head>`, '</head>'),
    wakeOptions(page),
  );
  await writeFile(path.join(distDir, 'prerendered', `${name}.html`), document);
  console.log(`prerendered ${address}: ${(document.length / 1024).toFixed(1)} KiB`);
}

// The renderer carries its packages, compiled in the browser build's mode (ADR 035): the API
// installs none of the web's, so an import of one here would fail only once deployed.
for (const file of [
  'prerender.js',
  ...(await readdir(path.join(ssrDir, 'assets'))).map((name) => `assets/${name}`),
]) {
  if (!file.endsWith('.js')) continue;
  const source = await readFile(path.join(ssrDir, file), 'utf8');
  const imported = [
    ...source.matchAll(/^\s*import\s*(?:[^'"`;]*?\sfrom\s*)?["']([^"']+)["']/gm),
    ...source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ].map(([, specifier = '']) => specifier);
  const packages = imported.filter((name) => !name.startsWith('.') && !isBuiltin(name));
  if (packages.length > 0) {
    throw new Error(`dist-ssr/${file} imports ${packages.join(', ')}: compile it in (ADR 035)`);
  }
}

// The manifests were only for this script. The renderer stays: the API server renders the clinic
// page with it, per request.
await rm(path.join(distDir, '.vite'), { recursive: true, force: true });

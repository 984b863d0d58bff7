import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file sits one level below the package both as source (src/) and once bundled (dist/main.js),
// so the same expression finds apps/api from tsx, Vitest and the build.
export const apiPackageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const migrationsDir = path.join(apiPackageDir, 'drizzle');

/** Heebo as TrueType, for the PDFs and signature images (assets/fonts/README.md). */
export const fontsDir = path.join(apiPackageDir, 'assets', 'fonts');

export const defaultWebDistDir = path.resolve(apiPackageDir, '..', 'web', 'dist');

export const defaultDeskDistDir = path.resolve(apiPackageDir, '..', 'desk', 'dist');

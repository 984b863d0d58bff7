import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = (path: string) =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  };

/** What only the browser loads: the server renderer never imports them. */
const browserOnly = ['@fontsource/heebo', 'signature_pad'];

describe("the API's dependencies", () => {
  it("declare the server renderer's packages at apps/web's exact versions", () => {
    // The API loads apps/web/dist-ssr, which imports them: installed with the API alone, they must come.
    const api = manifest('../package.json').dependencies;
    const web = manifest('../../web/package.json').dependencies;
    const rendered = Object.entries(web).filter(([name]) => !browserOnly.includes(name));
    expect(rendered.length).toBeGreaterThan(10);
    for (const [name, version] of rendered) {
      expect({ name, version: api[name] }).toEqual({ name, version });
    }
  });
});

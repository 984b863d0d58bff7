import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = (path: string) =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  };

describe("the API's dependencies", () => {
  it("leave the web's packages to the server renderer, which carries its own (ADR 035)", () => {
    // apps/web/dist-ssr has React, MUI and emotion compiled in, in the browser build's mode: a copy
    // installed beside the API would go unused (the web build checks the renderer imports none).
    const api = manifest('../package.json').dependencies;
    const web = manifest('../../web/package.json').dependencies;
    const shared = Object.keys(web).filter((name) => name !== '@marpe/shared' && name in api);
    expect(shared).toEqual([]);
    expect(Object.keys(web)).toEqual(expect.arrayContaining(['react', 'react-dom', 'i18next']));
  });
});

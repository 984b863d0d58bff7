import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
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

describe("the API's module layers", () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const eslint = new ESLint({ cwd: root });
  /** The layer errors of `text` as if it were the file `file` (relative to the repository). */
  const layerErrors = async (file: string, text: string) => {
    const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
    return (result?.messages ?? []).filter(
      (message) => message.ruleId === 'import-x/no-restricted-paths',
    );
  };

  it('refuse an import that runs up the order, a type-only one too (ADR 024)', async () => {
    const up = await layerErrors(
      'apps/api/src/modules/messaging/probe.ts',
      "import type { Reminders } from '../reminders/reminders-service.js';\nexport type Probe = Reminders;\n",
    );
    expect(up.map((message) => message.message)).toEqual([
      expect.stringContaining('A module imports only those before it in apiModuleOrder'),
    ]);
    const staffUp = await layerErrors(
      'apps/api/src/modules/staff/probe.ts',
      "import { patientAuthRules } from '../patient-auth/patient-auth-rules.js';\nexport const probe = patientAuthRules;\n",
    );
    expect(staffUp).toHaveLength(1);
  });

  it('allow an import down the order, and from platform/', async () => {
    expect(
      await layerErrors(
        'apps/api/src/modules/reminders/probe.ts',
        "import { nextAllowedAt } from '../messaging/quiet-time.js';\nimport { callerOf } from '../../platform/http/integration-routes.js';\nexport const probe = [nextAllowedAt, callerOf];\n",
      ),
    ).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * Each module a module's values come from, followed through relative imports (what a bundler may
 * keep of it), with the packages it imports values from. Type-only imports and exports are erased
 * by the compiler, so they are not followed.
 */
function valueImports(entry: URL): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (url: URL): void => {
    const name = fileURLToPath(url).slice(srcDir.length);
    if (graph.has(name)) return;
    const packages: string[] = [];
    graph.set(name, packages);
    const text = readFileSync(url, 'utf8');
    const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      let from: ts.Expression | undefined;
      let what: ts.Node | undefined;
      if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
        [from, what] = [statement.moduleSpecifier, statement.importClause];
      } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
        [from, what] = [statement.moduleSpecifier, statement.exportClause];
      }
      if (!from || !ts.isStringLiteral(from)) continue;
      if (from.text.startsWith('.')) visit(new URL(from.text.replace(/\.js$/, '.ts'), url));
      else packages.push(`${what?.getText(source) ?? '*'} from ${from.text}`);
    }
  };
  visit(entry);
  return graph;
}

describe('@marpe/shared/rules', () => {
  it('brings no schema: of zod, only the email pattern', () => {
    const graph = valueImports(new URL('./rules.ts', import.meta.url));
    const packages = [...graph].filter(([, imported]) => imported.length > 0);
    // `regexes` alone, for `regexes.email`: a bundler keeps the pattern and none of zod's code.
    expect(packages).toStrictEqual([['email.ts', ['{ regexes } from zod/v4/core']]]);
    expect(graph.has('forms/engine.ts')).toBe(true);
  });
});

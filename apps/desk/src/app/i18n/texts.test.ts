import { errorCodes } from '@marpe/shared';
import { describe, expect, it } from 'vitest';
import { deskResources } from './init';

type Tree = { [key: string]: string | Tree };

const keysOf = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );

describe('the desk’s texts', async () => {
  const resources = await deskResources();

  it('has every namespace in both languages, with the same keys', () => {
    const he = resources.he as Record<string, Tree>;
    const en = resources.en as Record<string, Tree>;
    expect(Object.keys(en).sort()).toEqual(Object.keys(he).sort());
    for (const namespace of Object.keys(he)) {
      expect(keysOf(en[namespace] ?? {}).sort(), namespace).toEqual(
        keysOf(he[namespace] ?? {}).sort(),
      );
    }
  });

  it('says every error code the API can answer with', () => {
    const common = (resources.he as Record<string, Tree>).common as Tree;
    const errors = common.errors as Tree;
    for (const code of errorCodes) expect(errors[code], code).toEqual(expect.any(String));
  });
});

import { patientPageIds } from '@marpe/shared/rules';
import { describe, expect, it } from 'vitest';
import { lazyPageIds, webPages } from './pages';

describe('the web half of the page registry', () => {
  it('has every shared page but the landing page, which is in the entry chunk', () => {
    expect([...lazyPageIds, 'home-page'].sort()).toEqual([...patientPageIds].sort());
  });

  it.each(lazyPageIds)('%s: its module is the one its load imports', async (id) => {
    const { module, load } = webPages[id];
    const exported = Object.values(
      (await import(/* @vite-ignore */ `../${module.slice('src/'.length)}`)) as object,
    );
    expect(exported).toContain(await load());
  });
});

import { describe, expect, it } from 'vitest';
import { nameInitial } from './name-initial';

describe('nameInitial', () => {
  it.each([
    ['ד"ר יעל כהן', 'י'],
    ['ד״ר מיכל אברהם', 'מ'],
    ["פרופ' אבי לוי", 'א'],
    ['פרופ׳ ד"ר נועה פרץ', 'נ'],
    ['Dr. Dana Katz', 'D'],
    ['dr amir levi', 'A'],
    ['Prof. Dr. Ruth Bar', 'R'],
    ['  רונית שגיא ', 'ר'],
    // A name that only looks like a title at its start keeps its letter.
    ['Drora Cohen', 'D'],
    ['דרור לוי', 'ד'],
    ['', ''],
  ])('%s → %s', (name, initial) => {
    expect(nameInitial(name)).toBe(initial);
  });
});

import type { FormField } from '@marpe/shared';
import { applyMask, validateField } from '@marpe/shared/rules';
import { describe, expect, it } from 'vitest';
import { datePlaceholder, dottedDateMask, isDateField } from './date-field';

const today = { year: 2026, month: 11, day: 28 };
const field = (overrides: Partial<FormField>): FormField => ({
  name: 'f',
  type: 'text',
  title: 'תאריך',
  validations: [],
  ...overrides,
});

describe('date fields', () => {
  it('are text fields checked as dates or birth dates', () => {
    expect(isDateField(field({ validations: ['dateFormat'] }))).toBe(true);
    expect(isDateField(field({ validations: ['required', 'birthDateFormat'] }))).toBe(true);
    expect(isDateField(field({ validations: ['required'], mask: '##/##/####' }))).toBe(false);
    expect(isDateField(field({ type: 'email', validations: ['dateFormat'] }))).toBe(false);
  });

  it('take the dotted format, whether typed with dots, slashes or bare digits, and it validates', () => {
    const mask = dottedDateMask('##/##/####');
    expect(mask).toBe('##.##.####');
    expect(dottedDateMask('##-##-##')).toBe('##.##.##');
    for (const typed of ['01.12.2026', '01/12/2026', '01122026']) {
      const value = applyMask(mask, typed);
      expect(value, typed).toBe('01.12.2026');
      expect(validateField(field({ validations: ['dateFormat'] }), value, { today })).toBeNull();
    }
    // An earlier draft's slashed date is still a valid answer as kept.
    expect(
      validateField(field({ validations: ['dateFormat'] }), '01/12/2026', { today }),
    ).toBeNull();
  });

  it("show the format in the patient's language in place of a placeholder that only spells one", () => {
    for (const spelled of [
      'DD/MM/YYYY',
      'dd-mm-yyyy',
      'DD.MM.YY',
      ' DD / MM / YYYY ',
      undefined,
      '',
    ]) {
      expect(datePlaceholder(spelled, 'יום.חודש.שנה'), String(spelled)).toBe('יום.חודש.שנה');
    }
    expect(datePlaceholder('לדוגמה 15.03.1985', 'DD.MM.YYYY')).toBe('לדוגמה 15.03.1985');
    expect(datePlaceholder('יום/חודש/שנה', 'DD.MM.YYYY')).toBe('יום/חודש/שנה');
  });
});

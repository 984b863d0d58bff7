import { describe, expect, it } from 'vitest';
import { formLanguageAttributes, patientLanguageOf } from './patient-language';

describe("the patient's language in a clinic's form", () => {
  it('needs no attributes when it reads in the form direction', () => {
    expect(patientLanguageOf('he', 'rtl')).toEqual({
      language: 'he',
      matchesForm: true,
      keepsClinicLabels: true,
      attributes: {},
    });
    expect(patientLanguageOf('en', 'ltr').attributes).toEqual({});
  });

  it('marks our texts with their language and direction when it does not', () => {
    expect(patientLanguageOf('en', 'rtl')).toEqual({
      language: 'en',
      matchesForm: false,
      keepsClinicLabels: false,
      attributes: { lang: 'en', dir: 'ltr' },
    });
    expect(patientLanguageOf('he', 'ltr').attributes).toEqual({ lang: 'he', dir: 'rtl' });
    // Hebrew may be no one's choice (it is the default): a left-to-right form keeps its buttons.
    expect(patientLanguageOf('he', 'ltr').keepsClinicLabels).toBe(true);
    expect(patientLanguageOf('en', 'ltr').keepsClinicLabels).toBe(true);
    // A code the app never offered is read as Hebrew, as everywhere else.
    expect(patientLanguageOf('xx', 'rtl').matchesForm).toBe(true);
  });

  it("names a right-to-left form's language as Hebrew on an English page only", () => {
    expect(formLanguageAttributes('en', 'rtl')).toEqual({ lang: 'he' });
    expect(formLanguageAttributes('he', 'rtl')).toEqual({});
    expect(formLanguageAttributes('he', 'ltr')).toEqual({});
    expect(formLanguageAttributes('en', 'ltr')).toEqual({});
  });
});

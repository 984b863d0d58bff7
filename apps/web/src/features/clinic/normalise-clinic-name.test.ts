import { describe, expect, it } from 'vitest';
import { normaliseClinicName } from './normalise-clinic-name';

describe('normaliseClinicName', () => {
  it.each([
    ['מרפאת שיניים לב העיר', 'מרפאת-שיניים-לב-העיר'],
    ['מרפאת%20שיניים%20לב%20העיר', 'מרפאת-שיניים-לב-העיר'],
    ['Dr Smile%20Clinic', 'Dr-Smile-Clinic'],
    ['מרפאת ד״ר כהן', 'מרפאת-דר-כהן'],
    ['מרפאת ד"ר כהן', 'מרפאת-דר-כהן'],
    ['רמב״ם', 'רמבם'],
  ])('%s → %s', (name, expected) => {
    expect(normaliseClinicName(name)).toBe(expected);
  });

  it('keeps a name that is already normalised, so replacing the URL cannot loop', () => {
    for (const name of ['מרפאת-שיניים-לב-העיר', 'Dr-Smile', 'מרפאה', '']) {
      expect(normaliseClinicName(name)).toBe(name);
    }
  });

  it('is idempotent', () => {
    for (const name of ['ד״ר  "שן" %20 טובה', '%2"0', '%%2״0']) {
      const once = normaliseClinicName(name);
      expect(normaliseClinicName(once)).toBe(once);
    }
  });

  it('keeps hyphens, the geresh and other characters', () => {
    expect(normaliseClinicName('תל-אביב מס׳ 1')).toBe('תל-אביב-מס׳-1');
  });
});

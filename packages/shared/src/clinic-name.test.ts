import { describe, expect, it } from 'vitest';
import { clinicPagePath, normaliseClinicName } from './clinic-name.js';

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

describe('clinicPagePath', () => {
  it('puts the normalised name in the clinic page address, as one path segment', () => {
    expect(clinicPagePath({ id: 1, name: 'Dr Smile' })).toBe('/clinic/1/Dr-Smile');
    expect(decodeURIComponent(clinicPagePath({ id: 7, name: 'מרפאת ד״ר לוי' }))).toBe(
      '/clinic/7/מרפאת-דר-לוי',
    );
    expect(clinicPagePath({ id: 2, name: 'A/B? #1' })).toBe('/clinic/2/A%2FB%3F-%231');
  });
});

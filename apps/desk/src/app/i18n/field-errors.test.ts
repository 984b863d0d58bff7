import { clinicPhoneSchema, createCaregiverBodySchema } from '@marpe/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { initDeskI18n } from './init';
import { ApiError } from '../../lib/api';
import { errorText, serverFieldErrors, validate } from '../../lib/field-errors';

describe('field errors in the reader’s language', () => {
  let he: TFunction;
  let en: TFunction;
  beforeAll(async () => {
    he = (await initDeskI18n('he')).t;
    en = (await initDeskI18n('en')).t;
  });

  it('translates the shared schemas’ own messages and zod’s by code', () => {
    const result = validate(he, createCaregiverBodySchema, {
      name: '   ',
      license_number: 'x'.repeat(51),
      marpe_rules: { slot_step_minutes: 2 },
    });
    expect(result.errors).toEqual({
      name: 'שדה חובה',
      license_number: 'עד 50 תווים',
      'marpe_rules.slot_step_minutes': 'לפחות 5',
    });
    expect(validate(en, clinicPhoneSchema, 'abc').errors).toEqual({
      '': 'Enter a phone number (digits, spaces and dashes)',
    });
  });

  it('names the fields of a 400 validation_failed by their dotted paths', () => {
    const error = new ApiError(400, 'validation_failed', 'Invalid request', {
      issues: [{ path: 'address.city', message: 'Must not be empty' }],
    });
    expect(serverFieldErrors(en, error)).toEqual({ 'address.city': 'Required' });
    expect(serverFieldErrors(en, new ApiError(409, 'slot_taken', 'x'))).toBeNull();
  });

  it('says every error code, and a network failure, in words', () => {
    expect(errorText(he, new ApiError(409, 'last_owner', 'x'))).toContain('בעלים');
    expect(errorText(en, new ApiError(418, 'teapot', 'x'))).toBe(
      'That did not work (error 418). Please try again.',
    );
    expect(errorText(en, new TypeError('Failed to fetch'))).toContain('cannot be reached');
  });
});

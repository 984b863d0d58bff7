import { reassignPatientBodySchema } from '@marpe/shared';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { reassignErrors } from './reassign-dialog';

const t = ((key: string) => `[${key}]`) as unknown as TFunction;
const typed = {
  phone: '054-1234567',
  first_name: ' נועה ',
  last_name: 'כהן',
  identity_document_checked: true,
  reason: ' הציגה תעודת זהות ',
};

describe('giving an ID back: what the dialog checks before sending', () => {
  it('sends the owner tidied as the server takes them', () => {
    expect(reassignPatientBodySchema.parse(typed)).toEqual({
      ...typed,
      first_name: 'נועה',
      reason: 'הציגה תעודת זהות',
    });
  });

  it('refuses an unticked confirmation, in the dialog’s own words at the checkbox', () => {
    const parsed = reassignPatientBodySchema.safeParse({
      ...typed,
      identity_document_checked: false,
    });
    expect(parsed.success).toBe(false);
    const paths = parsed.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(['identity_document_checked']);
    expect(reassignErrors(t, { identity_document_checked: 'Invalid', phone: 'Required' })).toEqual({
      identity_document_checked: '[reassign.documentRequired]',
      phone: 'Required',
    });
    expect(reassignErrors(t, { reason: 'Required' })).toEqual({ reason: 'Required' });
  });
});

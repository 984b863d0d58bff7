import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-client';
import { endedLinkPath } from './ended-link';

const notFound = (details?: unknown) => new ApiError(404, 'not_found', 'not valid', details);

describe('endedLinkPath', () => {
  it('a form already sent: the completed page, with its clinic', () => {
    expect(endedLinkPath(notFound({ ended: 'submitted', clinicId: 3 }))).toBe(
      '/completed?clinic=3',
    );
  });

  it('an expired or cancelled link: the expired page saying which, with its clinic', () => {
    expect(endedLinkPath(notFound({ ended: 'expired', clinicId: 3 }))).toBe(
      '/expired?clinic=3&ended=expired',
    );
    expect(endedLinkPath(notFound({ ended: 'cancelled', clinicId: 12 }))).toBe(
      '/expired?clinic=12&ended=cancelled',
    );
  });

  it.each([
    ['no details', notFound()],
    ['an unknown end', notFound({ ended: 'lost', clinicId: 3 })],
    ['no clinic', notFound({ ended: 'expired' })],
    ['a clinic id that is no id', notFound({ ended: 'expired', clinicId: '3&x=1' })],
    ['not an API error', new Error('offline')],
  ])('%s: the plain expired page', (_, error) => {
    expect(endedLinkPath(error)).toBe('/expired');
  });
});

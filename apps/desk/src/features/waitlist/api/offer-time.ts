import type { WaitlistOffer, WaitlistOfferBody } from '@marpe/shared';
import { api } from '../../../lib/api';

/** Offers the waiting patient a free time: the message goes now, or when quiet hours end. */
export const offerTime = (entryId: number, body: WaitlistOfferBody) =>
  api<WaitlistOffer>(`/api/integration/waitlist/entries/${entryId}/offer`, {
    method: 'POST',
    body,
  });

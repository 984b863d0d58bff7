import { CODE_DELIVERY_STATES, errorBodySchema } from '@marpe/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sha256Hex } from '../../platform/crypto.js';
import type { Database } from '../../platform/db/client.js';
import { authChallenges, clinics } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { codeDelivery } from '../messaging/deliveries.js';

export const codeDeliveryBodySchema = z.object({
  twoFactorToken: z.string({ error: 'Required field' }).min(1, 'Required field').max(200),
});

/**
 * What the code page is told while it waits: whether the code's SMS reached the phone, as far as
 * the SMS provider has said (`pending` until it has, and always with a provider that reports
 * nothing), and the clinic's phone to call when it did not. No phone of the patient, no code.
 */
export const codeDeliveryResponseSchema = z.object({
  delivery: z.enum(CODE_DELIVERY_STATES),
  clinicPhone: z.string(),
});

/** `POST /api/patient-auth/code-delivery`: polled by the code page (a few times a minute). */
export const codeDeliveryRoutes: FastifyPluginAsyncZod<{
  db: Database;
  clock: () => number;
}> = async (app, { db, clock }) => {
  app.post(
    '/patient-auth/code-delivery',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['patient-auth'],
        summary:
          "Whether the login code's SMS arrived (pending, sent, delivered, not_delivered) and the clinic's phone; 400 invalid_two_factor_token once the code is used, replaced or expired",
        body: codeDeliveryBodySchema,
        response: { 200: codeDeliveryResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const tokenHash = sha256Hex(request.body.twoFactorToken);
      const [challenge] = await db
        .select({
          status: authChallenges.status,
          expiresAt: authChallenges.expiresAt,
          clinicPhone: clinics.phone,
        })
        .from(authChallenges)
        .innerJoin(clinics, eq(clinics.id, authChallenges.clinicId))
        .where(eq(authChallenges.tokenHash, tokenHash));
      if (
        !challenge ||
        challenge.status !== 'pending' ||
        challenge.expiresAt.getTime() <= clock()
      ) {
        throw new AppError(
          'invalid_two_factor_token',
          400,
          'The code has expired or was replaced; request a new one',
        );
      }
      return {
        delivery: await codeDelivery(db, tokenHash),
        clinicPhone: challenge.clinicPhone,
      };
    },
  );
};

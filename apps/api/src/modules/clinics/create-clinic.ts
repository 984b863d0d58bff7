import { weekDays } from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import type { ClinicRepository } from './setup-repository.js';
import { canonicalTimeZone } from './setup-steps.js';

/** A new clinic as the operator gives it (`npm run marpe -- create-clinic`). */
export interface NewClinicInput {
  name: string;
  phone: string;
  street: string;
  homeNumber: string;
  city: string;
  /** A zone isValidTimeZone accepts; default Asia/Jerusalem. */
  timezone?: string;
}

/** Creates a clinic, closed all week until its hours are set, with its audit entry; its id. */
export async function createClinic(
  repository: Pick<ClinicRepository, 'db' | 'insertClinic'>,
  input: NewClinicInput,
  actor: string,
  now: number,
): Promise<number> {
  return repository.db.transaction(async (tx) => {
    const id = await repository.insertClinic(tx, {
      name: input.name,
      phone: input.phone,
      street: input.street,
      homeNumber: input.homeNumber,
      city: input.city,
      openingHours: {
        title: null,
        days: Object.fromEntries(weekDays.map((day) => [day, null])) as Record<
          (typeof weekDays)[number],
          null
        >,
      },
      ...(input.timezone === undefined ? {} : { timezone: canonicalTimeZone(input.timezone) }),
    });
    await audit(tx, {
      clinicId: id,
      actor,
      action: 'clinic.create',
      targetType: 'clinic',
      targetId: id,
      details: { changes: input },
      at: new Date(now),
    });
    return id;
  });
}

import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { CreatedStaffInvitation, StaffList, StaffRole } from '@marpe/shared';
import { audit } from '../../platform/audit.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import {
  clinics,
  isStoredId,
  staffAccounts,
  staffInvitations,
  staffMemberships,
} from '../../platform/db/schema.js';
import { AppError, clinicNotFound } from '../../platform/errors.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import type { Messaging } from '../messaging/messaging.js';
import { staffAuthRules } from './staff-auth-rules.js';
import type { StaffRepository } from './staff-repository.js';

export interface StaffMembersDeps {
  repository: StaffRepository;
  /** Sends invitation links; the operator's CLI has none and prints them instead. */
  messaging: Pick<Messaging, 'queueSms' | 'kick'> | null;
  clock: () => number;
  publicOrigin: string;
}

const memberNotFound = () =>
  new AppError('staff_member_not_found', 404, 'No such staff member at this clinic');

const lastOwner = () =>
  new AppError(
    'last_owner',
    409,
    'The clinic must keep at least one owner: make someone else an owner first',
  );

/** The link an invitation's holder opens: the desk's invitation page. */
export const invitationUrl = (publicOrigin: string, token: string) =>
  `${publicOrigin}/desk/invite/${token}`;

/** The SMS with an invitation's link. */
function invitationMessage(clinicName: string, url: string): string {
  return `הוזמנת לצוות ${clinicName} בדלפק מרפא. להצטרפות: ${url}`;
}

/**
 * A clinic's staff as its owners (and keys, and the operator's CLI) manage them: invitations by
 * mobile number, roles, removal. The clinic always keeps one owner: the last cannot be removed or
 * made front desk, checked under a per-clinic lock so two owners cannot remove each other at once.
 */
export function createStaffMembers(deps: StaffMembersDeps) {
  const { repository, messaging, clock, publicOrigin } = deps;
  const { db } = repository;

  async function clinicName(ex: Executor, clinicId: number): Promise<string> {
    const [row] = isStoredId(clinicId)
      ? await ex.select({ name: clinics.name }).from(clinics).where(eq(clinics.id, clinicId))
      : [];
    if (!row) throw clinicNotFound(clinicId);
    return row.name;
  }

  async function lockedMember(tx: Executor, clinicId: number, membershipId: number) {
    if (!isStoredId(membershipId)) throw memberNotFound();
    await repository.lockClinicStaff(tx, clinicId);
    const [row] = await tx
      .select({ membership: staffMemberships, name: staffAccounts.name })
      .from(staffMemberships)
      .innerJoin(staffAccounts, eq(staffAccounts.id, staffMemberships.accountId))
      .where(and(eq(staffMemberships.id, membershipId), eq(staffMemberships.clinicId, clinicId)));
    if (!row) throw memberNotFound();
    return row;
  }

  return {
    async list(clinicId: number): Promise<StaffList> {
      const now = new Date(clock());
      const members = await db
        .select({ membership: staffMemberships, account: staffAccounts })
        .from(staffMemberships)
        .innerJoin(staffAccounts, eq(staffAccounts.id, staffMemberships.accountId))
        .where(eq(staffMemberships.clinicId, clinicId))
        .orderBy(asc(staffAccounts.name), asc(staffMemberships.id));
      const invitations = await db
        .select()
        .from(staffInvitations)
        .where(
          and(
            eq(staffInvitations.clinicId, clinicId),
            isNull(staffInvitations.usedAt),
            isNull(staffInvitations.revokedAt),
            gt(staffInvitations.expiresAt, now),
          ),
        )
        .orderBy(asc(staffInvitations.id));
      return {
        members: members.map(({ membership, account }) => ({
          id: membership.id,
          account_id: account.id,
          name: account.name,
          phone: account.phone,
          role: membership.role,
          created_at: membership.createdAt.toISOString(),
        })),
        invitations: invitations.map((i) => ({
          id: i.id,
          name: i.name,
          phone: i.phone,
          role: i.role,
          created_at: i.createdAt.toISOString(),
          expires_at: i.expiresAt.toISOString(),
        })),
      };
    },

    /** A one-time invitation link for the phone (by SMS too unless `sendSms` is false). */
    async invite(
      clinicActor: ClinicActor,
      input: { name: string; phone: string; role: StaffRole; sendSms?: boolean },
      executor?: Executor,
    ): Promise<CreatedStaffInvitation> {
      const token = randomToken();
      const now = clock();
      const url = invitationUrl(publicOrigin, token);
      const work = async (tx: Executor) => {
        const name = await clinicName(tx, clinicActor.clinicId);
        const invitation = await repository.insertInvitation(tx, {
          clinicId: clinicActor.clinicId,
          phone: input.phone,
          name: input.name,
          role: input.role,
          tokenHash: sha256Hex(token),
          invitedBy: clinicActor.actor,
          createdAt: new Date(now),
          expiresAt: new Date(now + staffAuthRules.invitationMs),
        });
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'staff.invite',
          targetType: 'staff_invitation',
          targetId: invitation.id,
          details: { name: input.name, role: input.role },
          at: new Date(now),
        });
        if (input.sendSms !== false) {
          if (!messaging) throw new Error('invitations cannot be sent from here');
          await messaging.queueSms(tx, {
            clinicId: clinicActor.clinicId,
            to: input.phone,
            body: invitationMessage(name, url),
            kind: 'staff_invitation',
          });
        }
        return {
          id: invitation.id,
          name: invitation.name,
          phone: invitation.phone,
          role: invitation.role,
          created_at: invitation.createdAt.toISOString(),
          expires_at: invitation.expiresAt.toISOString(),
          url,
        };
      };
      const created = executor ? await work(executor) : await db.transaction(work);
      if (input.sendSms !== false) messaging?.kick();
      return created;
    },

    async revokeInvitation(clinicActor: ClinicActor, invitationId: number): Promise<void> {
      const at = new Date(clock());
      await db.transaction(async (tx) => {
        const revoked = isStoredId(invitationId)
          ? await tx
              .update(staffInvitations)
              .set({ revokedAt: at })
              .where(
                and(
                  eq(staffInvitations.id, invitationId),
                  eq(staffInvitations.clinicId, clinicActor.clinicId),
                  isNull(staffInvitations.usedAt),
                  isNull(staffInvitations.revokedAt),
                ),
              )
              .returning({ id: staffInvitations.id })
          : [];
        if (revoked.length === 0) {
          throw new AppError('invitation_not_found', 404, 'No open invitation with this id');
        }
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'staff.invitation_revoke',
          targetType: 'staff_invitation',
          targetId: invitationId,
          at,
        });
      });
    },

    async changeRole(
      clinicActor: ClinicActor,
      membershipId: number,
      role: StaffRole,
    ): Promise<void> {
      const at = new Date(clock());
      await db.transaction(async (tx) => {
        const { membership, name } = await lockedMember(tx, clinicActor.clinicId, membershipId);
        if (membership.role === role) return;
        if (
          membership.role === 'owner' &&
          (await repository.countOwners(tx, clinicActor.clinicId)) <= 1
        ) {
          throw lastOwner();
        }
        await tx
          .update(staffMemberships)
          .set({ role })
          .where(eq(staffMemberships.id, membershipId));
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'staff.role_change',
          targetType: 'staff_account',
          targetId: membership.accountId,
          details: { name, from: membership.role, to: role },
          at,
        });
      });
    },

    /** Removes the member from the clinic; their sessions can no longer act for it. */
    async remove(clinicActor: ClinicActor, membershipId: number): Promise<void> {
      const at = new Date(clock());
      await db.transaction(async (tx) => {
        const { membership, name } = await lockedMember(tx, clinicActor.clinicId, membershipId);
        if (
          membership.role === 'owner' &&
          (await repository.countOwners(tx, clinicActor.clinicId)) <= 1
        ) {
          throw lastOwner();
        }
        await tx.delete(staffMemberships).where(eq(staffMemberships.id, membershipId));
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'staff.remove',
          targetType: 'staff_account',
          targetId: membership.accountId,
          details: { name, role: membership.role },
          at,
        });
      });
    },
  };
}

export type StaffMembers = ReturnType<typeof createStaffMembers>;

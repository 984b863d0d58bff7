import { z } from 'zod';
import {
  createdStaffInvitationSchema,
  createStaffInvitationBodySchema,
  errorBodySchema,
  integrationIdParamsSchema,
  staffListSchema,
  updateStaffMemberBodySchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  callerOf,
  refuseNulCharacters,
  clinicActorOf,
} from '../../platform/http/integration-routes.js';
import type { StaffMembers } from './staff-members.js';

export interface StaffClinicRoutesOptions {
  members: StaffMembers;
}

const tags = ['integration'];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const noContent = { 204: z.null().describe('Done') };

/** `/api/integration/staff`: who works at the clinic in the desk, and their invitations. */
export const staffClinicRoutes: FastifyPluginAsyncZod<StaffClinicRoutesOptions> = async (
  app,
  { members },
) => {
  app.addHook('preValidation', refuseNulCharacters);

  app.get(
    '/staff',
    {
      schema: {
        tags,
        summary: "The clinic's staff (desk accounts) and the invitations still open",
        response: { 200: staffListSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return members.list(callerOf(request).clinicId);
    },
  );

  app.post(
    '/staff/invitations',
    {
      schema: {
        tags,
        summary:
          'Invites someone to the desk by mobile number (201): a one-time link, valid 7 days, sent by SMS unless send_sms is false and shown in the answer this once. Whoever opens it proves the phone with a code and joins with the role. Audited',
        body: createStaffInvitationBodySchema,
        response: { 201: createdStaffInvitationSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { name, phone, role, send_sms: sendSms } = request.body;
      const created = await members.invite(clinicActorOf(request), { name, phone, role, sendSms });
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/staff/invitations/:id',
    {
      schema: {
        tags,
        summary: 'Cancels an open invitation (204): its link stops working. Audited',
        params: integrationIdParamsSchema,
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await members.revokeInvitation(clinicActorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/staff/:id',
    {
      schema: {
        tags,
        summary:
          "Changes a staff member's role (the id is the membership's); 409 last_owner when it would leave the clinic without an owner. Audited",
        params: integrationIdParamsSchema,
        body: updateStaffMemberBodySchema,
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await members.changeRole(clinicActorOf(request), request.params.id, request.body.role);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/staff/:id',
    {
      schema: {
        tags,
        summary:
          "Removes a staff member from the clinic (204): their desk sessions can no longer act for it; 409 last_owner for the clinic's last owner. Audited",
        params: integrationIdParamsSchema,
        response: { ...noContent, ...errors },
      },
    },
    async (request, reply) => {
      await members.remove(clinicActorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

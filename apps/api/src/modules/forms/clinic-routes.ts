import { z } from 'zod';
import {
  createdFormRequestSchema,
  createFormRequestBodySchema,
  createFormTemplateBodySchema,
  errorBodySchema,
  formRequestSchema,
  formRequestsQuerySchema,
  formRequestsSchema,
  formSubmissionSchema,
  formTemplateSchema,
  formTemplateSummariesSchema,
  integrationIdParamsSchema,
  resendFormRequestBodySchema,
  resentFormRequestSchema,
  updateFormTemplateBodySchema,
  type FormRequest,
  type FormTemplate,
  type FormTemplateSummary,
} from '@marpe/shared';
import { privateAnswer } from '../../platform/http/private-answer.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClinicFormRequest } from './read-form-requests.js';
import type { CreatedFormRequestLink, FormRequests } from './form-requests.js';
import type { FormTemplateRow, FormTemplates } from './form-templates.js';
import { actorOf, callerOf } from '../../platform/http/integration-routes.js';

export interface FormsIntegrationRoutesOptions {
  templates: FormTemplates;
  requests: FormRequests;
}

const tags = ['integration'];
const iso = (date: Date | null) => (date === null ? null : date.toISOString());

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
};

function summaryOf(row: FormTemplateRow): FormTemplateSummary {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const templateOf = (row: FormTemplateRow): FormTemplate => ({
  ...summaryOf(row),
  schema: row.schema,
});

function requestOf(request: ClinicFormRequest): FormRequest {
  return {
    id: request.id,
    patient_id_number: request.patientIdNumber,
    patient_name: request.patientName,
    stage: request.stage,
    opened_at: iso(request.openedAt),
    draft_saved_at: iso(request.draftSavedAt),
    template_id: request.templateId,
    template_name: request.templateName,
    status: request.status,
    created_at: request.createdAt.toISOString(),
    expires_at: request.expiresAt.toISOString(),
    submitted_at: iso(request.submittedAt),
  };
}

const linkOf = (link: CreatedFormRequestLink) => ({
  id: link.id,
  url: link.url,
  expires_at: link.expiresAt.toISOString(),
  status: 'pending' as const,
  sent_by: link.sentBy,
});

/**
 * `/api/integration/form-templates` and `/api/integration/form-requests`: the clinic's intake
 * forms, the links it sends and what comes back (docs/integration.md, "Intake forms").
 */
export const formsIntegrationRoutes: FastifyPluginAsyncZod<FormsIntegrationRoutesOptions> = async (
  app,
  { templates, requests },
) => {
  app.get(
    '/form-templates',
    {
      schema: {
        tags,
        summary: "The clinic's form templates, oldest first (without their schemas)",
        response: { 200: formTemplateSummariesSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const rows = await templates.list(callerOf(request).clinicId);
      return rows.map(summaryOf);
    },
  );

  app.post(
    '/form-templates',
    {
      schema: {
        tags,
        summary:
          'Creates a template (201). The schema is checked as the form engine needs it (docs/forms.md); 400 names each bad path (`schema.0.fields.2.conditions`); 409 when the name is taken',
        body: createFormTemplateBodySchema,
        response: { 201: formTemplateSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const row = await templates.create(caller.clinicId, request.body, actorOf(caller));
      return reply.status(201).send(templateOf(row));
    },
  );

  app.get(
    '/form-templates/:id',
    {
      schema: {
        tags,
        summary: 'One template with its schema',
        params: integrationIdParamsSchema,
        response: { 200: formTemplateSchema, ...errors },
      },
    },
    async (request) =>
      templateOf(await templates.get(callerOf(request).clinicId, request.params.id)),
  );

  // PUT gives the name and the schema, PATCH either or both: one update answers both.
  const templateUpdates = [
    {
      method: 'PUT',
      summary:
        'Replaces the name and the schema. Links already sent keep the form they were made with',
      body: createFormTemplateBodySchema,
    },
    {
      method: 'PATCH',
      summary:
        'Replaces the name, the schema or both. Links already sent keep the form they were made with',
      body: updateFormTemplateBodySchema,
    },
  ] as const;
  for (const { method, summary, body } of templateUpdates) {
    app.route({
      method,
      url: '/form-templates/:id',
      schema: {
        tags,
        summary,
        params: integrationIdParamsSchema,
        body,
        response: { 200: formTemplateSchema, ...errors, 409: errorBodySchema },
      },
      handler: async (request) => {
        const caller = callerOf(request);
        const row = await templates.update(
          caller.clinicId,
          request.params.id,
          request.body,
          actorOf(caller),
        );
        return templateOf(row);
      },
    });
  }

  app.delete(
    '/form-templates/:id',
    {
      schema: {
        tags,
        summary:
          'Deletes a template (204). Its links keep working with their own copy of the form; their template_id becomes null',
        params: integrationIdParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      await templates.remove(caller.clinicId, request.params.id, actorOf(caller));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/form-requests',
    {
      onRequest: privateAnswer,
      schema: {
        tags,
        summary:
          'Makes a form link (201; the url is in this answer only). With send_to_phone the link is also sent in the clinic’s name by its channel (WhatsApp when chosen and connected, else SMS; sent_by says which); 429 when a message cap is full. With patient_id_number (400 when not a valid ID number, 404 patient_not_found when not the clinic’s) the request is the patient’s and init_data starts with their details',
        body: createFormRequestBodySchema,
        response: { 201: createdFormRequestSchema, ...errors, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const link = await requests.create(caller.clinicId, request.body, actorOf(caller));
      return reply.status(201).send(linkOf(link));
    },
  );

  app.post(
    '/form-requests/:id/resend',
    {
      onRequest: privateAnswer,
      schema: {
        tags,
        summary:
          'A fresh link for a pending, unexpired request (the url is in this answer only): the link sent before stops working at once (404), the form and the answers kept so far stay; with send_to_phone it is sent by the clinic’s channel. 409 when submitted, cancelled or expired. Audited',
        params: integrationIdParamsSchema,
        body: resendFormRequestBodySchema.nullish(),
        response: {
          200: resentFormRequestSchema,
          ...errors,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const link = await requests.resend(
        caller.clinicId,
        request.params.id,
        request.body ?? {},
        actorOf(caller),
      );
      return { ...linkOf(link), previous_link_ended: true as const };
    },
  );

  app.get(
    '/form-requests',
    {
      schema: {
        tags,
        summary:
          'The clinic’s form requests, newest first; `before` (a request id) pages on; `status` or the finer `stage` filters (expired: pending past expires_at), `patient_id_number` keeps one patient’s, `from`/`to` the days made on (the clinic’s time zone)',
        querystring: formRequestsQuerySchema,
        response: { 200: formRequestsSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const rows = await requests.list(callerOf(request).clinicId, request.query);
      return rows.map(requestOf);
    },
  );

  app.get(
    '/form-requests/:id',
    {
      schema: {
        tags,
        summary: 'One form request: status and times (never its link)',
        params: integrationIdParamsSchema,
        response: { 200: formRequestSchema, ...errors },
      },
    },
    async (request) => requestOf(await requests.get(callerOf(request).clinicId, request.params.id)),
  );

  app.post(
    '/form-requests/:id/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancels a pending request: its link then answers 404. A cancelled one stays so; 409 when already submitted',
        params: integrationIdParamsSchema,
        response: { 200: formRequestSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return requestOf(await requests.cancel(caller.clinicId, request.params.id, actorOf(caller)));
    },
  );

  app.get(
    '/form-requests/:id/submission',
    {
      onRequest: privateAnswer,
      schema: {
        tags,
        summary:
          'What the patient submitted: field name → text, a checkbox’s boolean, a signature’s image data URL; with the form as the patient saw it (its placeholders resolved); 404 before the submit',
        params: integrationIdParamsSchema,
        response: { 200: formSubmissionSchema, ...errors },
      },
    },
    async (request) => {
      const filled = await requests.submission(callerOf(request).clinicId, request.params.id);
      return {
        values: filled.values,
        submitted_at: filled.submittedAt.toISOString(),
        schema: filled.schema,
      };
    },
  );

  app.get(
    '/form-requests/:id/submission.pdf',
    {
      onRequest: privateAnswer,
      schema: {
        tags,
        summary:
          'The submitted form as a PDF (application/pdf): clinic and form names, submission time, every visible answer and the signatures; 404 before the submit',
        params: integrationIdParamsSchema,
        response: {
          200: {
            description: 'The PDF',
            content: { 'application/pdf': { schema: z.custom<Buffer>() } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const pdf = await requests.pdf(callerOf(request).clinicId, id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="form-${id}.pdf"`)
        .send(pdf);
    },
  );
};

import {
  errorBodySchema,
  getFormBodySchema,
  getFormResponseSchema,
  saveFormDraftBodySchema,
  saveFormDraftResponseSchema,
  submitFormBodySchema,
  submitFormResponseSchema,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { linkRouteLimit, privateAnswer } from '../../platform/http/private-answer.js';
import type { FormsService } from './forms-service.js';

export interface FormsRoutesOptions {
  service: FormsService;
}

/** Room for a few signatures (each up to signatureMaxBytes) and the text answers. */
const SUBMIT_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * `POST /get-form` and `POST /submit` (docs/product/intake-form.md#calls): no login, the link token
 * is the access.
 */
export const formsRoutes: FastifyPluginAsyncZod<FormsRoutesOptions> = async (app, { service }) => {
  app.post(
    '/get-form',
    {
      onRequest: privateAnswer,
      config: { rateLimit: linkRouteLimit },
      schema: {
        tags: ['forms'],
        summary:
          'The intake form of a link token: schema, initData and header image; 404 when the link is unknown, expired or used',
        body: getFormBodySchema,
        response: { 200: getFormResponseSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => service.getForm(request.body.token),
  );

  app.post(
    '/save-form-draft',
    {
      onRequest: privateAnswer,
      // The patient's text: cleaned as the form engine cleans it, not refused.
      config: { rateLimit: linkRouteLimit, dropLoneSurrogates: ['inputData'] },
      bodyLimit: SUBMIT_BODY_LIMIT,
      schema: {
        tags: ['forms'],
        summary:
          "Keeps the link's unsent answers and step on the server (encrypted), replacing the last draft; get-form answers it; deleted on submit and when the link ends; 400 names a key the form cannot hold; 404 when the link is unknown, expired or used",
        body: saveFormDraftBodySchema,
        response: {
          200: saveFormDraftResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { token, inputData, stepIndex } = request.body;
      await service.saveDraft(token, { inputData, stepIndex });
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/submit',
    {
      onRequest: privateAnswer,
      // The patient's text: cleaned as the form engine cleans it, not refused.
      config: { rateLimit: linkRouteLimit, dropLoneSurrogates: ['inputData'] },
      bodyLimit: SUBMIT_BODY_LIMIT,
      schema: {
        tags: ['forms'],
        summary:
          'Validates and stores the answers, using the link; 400 validation_failed lists the bad fields; the same answers again answer ok; 404 when the link is unknown, expired or used',
        body: submitFormBodySchema,
        response: { 200: submitFormResponseSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      await service.submit(request.body.token, request.body.inputData, request.ip);
      return { status: 'ok' as const };
    },
  );
};

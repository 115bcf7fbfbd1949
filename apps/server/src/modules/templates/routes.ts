import {
  errorSchema,
  idParamsSchema,
  messageSchema,
  messageTemplateListSchema,
  messageTemplateSchema,
  saveMessageTemplateSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { createTemplate, getTemplates, removeTemplate, saveTemplate } from './service';

const tags = ['messages'];

export function registerTemplateRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/message-templates',
    {
      schema: {
        tags,
        summary: "The centre's message templates: one text per language, each mapped to its approved WhatsApp template",
        response: { 200: messageTemplateListSchema },
      },
    },
    async () => getTemplates(ctx),
  );

  app.post(
    '/message-templates',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Add a notice template',
        body: saveMessageTemplateSchema,
        response: { 201: messageTemplateSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createTemplate(ctx, currentUser(request), request.body)),
  );

  app.put(
    '/message-templates/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "Replace a template's name, subject and texts (its purpose stays)",
        params: idParamsSchema,
        body: saveMessageTemplateSchema,
        response: { 200: messageTemplateSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => saveTemplate(ctx, currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/message-templates/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Delete a notice template (the alert templates stay)',
        params: idParamsSchema,
        response: { 200: messageSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => removeTemplate(ctx, currentUser(request), request.params.id),
  );
}

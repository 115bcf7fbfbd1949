import {
  centreSchema,
  errorSchema,
  publicCentreSchema,
  updateCentreSchema,
  uploadCentreLogoSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import { registerSettingResource } from '../../plugins/setting-routes';
import type { ZodApp } from '../../plugins/zod-app';
import { getCentre, getLogo, getPublicCentre, removeLogo, updateCentre, uploadLogo } from './service';

const tags = ['settings'];

/** `/settings/centre` (the centre's name, logo and time zone) and the public `/centre` the parent app's sign-in reads. */
export function registerCentreRoutes(app: ZodApp, ctx: AppContext): void {
  registerSettingResource(app, {
    path: '/settings/centre',
    answer: centreSchema,
    body: updateCentreSchema,
    read: {
      summary: "The centre's name, logo, time zone and today's date on its clock",
      description:
        'Every signed-in staff member may read it (the console takes "today" from it). `fixed_by_server` names the values the server\'s environment fixes (TZ): they cannot be changed here.',
      run: () => getCentre(ctx),
    },
    change: {
      summary: "Change the centre's name or time zone",
      description:
        'Each field is changed only when given. The time zone is an IANA name (Asia/Kolkata); "today", marking windows, reminders and every date follow it at once. When the server fixes it (TZ), another zone is refused with 409.',
      mayConflict: true,
      run: (user, body) => updateCentre(ctx, user, body),
    },
  });

  app.put(
    '/settings/centre/logo',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "Upload the centre's logo",
        description:
          "A PNG, JPEG or WebP picture of at most 256 KB, base64-encoded. The type is told by the picture's first bytes: anything else (SVG, GIF, a renamed file) is refused with 422.",
        body: uploadCentreLogoSchema,
        response: { 200: centreSchema, 422: errorSchema },
      },
    },
    async (request) => uploadLogo(ctx, currentUser(request), request.body),
  );

  app.delete(
    '/settings/centre/logo',
    {
      config: adminOnly,
      schema: { tags, summary: "Remove the centre's logo", response: { 200: centreSchema } },
    },
    async (request) => removeLogo(ctx, currentUser(request)),
  );

  app.get(
    '/centre',
    {
      config: { isPublic: true },
      schema: {
        tags,
        summary:
          "The centre's name and logo, for the parent app's sign-in page, and its time zone (the parent app's days)",
        response: { 200: publicCentreSchema },
      },
    },
    async () => getPublicCentre(ctx),
  );

  app.get(
    '/centre/logo',
    {
      config: { isPublic: true },
      schema: {
        tags,
        summary: "The centre's logo (the picture)",
        description: 'The PNG, JPEG or WebP picture as uploaded; 404 when the centre has none.',
      },
    },
    async (request, reply) => {
      const logo = await getLogo(ctx);
      reply
        .header('Cache-Control', 'public, max-age=300')
        .header('ETag', logo.etag)
        .header('Content-Security-Policy', "default-src 'none'");
      if (request.headers['if-none-match'] === logo.etag) return reply.code(304).send();
      return reply.type(logo.contentType).send(logo.bytes);
    },
  );
}

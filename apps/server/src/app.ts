import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { API_BASE_PATH, errorWords } from '@tuitiondesk/contract';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { webPageScriptHashes } from './lib/inline-scripts';
import { SERVER_DIR } from './lib/server-dir';
import { registerActivityRoutes } from './modules/activities';
import { registerAnalyticsRoutes } from './modules/analytics';
import {
  registerAttendanceRoutes,
  registerCentreSettingsRoutes,
  registerMarkingRuleRoutes,
} from './modules/attendance';
import { registerAuditRoutes } from './modules/audit';
import {
  findStaffSession,
  registerAuthRoutes,
  registerTwoFactorPolicyRoutes,
  registerTwoFactorRoutes,
} from './modules/auth';
import { registerBackupRoutes } from './modules/backups';
import { registerCallListRoutes } from './modules/call-list';
import { registerCentreRoutes } from './modules/centre';
import { registerClassRoutes } from './modules/classes';
import { registerConversationRoutes } from './modules/conversations';
import { registerDashboardRoutes } from './modules/dashboard';
import { registerMessagingSettingsRoutes, registerPushRoutes, registerWhatsappSetupRoutes } from './modules/delivery';
import { registerBulkAccessRoutes } from './modules/families';
import {
  type ParentPayLinks,
  registerFeeExportRoutes,
  registerFeeMatchTaskRoutes,
  registerFeePlanRoutes,
  registerFeeReminderRoutes,
  registerFeeRoutes,
  registerParentFeeRoutes,
} from './modules/fees';
import { registerHealthRoutes } from './modules/health';
import { registerImportRoutes } from './modules/imports';
import { registerLeaveRoutes } from './modules/leave';
import { registerMessageRoutes, registerWhatsappWebhookRoutes } from './modules/messages';
import { findParentSession, registerParentRoutes } from './modules/parents';
import { familyPaymentLink, findOpenLink, registerPaymentGatewayRoutes } from './modules/payment-gateway';
import { registerReminderRoutes } from './modules/reminders';
import { registerPhoneSettingsRoutes } from './modules/settings';
import { registerStudentRoutes } from './modules/students';
import { registerTeacherAttendanceRoutes } from './modules/teacher-attendance';
import { registerTeacherRoutes } from './modules/teachers';
import { registerTemplateRoutes } from './modules/templates';
import { registerAuditContext } from './plugins/audit-context';
import { registerAuthentication } from './plugins/authentication';
import { registerCompression } from './plugins/compression';
import { answerClientError, problemBody, registerErrorHandling, routeNotFound } from './plugins/errors';
import { frameworkErrors, registerInputGuards } from './plugins/input-guards';
import type { ZodApp } from './plugins/zod-app';

/**
 * The family's Razorpay links (the payment-gateway module's), handed to fees, which cannot import them:
 * the parent app's Pay button and the fee reminders' pay link (ADR 059, ADR 061).
 */
export const FAMILY_PAY_LINKS: ParentPayLinks = {
  open: findOpenLink,
  make: (context, actor, familyId) => familyPaymentLink(context, actor, familyId, undefined),
};

/** Every module's routes, in the order the API document lists them (registered under API_BASE_PATH). */
export const API_ROUTES: ((app: ZodApp, ctx: AppContext) => void)[] = [
  registerHealthRoutes,
  registerAuthRoutes,
  registerTwoFactorRoutes,
  registerStudentRoutes,
  registerTeacherRoutes,
  registerClassRoutes,
  registerAttendanceRoutes,
  registerLeaveRoutes,
  registerTeacherAttendanceRoutes,
  registerMessageRoutes,
  registerWhatsappWebhookRoutes,
  // Fees' online payment: a family's Razorpay link and Razorpay's signed webhook (ADR 053).
  registerPaymentGatewayRoutes,
  registerFeeRoutes,
  registerFeePlanRoutes,
  registerFeeExportRoutes,
  registerFeeMatchTaskRoutes,
  // Fee reminders (ADR 061), with the family's pay link.
  (app, ctx) => registerFeeReminderRoutes(app, ctx, FAMILY_PAY_LINKS),
  registerCallListRoutes,
  registerAnalyticsRoutes,
  registerConversationRoutes,
  registerTemplateRoutes,
  registerImportRoutes,
  registerActivityRoutes,
  registerDashboardRoutes,
  registerParentRoutes,
  // Fees in the parent app (ADR 059), handed the family's Razorpay links, which fees cannot import.
  (app, ctx) => registerParentFeeRoutes(app, ctx, FAMILY_PAY_LINKS),
  registerBulkAccessRoutes,
  registerPushRoutes,
  // The /settings/... routes, each registered by the module that owns the setting, in the order they always had.
  registerCentreSettingsRoutes,
  registerCentreRoutes,
  registerTwoFactorPolicyRoutes,
  registerMarkingRuleRoutes,
  registerMessagingSettingsRoutes,
  registerWhatsappSetupRoutes,
  registerPhoneSettingsRoutes,
  registerReminderRoutes,
  registerBackupRoutes,
  registerAuditRoutes,
];

const DEFAULT_WEB_DIST = path.resolve(SERVER_DIR, '../web/dist');

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole HTTP application on a context; the server and every API test build it the same way. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const http = ctx.config.http;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: ctx.config.trustProxy,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    // Fastify's defaults leave a slow client no limit at all (ADR 020).
    requestTimeout: http.requestMs,
    connectionTimeout: http.socketIdleMs,
    keepAliveTimeout: http.keepAliveMs,
    maxRequestsPerSocket: http.maxRequestsPerSocket,
    http: {
      requestTimeout: http.requestMs,
      headersTimeout: http.headersMs,
      connectionsCheckingInterval: http.checkIntervalMs,
    },
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  // Sign-in is posted form-encoded (username=…&password=…), as an HTML form would post it; JSON works too.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  const webDist = ctx.config.webDistDir ?? DEFAULT_WEB_DIST;
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The pages' one inline script, their guard for their first scripts (ADR 030), by its hash.
        scriptSrc: ["'self'", ...webPageScriptHashes(webDist)],
        // MUI (emotion) injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // As the CSP's frame-ancestors 'none', for browsers that only know the older header.
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });

  await registerCompression(app);

  await app.register(fastifyMultipart, {
    limits: {
      fileSize: ctx.config.importMaxBytes,
      files: 1,
      fields: 10,
      parts: 12,
      fieldSize: 1024,
      headerPairs: 200,
    },
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'TuitionDesk API',
        description:
          'The staff console API of a tuition centre. Every call except login and health needs `Authorization: Bearer <access_token>`. Every error body is `{"detail": "..."}`.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Its own policy, as strict as the console's on framing, and usable over plain http (local installs).
    transformStaticCSP: (header) =>
      header.replace("frame-ancestors 'self'", "frame-ancestors 'none'").replace(/\s*upgrade-insecure-requests;?/, ''),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerAuthentication(app, ctx, { staff: findStaffSession, parent: findParentSession });
  registerAuditContext(app);
  registerInputGuards(app);

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });

  await app.register(
    async (scope) => {
      const api = scope.withTypeProvider<ZodTypeProvider>();
      for (const registerRoutes of API_ROUTES) registerRoutes(api, ctx);
    },
    { prefix: API_BASE_PATH },
  );

  await registerWebConsole(app, webDist);
  return app;
}

/** The built console, with every unknown non-API path answered by its index page (client-side routes). */
async function registerWebConsole(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) return;
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    maxAge: '1h',
    // index-abc.js.br / .gz written at build: sent as they are to browsers that accept them.
    preCompressed: true,
    // Pages and both apps' service workers and manifests are checked on every load; the hashed
    // /assets/ files keep the hour.
    setHeaders: (reply, file) => {
      // The file sent may be the copy compressed at build (index.html.br): it is the same page.
      if (/(\.html|[\\/](parent[\\/]sw\.js|console-sw\.js|manifest\.webmanifest))(\.br|\.gz)?$/.test(file))
        reply.header('cache-control', 'no-cache');
    },
  });
  const sendIndex = (reply: FastifyReply) => {
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  };
  app.get('/', (_request, reply) => sendIndex(reply));
  // The parent app (its own page and bundle): /parent and every non-file path under it.
  if (existsSync(path.join(distDir, 'parent', 'index.html'))) {
    const sendParent = (request: { url: string }, reply: FastifyReply) => {
      const [pathname = '', query] = request.url.split('?');
      // /parent → /parent/, inside the service worker's and the manifest's scope (a fragment carries over).
      if (pathname === '/parent') return reply.redirect(`/parent/${query === undefined ? '' : `?${query}`}`);
      if (path.extname(pathname) !== '') {
        return reply.status(404).send(problemBody(errorWords('file.not_found', { path: pathname })));
      }
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('parent/index.html');
    };
    app.get('/parent', sendParent);
    app.get('/parent/*', sendParent);
  }
  app.get('/*', (request, reply) => {
    if (request.url.startsWith('/api/') || path.extname(request.url.split('?')[0] ?? '') !== '') {
      return reply.status(404).send(problemBody(routeNotFound(request.method, request.url)));
    }
    return sendIndex(reply);
  });
}

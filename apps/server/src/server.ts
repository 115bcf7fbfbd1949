import { buildApp, FAMILY_PAY_LINKS } from './app';
import { prepareContext } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { openConfiguredDatabase } from './db/open';
import { Housekeeping } from './lib/housekeeping';
import { memoryReport } from './lib/memory-report';
import { adminPasswordProblem } from './lib/password-policy';
import { deleteOldSubmissions } from './modules/attendance';
import { dailyAuditRetention } from './modules/audit';
import { deleteExpiredThrottleRows } from './modules/auth';
import { CentreClockLoop } from './modules/centre';
import { startWhatsapp } from './modules/delivery';
import { ChargeRunLoop, FeeReminderLoop } from './modules/fees';
import { RazorpayReconciler } from './modules/payment-gateway';
import { MarkingReminderLoop } from './modules/reminders';
import { scrubStudentsWhoLeft } from './modules/students';

/** How often forgotten sign-in throttle rows are deleted. */
const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const adminProblem = adminPasswordProblem(config.adminPassword);
  if (adminProblem) throw new ConfigError(`Invalid configuration:\n  ADMIN_PASSWORD: ${adminProblem}`);

  const { db, release: releaseLock } = await openConfiguredDatabase(config.database, {
    onError: (error) => process.stderr.write(`PostgreSQL connection lost: ${error.message}\n`),
  });

  const { ctx, generatedAdminPassword } = await prepareContext(config, db);
  const app = await buildApp(ctx, {
    logger: {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.new_password',
          '*.current_password',
        ],
        remove: true,
      },
    },
  });

  const housekeeping = new Housekeeping(
    [
      { name: 'sign-in throttle clean-up', run: () => deleteExpiredThrottleRows(db) },
      { name: 'queued marks clean-up', run: () => deleteOldSubmissions(db) },
      { name: 'audit log retention', run: dailyAuditRetention(db) },
      // Due once a day (a leaving day passes the limit at midnight); a round that finds none costs one look.
      { name: 'scrub of students who left', run: () => scrubStudentsWhoLeft(db) },
    ],
    HOUSEKEEPING_INTERVAL_MS,
    app.log.child({ module: 'housekeeping' }),
  );

  // Reminders claimed here are pushed at once by this instance's worker.
  const reminders = new MarkingReminderLoop(db, () => ctx.push.wake());
  // Another instance's change of the centre's time zone reaches this one's clock (ADR 042).
  const centreClock = new CentreClockLoop(ctx);
  // The fees' automatic charge run, at the hour the centre set (ADR 052).
  const chargeRun = new ChargeRunLoop(db);
  // The fee reminders, at the hour the centre set, checked against the ledger as each goes (ADR 061).
  const feeReminders = new FeeReminderLoop(ctx, FAMILY_PAY_LINKS);
  ctx.reminders = reminders;
  // Online payment on: payments the webhook did not bring are found every RAZORPAY_RECONCILE_SECONDS (ADR 053).
  const reconciler = config.razorpay ? new RazorpayReconciler(db, config.razorpay) : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing in-flight requests`);
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    // Node closes the keep-alive connections idle when closing starts, not those busy with a request
    // then: close each once its answer is sent, or a browser's connection holds the process open.
    setInterval(() => app.server.closeIdleConnections(), 100).unref();
    try {
      // The pushes and WhatsApp sends in flight finish (or are cut off and retried later) before the database closes.
      await Promise.all([
        app.close(),
        ctx.push.stop(5000),
        ctx.whatsappWorker?.stop(5000),
        reminders.stop(5000),
        chargeRun.stop(5000),
        feeReminders.stop(5000),
        reconciler?.stop(5000),
        centreClock.stop(),
        housekeeping.stop(),
      ]);
      await db.close();
    } finally {
      releaseLock();
    }
    process.exit(0);
  };
  // An operator's look at where the memory goes: `kill -USR2 <pid>` logs it (docs: README, memory).
  process.on('SIGUSR2', () => {
    app.log.info(
      { memory: memoryReport({ readCacheBytes: db.cachedBytes(), keptAnswerBytes: ctx.answers.size() }) },
      'memory in use',
    );
  });
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  ctx.push.start(app.log.child({ module: 'push' }));
  // A worker a connect from the console builds later is started too (ADR 045).
  startWhatsapp(ctx, app.log.child({ module: 'whatsapp' }));
  if (ctx.whatsappWorker && config.whatsapp) {
    app.log.info(
      { phone_number_id: config.whatsapp.phoneNumberId, daily_limit: config.whatsapp.dailyLimit },
      'WhatsApp is on: webhook at /api/v1/whatsapp/webhook',
    );
  } else {
    app.log.info(
      'WhatsApp is off (no WHATSAPP_* settings, not connected in the console): messages reach families through the parent app only',
    );
  }
  if (reconciler && config.razorpay) {
    reconciler.start(app.log.child({ module: 'razorpay' }));
    app.log.info(
      { reconcile_seconds: config.razorpay.reconcileSeconds },
      'Online payment is on (Razorpay): webhook at /api/v1/payments/razorpay/webhook',
    );
  } else {
    app.log.info('Online payment is off (no RAZORPAY_* settings): payments are recorded at the counter');
  }
  housekeeping.start();
  reminders.start(app.log.child({ module: 'reminders' }));
  chargeRun.start(app.log.child({ module: 'fees' }));
  feeReminders.start(app.log.child({ module: 'fee reminders' }));
  centreClock.start(app.log.child({ module: 'centre clock' }));
  if (generatedAdminPassword) {
    process.stdout.write(
      [
        '',
        '  ┌──────────────────────────────────────────────────────────────┐',
        '  │ First start: the admin account was created.                  │',
        `  │   username: admin                                            │`,
        `  │   password: ${generatedAdminPassword.padEnd(49)}│`,
        '  │ This password is shown once. You must change it at sign-in.  │',
        '  └──────────────────────────────────────────────────────────────┘',
        '',
      ].join('\n'),
    );
  }
  const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  process.stdout.write(`TuitionDesk is running at ${address} (API docs at ${address}/api/docs)\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`TuitionDesk could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});

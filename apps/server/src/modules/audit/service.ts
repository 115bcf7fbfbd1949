import { type AuditEntry, type AuditPage, type AuditRetention, startsLikeFormula } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Database } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { recordAudit } from '../../lib/audit-log';
import {
  AUDIT_RETENTION_MONTHS,
  type AuditFilters,
  deleteAuditRowsOlderThan,
  findAuditBatches,
  findAuditPage,
} from './repository';

export async function listAudit(
  ctx: AppContext,
  filters: AuditFilters,
  page: { limit: number; offset: number },
): Promise<AuditPage> {
  const found = await findAuditPage(ctx.db, filters, page);
  return { ...found, limit: page.limit, offset: page.offset };
}

/** RFC 4180, every field quoted; a cell that would start a formula gets a leading single quote. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '""';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const safe = typeof value === 'string' && startsLikeFormula(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

const CSV_HEADER = ['When', 'Who', 'Account id', 'Way', 'Address', 'What', 'Action', 'Record', 'Before', 'After'];

function csvLine(entry: AuditEntry): string {
  return `${[
    entry.at,
    entry.actor_name,
    entry.actor_id,
    entry.way,
    entry.address,
    entry.entity,
    entry.action,
    entry.record_id,
    // JSON text can start with neither = + - @: it opens with { (or is empty).
    entry.before,
    entry.after,
  ]
    .map(csvCell)
    .join(',')}\r\n`;
}

/**
 * The matching rows as CSV (BOM for Excel, CRLF lines), newest first, produced batch by batch so an
 * export of the whole log is streamed, never held.
 */
export async function* auditCsv(db: Database, filters: AuditFilters): AsyncGenerator<string> {
  yield `\uFEFF${CSV_HEADER.map(csvCell).join(',')}\r\n`;
  for await (const batch of findAuditBatches(db, filters, 1000)) {
    yield batch.map(csvLine).join('');
  }
}

export async function getAuditRetention(ctx: AppContext): Promise<AuditRetention> {
  return { audit_retention_months: await AUDIT_RETENTION_MONTHS.read(ctx.db) };
}

export async function updateAuditRetention(
  ctx: AppContext,
  actor: Actor,
  update: AuditRetention,
): Promise<AuditRetention> {
  return ctx.db.transaction(async (tx) => {
    const months = update.audit_retention_months;
    const { changed } = await AUDIT_RETENTION_MONTHS.change(tx, months);
    if (changed) await recordActivity(tx, actor, 'settings.updated', 'settings.audit_retention', { months });
    return { audit_retention_months: update.audit_retention_months };
  });
}

/**
 * The daily retention job: removes the audit rows older than the centre's setting, and records the
 * removal (how many, before when) as an audit row of its own, in the same transaction.
 */
export async function removeExpiredAuditRows(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const months = await AUDIT_RETENTION_MONTHS.read(tx);
    const { removed, before } = await deleteAuditRowsOlderThan(tx, months);
    if (removed > 0) {
      await recordAudit(tx, {
        entity: 'audit_log',
        action: 'removed',
        actor: { id: null, name: null },
        after: { removed, older_than: before, retention_months: months },
      });
    }
    return removed;
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The retention job as a housekeeping job: it runs at the first round and then once a day, so the
 * log holds one removal row a day rather than one per round.
 */
export function dailyAuditRetention(db: Database, now: () => number = Date.now): () => Promise<number> {
  let lastRun: number | undefined;
  return async () => {
    if (lastRun !== undefined && now() - lastRun < DAY_MS) return 0;
    const removed = await removeExpiredAuditRows(db);
    lastRun = now();
    return removed;
  };
}

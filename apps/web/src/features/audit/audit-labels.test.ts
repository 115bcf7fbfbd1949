/**
 * Every column the audit log can show has a name on the Audit screen: the audited tables (those the
 * migrations put under `audit_table`), their columns from CREATE TABLE and ADD COLUMN, less the ones
 * the log ignores. A column added without a name is still shown, as stored and said as English.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import enAudit from '../../i18n/locales/en/audit.json';

const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../server/migrations');
const SQL = readdirSync(MIGRATIONS)
  .filter((file) => file.endsWith('.sql'))
  .sort()
  .map((file) => readFileSync(join(MIGRATIONS, file), 'utf8'))
  .join('\n');

/** `audit_table('users', ignored => ARRAY['updated_at'])` → users, minus updated_at. */
function auditedTables(): Map<string, Set<string>> {
  const tables = new Map<string, Set<string>>();
  for (const call of SQL.matchAll(/^SELECT audit_table\(([^;]*)\);/gm)) {
    const args = call[1] ?? '';
    const name = /^\s*'([a-z_]+)'/.exec(args)?.[1];
    if (!name) continue;
    const ignored = /ignored\s*=>\s*ARRAY\[([^\]]*)\]/.exec(args)?.[1] ?? '';
    tables.set(name, new Set([...ignored.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] as string)));
  }
  return tables;
}

function columnsOf(table: string): string[] {
  const columns: string[] = [];
  const created = new RegExp(`CREATE TABLE ${table} \\(\\n([\\s\\S]*?)\\n\\);`).exec(SQL)?.[1] ?? '';
  for (const line of created.split('\n')) {
    const name = /^\s+([a-z_]+)\s/.exec(line)?.[1];
    if (name && !['check', 'unique', 'primary', 'constraint', 'foreign'].includes(name)) columns.push(name);
  }
  for (const added of SQL.matchAll(new RegExp(`ALTER TABLE ${table} ADD COLUMN ([a-z_]+)`, 'g')))
    columns.push(added[1] as string);
  return columns;
}

describe("the Audit screen's field names", () => {
  it('names every column of every audited table that the log shows', () => {
    const tables = auditedTables();
    expect(tables.size).toBeGreaterThan(10);
    const unnamed: string[] = [];
    for (const [table, ignored] of tables) {
      const columns = columnsOf(table);
      expect(columns.length, table).toBeGreaterThan(0);
      for (const column of columns)
        if (!ignored.has(column) && !Object.hasOwn(enAudit.fields, column)) unnamed.push(`${table}.${column}`);
    }
    expect(unnamed).toEqual([]);
  });

  it('says each name in English as the column is called (full_name: "full name")', () => {
    for (const [column, name] of Object.entries(enAudit.fields)) expect(name).toBe(column.replaceAll('_', ' '));
  });
});

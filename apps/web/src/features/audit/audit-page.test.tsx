import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../i18n';
import { type FakeCall, fakeApi, renderPage } from '../../testing';
import AuditPage from './audit-page';

afterEach(async () => {
  vi.restoreAllMocks();
  await showLanguage('en');
});

function entry(fields: Partial<AuditEntry> & Pick<AuditEntry, 'id'>): AuditEntry {
  return {
    at: '2026-11-20T10:15:00.000+05:30',
    actor_id: 1,
    actor_name: 'Asha Admin',
    address: '10.0.0.7',
    way: 'console',
    entity: 'students',
    action: 'update',
    record_id: '12',
    before: null,
    after: null,
    ...fields,
  };
}

const ENTRIES = [
  entry({ id: 3, before: { class_name: '7' }, after: { class_name: '8' } }),
  entry({
    id: 2,
    actor_id: null,
    actor_name: null,
    address: null,
    way: 'import',
    action: 'create',
    after: { id: 12, full_name: 'Ravi Kumar', class_name: '7' },
  }),
  entry({ id: 1, entity: 'sign_in', action: 'sign_in_failed', record_id: null, after: { tried: 'admin' } }),
];

/** Changes whose values are the product's own words, beside what people wrote. */
const WORDS = [
  entry({
    id: 14,
    entity: 'attendance',
    // A remark that happens to be a status word is what the teacher wrote: shown as written.
    before: { status: 'absent', remarks: 'Came at 5, bus was late' },
    after: { status: 'late', remarks: 'absent' },
  }),
  entry({
    id: 13,
    entity: 'users',
    before: { password_hash: '[redacted]', must_change_password: false },
    after: { password_hash: '[redacted]', must_change_password: true },
  }),
  entry({
    id: 12,
    entity: 'users',
    action: 'create',
    after: { role: 'teacher', language: 'hi', future_column: true },
  }),
  entry({
    id: 11,
    entity: 'students',
    before: { parent_phone: '[removed]', parent_language: 'en' },
    after: { parent_language: 'ur', parent_whatsapp_opt_in: true },
  }),
  entry({
    id: 10,
    actor_id: null,
    actor_name: 'Parent +919876543210',
    way: 'parent app',
    entity: 'leave_requests',
    before: { status: 'pending' },
    after: { status: 'approved', reason: 'Family wedding', decided_at: '2026-11-20T10:15:00+05:30' },
  }),
  entry({ id: 9, entity: 'sign_in', action: 'sign_in', after: { kind: 'staff', username: 'asha' } }),
];

/** The audit API answering `entries` (of `total`), recording each page asked for. */
function serving(entries: AuditEntry[], total = entries.length) {
  return fakeApi({
    'GET /audit': ({ url }) => [
      200,
      { entries, total, limit: Number(url.searchParams.get('limit')), offset: Number(url.searchParams.get('offset')) },
    ],
    'GET /settings/audit': () => [200, { audit_retention_months: 36 }],
  });
}

const pageCalls = (calls: FakeCall[]) =>
  calls.filter((call) => call.path === '/audit').map((call) => Object.fromEntries(call.url.searchParams));

const rowsOfTable = () =>
  within(screen.getByRole('table', { name: 'Audit log' }))
    .getAllByRole('row')
    .slice(1);

describe('the Audit screen', () => {
  it("opens a record's history from the address, and shows who, way, address, what and a readable change", async () => {
    const api = serving(ENTRIES);
    renderPage(<AuditPage />, '/audit?entity=students&record_id=12');
    await waitFor(() => expect(rowsOfTable()).toHaveLength(3));
    expect(pageCalls(api.calls)[0]).toEqual({ entity: 'students', record_id: '12', limit: '50', offset: '0' });
    expect(screen.getByRole('textbox', { name: 'Record' })).toHaveValue('12');

    const [changed, created, refused] = rowsOfTable() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(changed).getByText('Asha Admin')).toBeInTheDocument();
    expect(within(changed).getByText('Console')).toBeInTheDocument();
    expect(within(changed).getByText('10.0.0.7')).toBeInTheDocument();
    expect(within(changed).getByText('Student')).toBeInTheDocument();
    expect(within(changed).getByText('Changed')).toBeInTheDocument();
    expect(within(changed).getByRole('listitem')).toHaveTextContent('class name: 7 → 8');
    expect(within(created).getByText('System')).toBeInTheDocument();
    expect(within(created).getByText('Import')).toBeInTheDocument();
    expect(within(created).getByText('Created')).toBeInTheDocument();
    expect(
      within(created)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['full name: Ravi Kumar', 'class name: 7', 'id: 12']);
    expect(within(refused).getByText('Sign-in refused')).toBeInTheDocument();
  });

  it('filters by who after typing pauses, by way at once, and pages through the server', async () => {
    const user = userEvent.setup();
    const api = serving(ENTRIES, 120);
    renderPage(<AuditPage />, '/audit');
    await waitFor(() => expect(rowsOfTable()).toHaveLength(3));
    await user.type(screen.getByRole('textbox', { name: 'Who' }), 'asha');
    await waitFor(() => expect(pageCalls(api.calls).at(-1)).toEqual({ actor: 'asha', limit: '50', offset: '0' }));
    // Not one call per letter.
    expect(pageCalls(api.calls).filter((call) => call.actor !== undefined)).toHaveLength(1);

    await user.click(screen.getByRole('combobox', { name: 'Way' }));
    await user.click(screen.getByRole('option', { name: 'Parent app' }));
    await waitFor(() =>
      expect(pageCalls(api.calls).at(-1)).toEqual({ actor: 'asha', way: 'parent app', limit: '50', offset: '0' }),
    );
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(pageCalls(api.calls).at(-1)).toMatchObject({ offset: '50' }));
  });

  it('refuses a From after To without asking the server', async () => {
    const api = serving(ENTRIES);
    renderPage(<AuditPage />, '/audit?from=2026-11-20&to=2026-11-01');
    expect(await screen.findAllByText('To must not be before From')).not.toHaveLength(0);
    expect(pageCalls(api.calls)).toEqual([]);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it("exports the server's CSV for the filters shown", async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      'GET /audit': () => [200, { entries: ENTRIES, total: 3, limit: 50, offset: 0 }],
      'GET /audit/export': () =>
        new Response('\uFEFF"When"\r\n', {
          status: 200,
          headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="audit-2026-11-25.csv"' },
        }),
    });
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:audit');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    let filename = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      filename = this.download;
    });
    renderPage(<AuditPage />, '/audit?entity=students&record_id=12');
    await waitFor(() => expect(rowsOfTable()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(filename).toBe('audit-2026-11-25.csv'));
    const exported = api.calls.find((call) => call.path === '/audit/export');
    expect(Object.fromEntries(exported?.url.searchParams ?? [])).toEqual({ entity: 'students', record_id: '12' });
    expect(exported?.headers.get('x-tuitiondesk-client')).toBe('console');
  });

  it('says when the log cannot be read', async () => {
    fakeApi({ 'GET /audit': () => [403, { detail: 'You do not have permission to do this' }] });
    renderPage(<AuditPage />, '/audit');
    expect(await screen.findByText('You do not have permission to do this')).toBeInTheDocument();
  });

  it("names the fields and says the product's own values in Hindi, shows what people wrote as written, and an unknown column as stored", async () => {
    serving(WORDS);
    await showLanguage('hi');
    renderPage(<AuditPage />, '/audit');
    const table = await screen.findByRole('table', { name: 'ऑडिट लॉग' });
    await waitFor(() => expect(within(table).getAllByRole('row').slice(1)).toHaveLength(6));
    const lines = within(table)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual([
      'स्थिति: अनुपस्थित → देरी से उपस्थित',
      'टिप्पणी: Came at 5, bus was late → absent',
      'पासवर्ड: [छिपाया गया] → [छिपाया गया]',
      'पासवर्ड बदलना ज़रूरी: नहीं → हाँ',
      'भूमिका: शिक्षक',
      'भाषा: हिन्दी',
      'future column: हाँ',
      'अभिभावक की भाषा: English → اردو',
      'व्हाट्सऐप के लिए सहमति: हाँ',
      'अभिभावक का फ़ोन: [हटाया गया]',
      'स्थिति: लंबित → स्वीकृत',
      'कारण: Family wedding',
      'निर्णय का समय: 2026-11-20T10:15:00+05:30',
      'प्रकार: स्टाफ़',
      'यूज़रनेम: asha',
    ]);
    // A column the screen does not know yet is its stored name, said as English; a known one in Hindi.
    const unknown = within(table).getByText('future column:');
    expect(unknown).toHaveAttribute('lang', 'en');
    expect(within(table).getByText('भूमिका:')).not.toHaveAttribute('lang');
    expect(within(table).getByText('अभिभावक +919876543210')).toBeInTheDocument();
  });

  it('keeps the same changes in English exactly as stored', async () => {
    serving(WORDS);
    renderPage(<AuditPage />, '/audit');
    await waitFor(() => expect(rowsOfTable()).toHaveLength(6));
    const lines = within(screen.getByRole('table', { name: 'Audit log' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual([
      'status: absent → late',
      'remarks: Came at 5, bus was late → absent',
      'password hash: [redacted] → [redacted]',
      'must change password: false → true',
      'role: teacher',
      'language: hi',
      'future column: true',
      'parent language: en → ur',
      'parent whatsapp opt in: true',
      'parent phone: [removed]',
      'status: pending → approved',
      'reason: Family wedding',
      'decided at: 2026-11-20T10:15:00+05:30',
      'kind: staff',
      'username: asha',
    ]);
    expect(screen.getByText('Parent +919876543210')).toBeInTheDocument();
  });
});

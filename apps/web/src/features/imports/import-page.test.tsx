import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StudentImportResult, TeacherImportResult } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../i18n';
import { card, deferred, type FakeCall, type FakeReply, fakeApi, renderPage } from '../../testing';
import { buildAccountsCsv, isExcelFileName } from './import-files';
import ImportPage from './import-page';
import { ImportResult } from './import-result';

const studentResult: StudentImportResult = {
  message: 'Successfully imported 2 students. 2 row(s) had errors and were skipped.',
  dry_run: false,
  total_rows: 4,
  imported_count: 2,
  imported_students: [
    { name: 'Riya Sen', phone: '+919812345670', class_name: '7', unique_id: 'STU0001' },
    { name: 'Kabir Jain', phone: '+919812345671', class_name: '9', unique_id: 'STU0002' },
  ],
  already_imported: [],
  errors: [
    { row: 3, error: 'class_name: must be one of 7, 8, 9 or 10' },
    {
      row: 5,
      error:
        'parent_phone: Enter the phone number with 10 digits (this one has 5), or with its country code, e.g. +91 98123 45670',
    },
  ],
};

const asha: TeacherImportResult['imported_teachers'][number] = {
  name: 'Asha Rao',
  phone: '+919800000001',
  email: 'asha@example.org',
  unique_id: 'TCH0001',
  username: 'tch0001',
  initial_password: 'k7QpZr3mWx9aBc2D',
};

const teacherResult: TeacherImportResult = {
  message: 'Successfully imported 1 teacher.',
  dry_run: false,
  total_rows: 1,
  imported_count: 1,
  imported_teachers: [asha],
  already_imported: [],
  errors: [],
};

const STUDENTS_IMPORT = 'POST /import/students/import';

/** Where a call went: its path without the API prefix, and its query. */
const sentTo = (call: FakeCall | undefined) => (call ? call.path + call.url.search : undefined);
/** The calls that change something: the page also reads the centre's phone setting for its instructions. */
const writes = (calls: FakeCall[]) => calls.filter((call) => call.method !== 'GET');
/** The file a call uploaded as the multipart field "file". */
function sentFile(call: FakeCall | undefined): File | undefined {
  const file = call?.body instanceof FormData ? call.body.get('file') : null;
  return file instanceof File ? file : undefined;
}
const failed = () => new Response('', { status: 500 });

const xlsx = (name = 'students.xlsx') => new File(['PK\u0003\u0004'], name, { type: 'application/octet-stream' });

const studentsCard = () => card('Import Students');

afterEach(() => vi.restoreAllMocks());

/** Clear All Data from the danger zone, and yes in its confirmation. */
async function clearAllConfirmed() {
  await userEvent.click(screen.getByRole('button', { name: 'Clear All Data' }));
  await userEvent.click(
    within(screen.getByRole('dialog', { name: 'Clear all data?' })).getByRole('button', { name: 'Clear All Data' }),
  );
}

describe('isExcelFileName', () => {
  it('takes .xlsx and .xls in any case, nothing else', () => {
    expect(isExcelFileName('students.xlsx')).toBe(true);
    expect(isExcelFileName('OLD.XLS')).toBe(true);
    expect(isExcelFileName('students.csv')).toBe(false);
    expect(isExcelFileName('students.xlsx.pdf')).toBe(false);
    expect(isExcelFileName('xlsx')).toBe(false);
  });
});

describe('ImportResult', () => {
  it('shows the message, each imported record, and every row error with its row number', () => {
    renderPage(<ImportResult kind="students" result={studentResult} />);
    expect(screen.getByText(studentResult.message)).toBeInTheDocument();
    const imported = screen.getByRole('list', { name: 'Imported records' });
    const riya = within(imported).getByText('Riya Sen').closest('li') as HTMLElement;
    expect(riya).toHaveTextContent('Riya Sen+919812345670 · Class 7');
    // The phone is isolated left to right, the name cut at its end, in either direction (ADR 048).
    expect(within(riya).getByText('+919812345670').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(within(riya).getByText('Riya Sen')).toHaveAttribute('dir', 'auto');
    expect(screen.getByText('2 row(s) had errors and were skipped')).toBeInTheDocument();
    const errors = within(screen.getByRole('list', { name: 'Row errors' })).getAllByRole('listitem');
    expect(errors.map((row) => row.textContent)).toEqual([
      'Row 3: class_name: must be one of 7, 8, 9 or 10',
      'Row 5: parent_phone: Enter the phone number with 10 digits (this one has 5), or with its country code, e.g. +91 98123 45670',
    ]);
  });

  it('lists rows already imported apart from the errors, with the record each one matched', () => {
    const again: StudentImportResult = {
      ...studentResult,
      message: 'No students were imported: 2 row(s) were already imported and 1 row(s) had errors.',
      imported_count: 0,
      imported_students: [],
      already_imported: [
        { row: 2, name: 'Riya Sen', unique_id: 'STU0001' },
        { row: 4, name: 'Kabir Jain', unique_id: 'STU0002' },
      ],
      errors: [{ row: 3, error: 'Same student as row 2 (same name and parent phone)' }],
    };
    renderPage(<ImportResult kind="students" result={again} />);
    expect(screen.getByText(again.message)).toBeInTheDocument();
    expect(screen.getByText('2 row(s) were already imported and were left as they are')).toBeInTheDocument();
    const already = within(screen.getByRole('list', { name: 'Rows already imported' })).getAllByRole('listitem');
    expect(already.map((row) => row.textContent)).toEqual([
      'Row 2: Riya SenOn record as STU0001',
      'Row 4: Kabir JainOn record as STU0002',
    ]);
    // Only the real problem counts as an error.
    expect(screen.getByText('1 row(s) had errors and were skipped')).toBeInTheDocument();
    const errors = within(screen.getByRole('list', { name: 'Row errors' })).getAllByRole('listitem');
    expect(errors.map((row) => row.textContent)).toEqual(['Row 3: Same student as row 2 (same name and parent phone)']);
    expect(screen.queryByRole('list', { name: 'Imported records' })).toBeNull();
  });

  it('a file imported again with nothing new and nothing wrong is told as news, not as an error', () => {
    renderPage(
      <ImportResult
        kind="teachers"
        result={{
          ...teacherResult,
          message: 'No teachers were imported: 1 row(s) were already imported.',
          imported_count: 0,
          imported_teachers: [],
          already_imported: [{ row: 2, name: 'Asha Rao', unique_id: 'TCH0001' }],
        }}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('No teachers were imported: 1 row(s) were already imported.');
    expect(alert.className).toMatch(/colorInfo/);
    expect(screen.queryByRole('list', { name: 'Row errors' })).toBeNull();
    expect(screen.queryByText(/shown only once/)).toBeNull();
    const row = within(screen.getByRole('list', { name: 'Rows already imported' })).getByRole('listitem');
    expect(row).toHaveTextContent('Row 2: Asha RaoOn record as TCH0001');
    expect(within(row).getByText('TCH0001').closest('bdi')).toHaveAttribute('dir', 'ltr');
  });

  it('names a class the centre labelled by its label, never "Class Morning batch" (ADR 043)', async () => {
    fakeApi({
      'GET /classes': () => [
        200,
        [
          {
            id: 1,
            value: 'Morning batch',
            label: 'Morning batch',
            section: null,
            display_label: 'Morning batch',
            sort_order: 1,
            archived: false,
            archived_at: null,
            in_use: { students: 1, teachers: 0, attendance_records: 0 },
          },
        ],
      ],
    });
    const [first] = studentResult.imported_students;
    renderPage(
      <ImportResult
        kind="students"
        result={{
          ...studentResult,
          imported_students: [{ ...(first as NonNullable<typeof first>), class_name: 'Morning batch' }],
        }}
      />,
    );
    const riya = within(screen.getByRole('list', { name: 'Imported records' }))
      .getByText('Riya Sen')
      .closest('li');
    await waitFor(() => expect(riya).toHaveTextContent(/· Morning batch$/));
  });

  it('says what a check would do, without accounts', () => {
    renderPage(
      <ImportResult
        kind="teachers"
        result={{
          ...teacherResult,
          dry_run: true,
          message:
            'Check complete: 1 teacher can be imported. 1 row(s) have errors and would be skipped. Nothing was written.',
          imported_teachers: [{ ...asha, unique_id: null, username: null, initial_password: null }],
          errors: [{ row: 4, error: 'email: must be a valid email address' }],
        }}
      />,
    );
    expect(screen.getByText('Would import 1 teacher(s)')).toBeInTheDocument();
    expect(screen.getByText('1 row(s) have errors and would be skipped')).toBeInTheDocument();
    expect(screen.getByText('Row 4: email: must be a valid email address')).toBeInTheDocument();
    expect(screen.queryByText(/Initial Password/)).toBeNull();
  });

  it('shows each new teacher account once, with a warning and a CSV download', () => {
    renderPage(<ImportResult kind="teachers" result={teacherResult} />);
    expect(screen.getByText(/shown only once/)).toBeInTheDocument();
    const accounts = screen.getByRole('table', { name: 'Teacher sign-in accounts' });
    expect(within(accounts).getByText('tch0001')).toBeInTheDocument();
    expect(within(accounts).getByText('k7QpZr3mWx9aBc2D')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download passwords (CSV)' })).toBeInTheDocument();
  });

  it('builds the accounts file with one line per teacher', () => {
    expect(buildAccountsCsv(teacherResult.imported_teachers)).toBe(
      '\uFEFF"Name","Teacher ID","Username","Initial Password","Email"\r\n' +
        '"Asha Rao","TCH0001","tch0001","k7QpZr3mWx9aBc2D","asha@example.org"\r\n',
    );
  });
});

describe('Import Data', () => {
  it('refuses a dropped file that is not Excel', async () => {
    const api = fakeApi({ [STUDENTS_IMPORT]: () => [200, studentResult] });
    renderPage(<ImportPage />);
    const zone = screen.getByTestId('students-drop-zone');
    fireEvent.drop(zone, { dataTransfer: { files: [new File(['a,b'], 'students.csv', { type: 'text/csv' })] } });
    expect(within(studentsCard()).getByText('Please upload only Excel files (.xlsx or .xls)')).toBeInTheDocument();
    expect(within(studentsCard()).getByRole('button', { name: 'Upload' })).toBeDisabled();
    fireEvent.drop(zone, { dataTransfer: { files: [xlsx('term.XLSX')] } });
    expect(within(studentsCard()).queryByText('Please upload only Excel files (.xlsx or .xls)')).toBeNull();
    expect(within(studentsCard()).getByText('term.XLSX')).toBeInTheDocument();
    expect(writes(api.calls)).toEqual([]);
  });

  it('uploads the picked file as the multipart field "file", showing Uploading... meanwhile', async () => {
    const reply = deferred();
    const api = fakeApi({ [STUDENTS_IMPORT]: () => reply.promise });
    renderPage(<ImportPage />);
    await userEvent.upload(screen.getByLabelText('Student spreadsheet file'), xlsx());
    expect(within(studentsCard()).getByText('students.xlsx')).toBeInTheDocument();
    await userEvent.click(within(studentsCard()).getByRole('button', { name: 'Upload' }));
    expect(within(studentsCard()).getByRole('button', { name: 'Uploading...' })).toBeDisabled();
    expect(sentTo(writes(api.calls)[0])).toBe('/import/students/import');
    expect(writes(api.calls)[0]?.method).toBe('POST');
    expect(sentFile(writes(api.calls)[0])?.name).toBe('students.xlsx');
    reply.release([200, studentResult]);
    expect(await within(studentsCard()).findByText('2 row(s) had errors and were skipped')).toBeInTheDocument();
    // A finished import lets go of its file, so it is not imported twice by accident.
    expect(within(studentsCard()).queryByText('students.xlsx')).toBeNull();
  });

  it('checks a file with dry_run=true and keeps it for the upload', async () => {
    const api = fakeApi({
      [STUDENTS_IMPORT]: () => [
        200,
        { ...studentResult, dry_run: true, message: 'Check complete: 2 students can be imported.' },
      ],
    });
    renderPage(<ImportPage />);
    await userEvent.upload(screen.getByLabelText('Student spreadsheet file'), xlsx());
    await userEvent.click(within(studentsCard()).getByRole('button', { name: 'Check file' }));
    expect(await within(studentsCard()).findByText('Check complete: 2 students can be imported.')).toBeInTheDocument();
    expect(sentTo(writes(api.calls)[0])).toBe('/import/students/import?dry_run=true');
    expect(within(studentsCard()).getByText('students.xlsx')).toBeInTheDocument();
    expect(within(studentsCard()).getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('shows an upload failure inline: the detail, or the fallback', async () => {
    let answer: FakeReply = [400, { detail: 'Missing required column(s): parent_phone' }];
    fakeApi({ [STUDENTS_IMPORT]: () => answer });
    renderPage(<ImportPage />);
    await userEvent.upload(screen.getByLabelText('Student spreadsheet file'), xlsx());
    await userEvent.click(within(studentsCard()).getByRole('button', { name: 'Upload' }));
    expect(await within(studentsCard()).findByText('Missing required column(s): parent_phone')).toBeInTheDocument();
    answer = failed();
    await userEvent.click(within(studentsCard()).getByRole('button', { name: 'Upload' }));
    expect(await within(studentsCard()).findByText('Failed to upload file')).toBeInTheDocument();
  });

  it('clears the selected file', async () => {
    fakeApi({ [STUDENTS_IMPORT]: () => [200, studentResult] });
    renderPage(<ImportPage />);
    await userEvent.upload(screen.getByLabelText('Student spreadsheet file'), xlsx());
    await userEvent.click(within(studentsCard()).getByRole('button', { name: 'Clear' }));
    expect(within(studentsCard()).queryByText('students.xlsx')).toBeNull();
    expect(within(studentsCard()).getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('clears all data from the danger zone after a warning that says a backup is taken first, and sums up what went', async () => {
    const api = fakeApi({
      'DELETE /students/clear-all': () => [
        200,
        {
          deleted_count: 120,
          message: 'ok',
          backup_file: '/srv/tuitiondesk/data/backups/tuitiondesk-before-clear-students-20261123-210509.jsonl.gz',
        },
      ],
      'DELETE /teachers/clear-all': () => [
        200,
        {
          deleted_count: 9,
          deleted_teachers: 9,
          deleted_users: 9,
          message: 'ok',
          backup_file: '/srv/tuitiondesk/data/backups/tuitiondesk-before-clear-teachers-20261123-210510.jsonl.gz',
        },
      ],
    });
    renderPage(<ImportPage />);
    // At the bottom of the page, in its own danger zone, not in the page's header.
    const zone = screen.getByRole('region', { name: 'Danger zone' });
    await userEvent.click(within(zone).getByRole('button', { name: 'Clear All Data' }));
    const dialog = screen.getByRole('dialog', { name: 'Clear all data?' });
    expect(dialog).toHaveTextContent(/ALL students and teachers.*cannot be undone/);
    expect(dialog).toHaveTextContent(
      'A backup of all data is taken on the server first. If it cannot be written, nothing is deleted.',
    );
    expect(writes(api.calls)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear All Data' }));
    expect(
      await screen.findByText('Deleted 120 student(s), 9 teacher(s) and 9 teacher user account(s).'),
    ).toBeInTheDocument();
    // The backup the first call took, before anything was deleted, and how to restore it.
    expect(
      screen.getByText(
        'A backup of all data was saved first, on the server: /srv/tuitiondesk/data/backups/tuitiondesk-before-clear-students-20261123-210509.jsonl.gz. ' +
          'To bring it back, restore it into an empty database on the server: ' +
          'npm run restore /srv/tuitiondesk/data/backups/tuitiondesk-before-clear-students-20261123-210509.jsonl.gz',
      ),
    ).toBeInTheDocument();
    expect(writes(api.calls).map((call) => `${call.method} ${sentTo(call)}`)).toEqual([
      'DELETE /students/clear-all',
      'DELETE /teachers/clear-all',
    ]);
  });

  it('shows why nothing was cleared when the server could not take its backup, and clears no teachers', async () => {
    const detail =
      'Could not take a backup before clearing: ENOSPC: no space left on device, write. Nothing was deleted.';
    const api = fakeApi({}, { otherwise: () => [503, { detail }] });
    renderPage(<ImportPage />);
    await clearAllConfirmed();
    expect(await screen.findByText(detail)).toBeInTheDocument();
    expect(writes(api.calls).map((call) => `${call.method} ${sentTo(call)}`)).toEqual(['DELETE /students/clear-all']);
  });

  it('does nothing when the clear-all warning is declined, and shows the fallback on failure', async () => {
    const api = fakeApi({}, { otherwise: failed });
    renderPage(<ImportPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Clear All Data' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Clear all data?' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(writes(api.calls)).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await clearAllConfirmed();
    expect(await screen.findByText('Failed to clear data')).toBeInTheDocument();
  });

  it('asks in the language in use', async () => {
    fakeApi({});
    await showLanguage('hi');
    try {
      renderPage(<ImportPage />);
      await userEvent.click(await screen.findByRole('button', { name: 'सारा डेटा हटाएँ' }));
      expect(await screen.findByRole('dialog', { name: 'सारा डेटा साफ़ करें?' })).toHaveTextContent(
        'सर्वर पर पहले सारे डेटा का बैकअप लिया जाता है।',
      );
    } finally {
      await showLanguage('en');
    }
  });

  it('shows the import instructions', async () => {
    fakeApi({ 'GET /settings/phones': () => [200, { default_country_code: '+971' }] });
    renderPage(<ImportPage />);
    expect(screen.getByText('Class names are 7, 8, 9 or 10, without sections.')).toBeInTheDocument();
    // Until the centre's code has arrived the card says so without naming one.
    expect(screen.getByText("Phone numbers without a country code take the centre's.")).toBeInTheDocument();
    expect(await screen.findByText('Phone numbers without a country code take +971.')).toBeInTheDocument();
    expect(
      screen.getByText(/098123-45670 or \+91 98123 45670; spaces, dashes and brackets are fine/),
    ).toBeInTheDocument();
    expect(screen.getByText('Teacher emails must be valid and unique.')).toBeInTheDocument();
    expect(screen.getByText("The family's WhatsApp consent and language")).toBeInTheDocument();
    expect(screen.getByText(/parent_whatsapp_opt_in \(yes or no\) and parent_language/)).toBeInTheDocument();
  });

  it('downloads the template, and says so when it cannot', async () => {
    fakeApi({}, { otherwise: failed });
    renderPage(<ImportPage />);
    await userEvent.click(within(studentsCard()).getByRole('button', { name: 'Download Template' }));
    await waitFor(() => expect(screen.getByText('Failed to download template')).toBeInTheDocument());
  });
});

describe('in Hindi', () => {
  afterEach(async () => {
    await showLanguage('en');
  });

  it('shows the page in Hindi', async () => {
    await showLanguage('hi');
    fakeApi({});
    renderPage(<ImportPage />);
    expect(screen.getByRole('heading', { name: 'डेटा आयात करें' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'विद्यार्थी आयात करें' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'सारा डेटा हटाएँ' })).toBeInTheDocument();
  });

  it('words the result in Hindi', async () => {
    await showLanguage('hi');
    renderPage(<ImportResult kind="students" result={studentResult} />);
    expect(screen.getByText('2 विद्यार्थी आयात किए गए')).toBeInTheDocument();
    const riya = screen.getByText('Riya Sen').closest('li') as HTMLElement;
    expect(riya).toHaveTextContent('+919812345670 · कक्षा 7');
    expect(screen.getByText('पंक्ति 3: class_name: must be one of 7, 8, 9 or 10')).toBeInTheDocument();
  });

  it("words the import's notice in Hindi from its counts, not the server's English", async () => {
    await showLanguage('hi');
    renderPage(<ImportResult kind="students" result={studentResult} />);
    expect(screen.getByText('2 विद्यार्थी आयात किए गए। 2 पंक्तियों में गलतियाँ थीं और वे छोड़ दी गईं।')).toBeInTheDocument();
    expect(screen.queryByText(studentResult.message)).not.toBeInTheDocument();
  });

  it("words a check's notice in Hindi: nothing to import, a row already imported, nothing saved", async () => {
    await showLanguage('hi');
    const check: TeacherImportResult = {
      message: 'Check complete: no teachers can be imported: 1 row(s) are already imported. Nothing was saved.',
      dry_run: true,
      total_rows: 1,
      imported_count: 0,
      imported_teachers: [],
      already_imported: [{ row: 2, name: 'Asha Rao', unique_id: 'TCH0001' }],
      errors: [],
    };
    renderPage(<ImportResult kind="teachers" result={check} />);
    expect(
      screen.getByText(
        'जाँच पूरी: कोई शिक्षक आयात नहीं किया जा सकता। 1 पंक्ति पहले से आयात है और जैसी है वैसी रहेगी। कुछ भी सहेजा नहीं गया।',
      ),
    ).toBeInTheDocument();
  });
});

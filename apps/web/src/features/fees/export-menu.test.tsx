import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../i18n';
import { fakeApi, renderPage } from '../../testing';
import { FeesExportMenu } from './export-menu';

afterEach(async () => {
  vi.restoreAllMocks();
  await showLanguage('en');
});

/** Catches the file the browser is handed: its name and its bytes. */
function catchDownloads() {
  const saved: { filename: string; blob: Blob | undefined }[] = [];
  let lastBlob: Blob | undefined;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    lastBlob = blob as Blob;
    return 'blob:fees';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ filename: this.download, blob: lastBlob });
  });
  return saved;
}

function file(body: string, filename: string, type: string) {
  return new Response(body, {
    status: 200,
    headers: { 'content-type': type, 'content-disposition': `attachment; filename="${filename}"` },
  });
}

describe('FeesExportMenu', () => {
  it("downloads the dues as the server's CSV, under the server's file name", async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      'GET /fees/dues/export': () => file('\uFEFF"Family"\r\n', 'fees-dues-2026-11-28.csv', 'text/csv'),
    });
    const saved = catchDownloads();
    renderPage(<FeesExportMenu report="dues" />);
    const button = screen.getByRole('button', { name: 'Export dues' });
    expect(button).toHaveTextContent('Export');
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'CSV file' }));
    await waitFor(() => expect(saved.map((one) => one.filename)).toEqual(['fees-dues-2026-11-28.csv']));
    expect(await saved[0]?.blob?.text()).toContain('"Family"');
    const call = api.calls.find((one) => one.path === '/fees/dues/export');
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toEqual({ format: 'csv', lang: 'en' });
    // In English the menu has no second, English choice.
    await user.click(button);
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['CSV file', 'Excel file (.xlsx)']);
  });

  it("asks for a family's statement in Excel, and collections with the period shown", async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      'GET /fees/families/12/statement/export': () =>
        file('xlsx', 'fees-statement-12-2026-11-28.xlsx', 'application/vnd.ms-excel'),
      'GET /fees/collections/export': () => file('\uFEFF', 'fees-collections-2026-11-01-2026-11-28.csv', 'text/csv'),
    });
    const saved = catchDownloads();
    const { unmount } = renderPage(<FeesExportMenu report="statement" familyId={12} />);
    await user.click(screen.getByRole('button', { name: 'Export statement' }));
    await user.click(screen.getByRole('menuitem', { name: 'Excel file (.xlsx)' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.filename).toBe('fees-statement-12-2026-11-28.xlsx');
    unmount();

    renderPage(
      <FeesExportMenu
        report="collections"
        query={{ from: '2026-11-01', to: '2026-11-28' }}
        label="Collected this month"
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Export Collected this month' }));
    await user.click(screen.getByRole('menuitem', { name: 'CSV file' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    const statement = api.calls.find((one) => one.path === '/fees/families/12/statement/export');
    expect(statement?.url.searchParams.get('format')).toBe('xlsx');
    const collections = api.calls.find((one) => one.path === '/fees/collections/export');
    expect(Object.fromEntries(collections?.url.searchParams ?? [])).toEqual({
      from: '2026-11-01',
      to: '2026-11-28',
      format: 'csv',
      lang: 'en',
    });
  });

  it('says what the server answered when the export is refused, and saves nothing', async () => {
    const user = userEvent.setup();
    fakeApi({
      'GET /fees/collections/export': () => [422, { detail: "'to' must not be before 'from'" }],
    });
    const saved = catchDownloads();
    renderPage(<FeesExportMenu report="collections" query={{ from: '2026-11-28', to: '2026-11-01' }} />);
    await user.click(screen.getByRole('button', { name: 'Export collections' }));
    await user.click(screen.getByRole('menuitem', { name: 'CSV file' }));
    expect(await screen.findByText("'to' must not be before 'from'")).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it("asks for the file in the console's language, and offers English beside it (ADR 066)", async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      'GET /fees/dues/export': () => file('\uFEFF"परिवार आईडी"\r\n', 'fees-dues-2026-11-28.csv', 'text/csv'),
      'GET /fees/collections/export': () =>
        file('xlsx', 'fees-collections-2026-11-28.xlsx', 'application/vnd.ms-excel'),
    });
    const saved = catchDownloads();
    await showLanguage('hi');
    const { unmount } = renderPage(<FeesExportMenu report="dues" />);
    await user.click(screen.getByRole('button', { name: 'बकाया निर्यात करें' }));
    await user.click(screen.getByRole('menuitem', { name: 'CSV फ़ाइल' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const dues = api.calls.find((one) => one.path === '/fees/dues/export');
    expect(Object.fromEntries(dues?.url.searchParams ?? [])).toEqual({ format: 'csv', lang: 'hi' });
    unmount();

    renderPage(<FeesExportMenu report="collections" query={{ period: 'today' }} />);
    await user.click(screen.getByRole('button', { name: 'वसूली निर्यात करें' }));
    await user.click(screen.getByRole('menuitem', { name: 'Excel फ़ाइल (.xlsx), अंग्रेज़ी में' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    const collections = api.calls.find((one) => one.path === '/fees/collections/export');
    expect(Object.fromEntries(collections?.url.searchParams ?? [])).toEqual({
      period: 'today',
      format: 'xlsx',
      lang: 'en',
    });
  });

  it('reads in Urdu', async () => {
    const user = userEvent.setup();
    await showLanguage('ur');
    renderPage(<FeesExportMenu report="dues" />);
    await user.click(screen.getByRole('button', { name: 'واجبات برآمد کریں' }));
    expect(screen.getByRole('menuitem', { name: 'Excel فائل (.xlsx)' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'CSV فائل، انگریزی میں' })).toBeInTheDocument();
  });
});

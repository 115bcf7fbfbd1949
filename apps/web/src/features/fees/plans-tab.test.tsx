import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CentreClass, FeeDiscounts, FeePlan, Student } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, fakeApi, fill, renderPage } from '../../testing';
import { PlansTab } from './plans-tab';

afterEach(() => vi.restoreAllMocks());

function plan(id: number, fields: Partial<FeePlan> = {}): FeePlan {
  return {
    id,
    name: `Plan ${id}`,
    kind: 'monthly',
    amount_paise: 150000,
    class_names: [],
    student_ids: [],
    due_day: 10,
    late_fee_paise: 0,
    sessions: null,
    instalments: [],
    archived: false,
    archived_at: null,
    charges: 0,
    ...fields,
  };
}

function centreClass(id: number, value: string, label: string): CentreClass {
  return {
    id,
    value,
    label,
    section: null,
    display_label: label,
    sort_order: id,
    archived: false,
    archived_at: null,
    in_use: { students: 0, teachers: 0, attendance_records: 0 },
  };
}

const CLASSES = [centreClass(1, '9', 'Class 9'), centreClass(2, 'Morning batch', 'Morning batch')];

const STUDENTS = [
  { id: 31, full_name: 'Meera Iyer', unique_id: 'STU031', class_name: '9', parent_phone: '+919812345670' },
  { id: 32, full_name: 'Rohan Das', unique_id: 'STU032', class_name: 'Morning batch', parent_phone: '+919812345671' },
] as unknown as Student[];

const DISCOUNTS: FeeDiscounts = {
  sibling: { mode: 'percent', value: 10 },
  staff_child: { mode: 'none', value: 0 },
  staff_child_ids: [],
};

function serve(plans: FeePlan[], routes: Record<string, FakeRoute> = {}) {
  return fakeApi({
    'GET /fees/plans': () => [200, plans],
    'GET /classes': () => [200, CLASSES],
    'GET /students/': () => [200, STUDENTS],
    'GET /fees/discounts': () => [200, DISCOUNTS],
    ...routes,
  });
}

const lastBody = (calls: { method: string; path: string; body: unknown }[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path).at(-1)?.body;

describe('Fees › Plans', () => {
  it('lists the plans in use first, with amounts in rupees and classes by their labels; archived ones on demand', async () => {
    const api = serve(
      [
        plan(1, {
          name: 'Old books',
          kind: 'one_time',
          amount_paise: 50000,
          archived: true,
          charges: 12,
          instalments: [
            { due_on: '2026-12-05', amount_paise: 25000 },
            { due_on: '2027-01-05', amount_paise: 25000 },
          ],
        }),
        plan(2, { name: 'Class 9 tuition', class_names: ['9', 'Morning batch'], late_fee_paise: 10000, charges: 40 }),
        plan(3, { name: 'Maths package', kind: 'package', amount_paise: 300000, sessions: 12, student_ids: [31] }),
      ],
      { 'POST /fees/plans/1/unarchive': () => [200, plan(1, { name: 'Old books' })] },
    );
    renderPage(<PlansTab />, { signedInAs: 'admin' });
    await screen.findByText('Class 9 tuition');
    const table = screen.getByRole('table', { name: 'Fee plans' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Class 9 tuition');
    expect(rows[0]).toHaveTextContent('₹1,500.00 a month');
    expect(rows[0]).toHaveTextContent('Class 9, Morning batch');
    expect(rows[0]).toHaveTextContent('Day 10, late fee ₹100.00');
    expect(rows[1]).toHaveTextContent('₹3,000.00 for 12 sessions');
    expect(rows[1]).toHaveTextContent('1 student');
    expect(screen.queryByText('Old books')).not.toBeInTheDocument();
    expect(await screen.findByText('Siblings: 10% off · Staff children: none (0 students)')).toBeInTheDocument();

    await userEvent.click(screen.getByLabelText('Show 1 archived plan'));
    const all = within(table).getAllByRole('row').slice(1);
    expect(all).toHaveLength(3);
    expect(all[2]).toHaveTextContent('Old books');
    expect(all[2]).toHaveTextContent('Archived');
    expect(all[2]).toHaveTextContent('₹500.00 in 2 parts');
    expect(all[2]).toHaveTextContent('Parts due 05 Dec 2026, 05 Jan 2027');
    await userEvent.click(screen.getByRole('button', { name: 'Unarchive Old books' }));
    expect(await screen.findByText('Old books unarchived')).toBeInTheDocument();
    expect(api.calls.some((call) => call.method === 'POST' && call.path === '/fees/plans/1/unarchive')).toBe(true);
  });

  it('adds a monthly plan for a class: rupees typed with commas reach the server as integer paise', async () => {
    const api = serve([], {
      'POST /fees/plans': ({ body }) => [201, plan(9, body as Partial<FeePlan>)],
    });
    renderPage(<PlansTab />, { signedInAs: 'admin' });
    expect(await screen.findByText('No plan yet. Add one to start charging fees.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a fee plan' });
    await fill(within(dialog).getByRole('textbox', { name: 'Name' }), 'Class 9 tuition');
    await fill(within(dialog).getByRole('textbox', { name: 'Amount a month' }), '1,250.50');
    expect(within(dialog).getByText('₹1,250.50')).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /Sessions/ })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Classes' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Class 9' }));
    await fill(within(dialog).getByRole('textbox', { name: 'Late fee' }), '100');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(lastBody(api.calls, 'POST', '/fees/plans')).toEqual({
      name: 'Class 9 tuition',
      kind: 'monthly',
      amount_paise: 125050,
      class_names: ['9'],
      student_ids: [],
      due_day: 10,
      late_fee_paise: 10000,
    });
    expect(await screen.findByText('Class 9 tuition added')).toBeInTheDocument();
  });

  it('refuses amounts it cannot read exactly, on the field, and sends nothing', async () => {
    const api = serve([]);
    renderPage(<PlansTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add plan' }));
    const dialog = await screen.findByRole('dialog');
    await fill(within(dialog).getByRole('textbox', { name: 'Name' }), 'Books');
    const amount = within(dialog).getByRole('textbox', { name: 'Amount a month' });
    for (const [typed, said] of [
      ['12.345', 'Use at most 2 decimals (paise)'],
      ['-500', 'The amount cannot be negative'],
      ['0', 'The amount must be more than 0'],
      ['twelve', 'Enter an amount in rupees, e.g. 1,250.50'],
    ] as const) {
      await userEvent.clear(amount);
      await fill(amount, typed);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText(said)).toBeInTheDocument();
      expect(amount).toHaveAttribute('aria-invalid', 'true');
    }
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("asks a package for its sessions and a per-day plan for its rate; a one-time fee's parts must add up", async () => {
    const api = serve([], { 'POST /fees/plans': ({ body }) => [201, plan(9, body as Partial<FeePlan>)] });
    renderPage(<PlansTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add plan' }));
    const dialog = await screen.findByRole('dialog');
    const kind = within(dialog).getByRole('combobox', { name: 'Kind' });

    await userEvent.click(kind);
    await userEvent.click(await screen.findByRole('option', { name: 'Per attended day' }));
    expect(within(dialog).getByRole('textbox', { name: 'Rate per attended day' })).toBeInTheDocument();

    await userEvent.click(kind);
    await userEvent.click(await screen.findByRole('option', { name: 'Package of sessions' }));
    await fill(within(dialog).getByRole('textbox', { name: 'Name' }), 'Maths package');
    await fill(within(dialog).getByRole('textbox', { name: 'Price of the package' }), '3000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter the number of sessions, a whole number')).toBeInTheDocument();
    await fill(within(dialog).getByRole('textbox', { name: 'Sessions in a package' }), '12');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Students' }));
    await userEvent.keyboard('rohan');
    await userEvent.click(await screen.findByRole('option', { name: 'Rohan Das (STU032, Morning batch)' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(lastBody(api.calls, 'POST', '/fees/plans')).toBeDefined());
    expect(lastBody(api.calls, 'POST', '/fees/plans')).toMatchObject({
      kind: 'package',
      amount_paise: 300000,
      sessions: 12,
      student_ids: [32],
    });

    await userEvent.click(await screen.findByRole('button', { name: 'Add plan' }));
    const second = await screen.findByRole('dialog');
    await userEvent.click(within(second).getByRole('combobox', { name: 'Kind' }));
    await userEvent.click(await screen.findByRole('option', { name: 'One-time' }));
    await fill(within(second).getByRole('textbox', { name: 'Name' }), 'Admission');
    await fill(within(second).getByRole('textbox', { name: 'Amount' }), '5000');
    await userEvent.click(within(second).getByRole('button', { name: 'Add instalment' }));
    await userEvent.click(within(second).getByRole('button', { name: 'Add instalment' }));
    await fill(within(second).getByLabelText('Part 1 due on'), '2026-12-05');
    await fill(within(second).getByLabelText('Part 2 due on'), '2027-01-05');
    await fill(within(second).getByRole('textbox', { name: 'Part 1 amount' }), '2500');
    await fill(within(second).getByRole('textbox', { name: 'Part 2 amount' }), '2000');
    await userEvent.click(within(second).getByRole('button', { name: 'Save' }));
    expect(await within(second).findByText('The parts add up to ₹4,500.00, not ₹5,000.00')).toBeInTheDocument();
    const posts = api.calls.filter((call) => call.method === 'POST').length;
    await userEvent.clear(within(second).getByRole('textbox', { name: 'Part 2 amount' }));
    await fill(within(second).getByRole('textbox', { name: 'Part 2 amount' }), '2500');
    await userEvent.click(within(second).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(posts + 1));
    expect(lastBody(api.calls, 'POST', '/fees/plans')).toMatchObject({
      kind: 'one_time',
      amount_paise: 500000,
      instalments: [
        { due_on: '2026-12-05', amount_paise: 250000 },
        { due_on: '2027-01-05', amount_paise: 250000 },
      ],
    });
  });

  it("shows the server's refusal under its field, and keeps the kind of a saved plan", async () => {
    serve([plan(2, { name: 'Class 9 tuition', class_names: ['9'] })], {
      'PUT /fees/plans/2': () => [
        422,
        {
          detail: 'due_day: must be a day of the month from 1 to 28',
          code: 'validation.failed',
        },
      ],
    });
    renderPage(<PlansTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Change Class 9 tuition' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Class 9 tuition' });
    expect(within(dialog).getByRole('combobox', { name: 'Kind' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(dialog).getByRole('textbox', { name: 'Amount a month' })).toHaveValue('1500');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const dueDay = within(dialog).getByRole('textbox', { name: 'Due day of the month' });
    await waitFor(() => expect(dueDay).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).getByText('Must be a day of the month from 1 to 28')).toBeInTheDocument();
  });

  it('a plan that has charged cannot be deleted: the 409 says why and offers to archive it', async () => {
    const api = serve([plan(2, { name: 'Class 9 tuition', charges: 40 })], {
      'DELETE /fees/plans/2': () => [
        409,
        {
          detail:
            'Class 9 tuition has raised 40 charges and cannot be deleted: archive it instead, so it charges nothing more',
          code: 'fees.plan_has_charges',
          params: { name: 'Class 9 tuition', count: 40 },
        },
      ],
      'POST /fees/plans/2/archive': () => [200, plan(2, { name: 'Class 9 tuition', archived: true })],
    });
    renderPage(<PlansTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Class 9 tuition' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Class 9 tuition?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText(
        'Class 9 tuition has raised 40 charges and cannot be deleted: archive it instead, so it charges nothing more',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Archive instead' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.some((call) => call.method === 'POST' && call.path === '/fees/plans/2/archive')).toBe(true);
  });

  it('changes the discounts: a flat amount in rupees goes as paise, the staff children by search', async () => {
    const api = serve([], {
      'PUT /fees/discounts': ({ body }) => [200, { ...DISCOUNTS, ...(body as object) }],
    });
    renderPage(<PlansTab />, { signedInAs: 'admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Change discounts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discounts' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Staff child discount' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Fixed amount' }));
    await fill(within(dialog).getByRole('textbox', { name: 'Staff child discount, amount' }), '500.5');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Children of staff' }));
    await userEvent.keyboard('STU031');
    await userEvent.click(await screen.findByRole('option', { name: 'Meera Iyer (STU031)' }));
    const percent = within(dialog).getByRole('textbox', { name: 'Sibling discount, percent' });
    await userEvent.clear(percent);
    await fill(percent, '150');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter a whole percent from 1 to 100')).toBeInTheDocument();
    expect(api.calls.some((call) => call.method === 'PUT')).toBe(false);
    await userEvent.clear(percent);
    await fill(percent, '15');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(lastBody(api.calls, 'PUT', '/fees/discounts')).toEqual({
      sibling: { mode: 'percent', value: 15 },
      staff_child: { mode: 'flat', value: 50050 },
      staff_child_ids: [31],
    });
  });

  it('says the plans could not be loaded, with Retry, never "no plan yet"', async () => {
    serve([], { 'GET /fees/plans': () => [500, { detail: 'Internal Server Error' }] });
    renderPage(<PlansTab />, { signedInAs: 'admin' });
    expect(await screen.findByText('The plans could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByText('No plan yet. Add one to start charging fees.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CentreClass, CentreSubject } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../../testing';
import ClassesPage from './classes-page';

// MUI under jsdom is slow on a busy machine; these walk whole flows.
afterEach(() => vi.restoreAllMocks());

function centreClass(id: number, value: string, fields: Partial<CentreClass> = {}): CentreClass {
  const label = /^\d+$/.test(value) ? `Class ${value}` : value;
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
    ...fields,
  };
}

const SUBJECTS: CentreSubject[] = [
  {
    id: 1,
    value: 'Mathematics',
    label: 'Mathematics',
    sort_order: 1,
    archived: false,
    archived_at: null,
    in_use: { teachers: 2 },
  },
];

function serve(classes: CentreClass[]) {
  return fakeApi({
    'GET /classes': () => [200, classes],
    'GET /subjects': () => [200, SUBJECTS],
    'POST /classes': ({ body }) => {
      const { value } = body as { value: string };
      if (value === '7') {
        return [
          409,
          {
            detail: 'There is already a class Class 7: choose another name, or unarchive that class',
            code: 'classes.class_taken',
            params: { name: 'Class 7' },
          },
        ];
      }
      return [201, centreClass(9, value)];
    },
    'PUT /classes/order': () => [200, classes],
    'POST /classes/2/archive': () => [200, { ...classes[1], archived: true }],
  });
}

const CLASSES = [
  centreClass(1, '7', { in_use: { students: 12, teachers: 1, attendance_records: 40 } }),
  centreClass(2, 'Morning batch'),
  centreClass(3, '11-A', { label: 'Class 11', section: 'A', display_label: 'Class 11 – A', archived: true }),
];

describe('Classes and subjects', () => {
  it("lists the centre's classes and subjects with what uses them; only unused ones can be deleted", async () => {
    serve(CLASSES);
    renderPage(<ClassesPage />, { signedInAs: 'admin' });
    expect(await screen.findByText('12 students · 1 teacher · 40 attendance records')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Class 7' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move Class 7 up' })).toBeDisabled();
    expect(screen.getAllByText('Not used yet')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Delete Morning batch' })).toBeEnabled();
    expect(screen.getByText('Archived')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unarchive Class 11 – A' })).toBeInTheDocument();
    expect(screen.getByText('2 teachers')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Mathematics' })).not.toBeInTheDocument();
  });

  it('adds a class, and shows the refusal of one that exists on the field', async () => {
    const api = serve(CLASSES);
    const user = userEvent.setup();
    renderPage(<ClassesPage />, { signedInAs: 'admin' });
    const form = await screen.findByRole('form', { name: 'Add class' });
    await user.type(within(form).getByRole('textbox', { name: /Class name/ }), '7');
    await user.click(within(form).getByRole('button', { name: 'Add class' }));
    expect(
      await within(form).findByText('There is already a class Class 7: choose another name, or unarchive that class'),
    ).toBeInTheDocument();

    await user.clear(within(form).getByRole('textbox', { name: /Class name/ }));
    await user.type(within(form).getByRole('textbox', { name: /Class name/ }), 'Evening batch');
    await user.type(within(form).getByRole('textbox', { name: 'Shown as' }), 'Evening');
    await user.click(within(form).getByRole('button', { name: 'Add class' }));
    expect(await screen.findByText('Evening batch added')).toBeInTheDocument();
    const posts = api.calls.filter((call) => call.method === 'POST' && call.path === '/classes');
    expect(posts.map((call) => call.body)).toEqual([{ value: '7' }, { value: 'Evening batch', label: 'Evening' }]);
  });

  it('moves a class down (the whole new order) and archives one', async () => {
    const api = serve(CLASSES);
    const user = userEvent.setup();
    renderPage(<ClassesPage />, { signedInAs: 'admin' });
    await user.click(await screen.findByRole('button', { name: 'Move Class 7 down' }));
    expect(await screen.findByText('New order saved')).toBeInTheDocument();
    expect(api.calls.find((call) => call.path === '/classes/order')?.body).toEqual({ ids: [2, 1, 3] });
    await user.click(screen.getByRole('button', { name: 'Archive Morning batch' }));
    expect(await screen.findByText('Morning batch archived: it is no longer offered')).toBeInTheDocument();
    await waitFor(() => expect(api.calls.some((call) => call.path === '/classes/2/archive')).toBe(true));
  });
});

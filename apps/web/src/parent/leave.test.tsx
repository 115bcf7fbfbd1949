import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LeaveRequest, ParentChild } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../testing';
import { Leave } from './leave';

const children: ParentChild[] = [
  { id: 1, unique_id: 'STU0001', full_name: 'Aarav Sharma', class_name: '8' },
  { id: 2, unique_id: 'STU0002', full_name: 'Meera Sharma', class_name: '10' },
];

function request(fields: Partial<LeaveRequest> & { id: number }): LeaveRequest {
  return {
    student_id: 1,
    student_name: 'Aarav Sharma',
    student_unique_id: 'STU0001',
    class_name: '8',
    from_date: '2026-12-01',
    to_date: '2026-12-03',
    days: 3,
    reason: 'Family wedding',
    status: 'pending',
    requested_at: '2026-11-25T10:00:00.000+05:30',
    decided_at: null,
    decided_by: null,
    ...fields,
  };
}

afterEach(() => vi.restoreAllMocks());

describe('leave in the parent app', () => {
  it('names a class the centre named itself as written, and the spec’s classes with the class word (ADR 043)', async () => {
    fakeApi({ 'GET /api/v1/parent/leave-requests': () => [200, { requests: [] }] });
    const batch: ParentChild = { id: 3, unique_id: 'STU0003', full_name: 'Kabir Sharma', class_name: 'Morning batch' };
    render(<Leave list={[...children, batch]} />);
    const options = within(screen.getByLabelText('Child'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Aarav Sharma (Class 8)', 'Meera Sharma (Class 10)', 'Kabir Sharma (Morning batch)']);
    expect(await screen.findByText('You have not asked for leave yet.')).toBeInTheDocument();
  });

  it('sends a request for the child chosen, and lists it waiting', async () => {
    const api = fakeApi({
      'GET /api/v1/parent/leave-requests': () => [200, { requests: [] }],
      'POST /api/v1/parent/leave-requests': ({ body }) => [
        201,
        request({ id: 7, student_id: 2, student_name: 'Meera Sharma', ...(body as object) }),
      ],
    });
    render(<Leave list={children} />);
    expect(await screen.findByText('You have not asked for leave yet.')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Child'), 'Meera Sharma (Class 10)');
    const from = screen.getByLabelText('First day away');
    const to = screen.getByLabelText('Last day away');
    await userEvent.clear(from);
    await userEvent.type(from, '2099-12-01');
    await userEvent.clear(to);
    await userEvent.type(to, '2099-12-02');
    await userEvent.type(screen.getByLabelText('Reason'), '  Exam in Delhi ');
    await userEvent.click(screen.getByRole('button', { name: 'Send to the centre' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'The centre will approve or decline leave for Meera Sharma',
    );
    const sent = api.calls.find((call) => call.method === 'POST');
    expect(sent?.body).toEqual({
      student_id: 2,
      from_date: '2099-12-01',
      to_date: '2099-12-02',
      reason: 'Exam in Delhi',
    });
    const item = within(screen.getByRole('list', { name: 'Your requests' })).getByRole('listitem');
    expect(item).toHaveTextContent('Meera Sharma');
    expect(item).toHaveTextContent('Waiting');
    expect(item).toHaveTextContent('Exam in Delhi');
  });

  it("shows the centre's reason when it refuses, and checks the order of the dates before sending", async () => {
    const api = fakeApi({
      'GET /api/v1/parent/leave-requests': () => [200, { requests: [] }],
      'POST /api/v1/parent/leave-requests': () => [
        409,
        {
          detail:
            'Aarav Sharma already has a leave request from 1 Dec 2099 to 3 Dec 2099 (approved) that overlaps these dates.',
        },
      ],
    });
    render(<Leave list={children.slice(0, 1)} />);
    expect(screen.queryByLabelText('Child')).not.toBeInTheDocument();
    expect(screen.getByText('Aarav Sharma')).toBeInTheDocument();
    const from = screen.getByLabelText('First day away');
    const to = screen.getByLabelText('Last day away');
    await userEvent.clear(from);
    await userEvent.type(from, '2099-12-05');
    await userEvent.clear(to);
    await userEvent.type(to, '2099-12-04');
    await userEvent.type(screen.getByLabelText('Reason'), 'Trip');
    await userEvent.click(screen.getByRole('button', { name: 'Send to the centre' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The last day cannot be before the first day.');
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);

    await userEvent.clear(to);
    await userEvent.type(to, '2099-12-06');
    await userEvent.click(screen.getByRole('button', { name: 'Send to the centre' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('already has a leave request from 1 Dec 2099');
  });

  it('shows who decided, and withdraws a waiting request after asking', async () => {
    fakeApi({
      'GET /api/v1/parent/leave-requests': () => [
        200,
        {
          requests: [
            request({ id: 3 }),
            request({
              id: 2,
              status: 'approved',
              decided_at: '2026-11-24T09:00:00.000+05:30',
              decided_by: 'Mrs Rao',
            }),
            request({ id: 1, status: 'declined', decided_at: '2026-11-20T09:00:00.000+05:30', decided_by: 'Mr Iyer' }),
          ],
        },
      ],
      'POST /api/v1/parent/leave-requests/3/withdraw': () => [
        200,
        request({
          id: 3,
          status: 'withdrawn',
          decided_at: '2026-11-25T11:00:00.000+05:30',
          decided_by: 'Priya (parent)',
        }),
      ],
    });
    render(<Leave list={children} />);
    const items = await screen.findAllByRole('listitem');
    expect(items[1]).toHaveTextContent('Approved by Mrs Rao on 24 Nov');
    expect(items[2]).toHaveTextContent('Declined by Mr Iyer on 20 Nov');
    expect(within(items[1] as HTMLElement).queryByRole('button', { name: 'Withdraw' })).not.toBeInTheDocument();

    await userEvent.click(within(items[0] as HTMLElement).getByRole('button', { name: 'Withdraw' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, withdraw it' }));
    expect(await within(items[0] as HTMLElement).findByText('Withdrawn')).toBeInTheDocument();
    expect(items[0]).toHaveTextContent('Withdrawn by you on 25 Nov');
  });
});

import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeReply, fakeApi, renderPage } from '../../testing';
import { MarkingRemindersSetting, REMINDER_TIME_LABEL, REMINDERS_LABEL } from './marking-reminders-setting';

function renderSetting(put: (body: Record<string, unknown>) => FakeReply) {
  const puts: unknown[] = [];
  let saved = { marking_reminders: true, reminder_time: '10:00' };
  fakeApi({
    'GET /settings/reminders': () => [200, saved],
    'PUT /settings/reminders': ({ body }) => {
      puts.push(body);
      const reply = put(body as Record<string, unknown>);
      if (Array.isArray(reply) && reply[0] === 200) saved = { ...saved, ...(body as object) };
      return Array.isArray(reply) && reply[0] === 200 ? [200, saved] : reply;
    },
  });
  renderPage(<MarkingRemindersSetting />);
  return puts;
}

async function timeField() {
  const field = await screen.findByLabelText(REMINDER_TIME_LABEL);
  await waitFor(() => expect(field).toBeEnabled());
  return field as HTMLInputElement;
}

afterEach(() => vi.restoreAllMocks());

describe('the marking reminders setting', () => {
  it('shows the saved time and saves a new one when the field is left', async () => {
    const puts = renderSetting((body) => [200, body]);
    const field = await timeField();
    expect(field.value).toBe('10:00');
    fireEvent.change(field, { target: { value: '09:30' } });
    fireEvent.blur(field);
    expect(await screen.findByText('Teachers are reminded at 09:30 of classes not marked')).toBeInTheDocument();
    expect(puts).toEqual([{ reminder_time: '09:30' }]);
  });

  it('turns the reminders off with the switch, and the time cannot be changed then', async () => {
    const user = userEvent.setup({ delay: null });
    const puts = renderSetting((body) => [200, body]);
    await timeField();
    const control = screen.getByRole('switch', { name: REMINDERS_LABEL });
    expect(control).toBeChecked();
    await user.click(control);
    expect(await screen.findByText('Reminders to teachers turned off')).toBeInTheDocument();
    expect(puts).toEqual([{ marking_reminders: false }]);
    expect(control).not.toBeChecked();
    expect(screen.getByLabelText(REMINDER_TIME_LABEL)).toBeDisabled();
  });

  it("shows the server's refusal, the time typed kept to correct", async () => {
    renderSetting(() => [
      422,
      { detail: 'reminder_time: must be a time of day as HH:MM on the 24-hour clock, e.g. 10:00' },
    ]);
    const field = await timeField();
    fireEvent.change(field, { target: { value: '07:15' } });
    fireEvent.blur(field);
    expect(
      await screen.findByText('reminder_time: must be a time of day as HH:MM on the 24-hour clock, e.g. 10:00'),
    ).toBeInTheDocument();
    expect(field.value).toBe('07:15');
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../testing';
import { DateField } from './date-field';

function renderField(props: {
  value: string;
  min?: string;
  max?: string;
  disableFuture?: boolean;
  marks?: ReadonlyMap<string, string>;
}) {
  const onChange = vi.fn();
  renderPage(<DateField label="Date" onChange={onChange} {...props} />);
  return onChange;
}

async function openCalendar() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Choose date/ }));
  return { user, grid: await screen.findByRole('grid') };
}

function day(grid: HTMLElement, number: number): HTMLElement {
  return within(grid).getByRole('gridcell', { name: String(number) });
}

describe('the date field, bounded as Mark Attendance bounds it for a teacher', { timeout: 30_000 }, () => {
  it('offers only the days of the window, and hands the page a day chosen inside it', async () => {
    const onChange = renderField({ value: '2026-03-10', min: '2026-03-08', max: '2026-03-10' });
    const { user, grid } = await openCalendar();
    expect(day(grid, 7)).toBeDisabled();
    expect(day(grid, 8)).toBeEnabled();
    expect(day(grid, 9)).toBeEnabled();
    expect(day(grid, 11)).toBeDisabled();
    await user.click(day(grid, 9));
    expect(onChange).toHaveBeenCalledWith('2026-03-09');
  });

  it('without a first day, every past day is offered, the future still not', async () => {
    renderField({ value: '2026-03-10', max: '2026-03-10' });
    const { grid } = await openCalendar();
    expect(day(grid, 1)).toBeEnabled();
    expect(day(grid, 11)).toBeDisabled();
  });

  it('marks the days it is given, saying why after the date, and leaves the others as they are', async () => {
    const onChange = renderField({
      value: '2026-03-10',
      max: '2026-03-10',
      marks: new Map([
        ['2026-03-04', '3 pending'],
        ['2026-03-09', '1 pending'],
      ]),
    });
    const { user, grid } = await openCalendar();
    expect(within(grid).getByRole('gridcell', { name: '4 March 2026, 3 pending' })).toBeEnabled();
    const ninth = within(grid).getByRole('gridcell', { name: '9 March 2026, 1 pending' });
    expect(day(grid, 5)).toBeEnabled();
    expect(within(grid).queryAllByRole('gridcell', { name: /pending/ })).toHaveLength(2);
    await user.click(ninth);
    expect(onChange).toHaveBeenCalledWith('2026-03-09');
  });
});

import { Button } from '@mui/material';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAtWidth } from '../testing';
import { ColumnTable } from './data-table';
import type { DataColumn } from './row-cards';

/** A made-up list, so that what is tested is the layout and no screen's own rules. */
interface Lesson {
  id: number;
  code: string;
  subject: string;
  room: string;
}

const LESSONS: Lesson[] = [
  { id: 1, code: 'L-1', subject: 'Algebra', room: 'Room 4' },
  { id: 2, code: 'L-2', subject: 'Optics', room: 'Lab' },
];
const COLUMNS: DataColumn<Lesson>[] = [
  { id: 'code', header: 'Code', cell: (lesson) => lesson.code },
  { id: 'subject', header: 'Subject', cell: (lesson) => lesson.subject },
  { id: 'room', header: 'Room', nowrap: true, cell: (lesson) => lesson.room },
];

function Lessons({ message, onOpen = () => {} }: { message?: string; onOpen?: (lesson: Lesson) => void }) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  return (
    <ColumnTable
      label="Lessons"
      columns={COLUMNS}
      rows={LESSONS}
      rowKey={(lesson) => lesson.id}
      nameOf={(lesson) => lesson.subject}
      titleColumn="subject"
      message={message}
      selection={{
        header: 'Select',
        isSelected: (lesson) => selected.has(lesson.id),
        toggle: (lesson) =>
          setSelected((current) => {
            const next = new Set(current);
            if (!next.delete(lesson.id)) next.add(lesson.id);
            return next;
          }),
      }}
      actions={{
        header: 'Actions',
        cell: (lesson) => <Button onClick={() => onOpen(lesson)}>Open {lesson.subject}</Button>,
      }}
    />
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('a list given as columns', () => {
  it('is a table on a wide screen: the checkbox, the columns, then the actions', () => {
    render(<Lessons />);
    const table = screen.getByRole('table', { name: 'Lessons' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Select', 'Code', 'Subject', 'Room', 'Actions']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('is a card a row on a phone, headed by the title column, the rest as header and value', async () => {
    renderAtWidth(390);
    const user = userEvent.setup({ delay: null });
    const onOpen = vi.fn();
    render(<Lessons onOpen={onOpen} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Lessons' });
    const card = within(list).getByRole('listitem', { name: 'Optics' });
    const terms = [...card.querySelectorAll('dt')];
    expect(terms.map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`)).toEqual([
      'Code: L-2',
      'Room: Lab',
    ]);
    await user.click(within(card).getByRole('checkbox', { name: 'Select Optics' }));
    expect(within(card).getByRole('checkbox', { name: 'Select Optics' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Algebra' })).not.toBeChecked();
    await user.click(within(card).getByRole('button', { name: 'Open Optics' }));
    expect(onOpen).toHaveBeenCalledWith(LESSONS[1]);
  });

  it('says its message instead of rows, in the table or where the cards go', () => {
    render(<Lessons message="No lessons found" />);
    expect(screen.getByRole('cell', { name: 'No lessons found' })).toHaveAttribute('colspan', '5');
    vi.unstubAllGlobals();
  });

  it('says its message on a phone too, with no empty list', () => {
    renderAtWidth(390);
    render(<Lessons message="No lessons found" />);
    expect(screen.getByText('No lessons found')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

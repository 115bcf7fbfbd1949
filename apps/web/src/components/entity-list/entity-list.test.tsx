import StarIcon from '@mui/icons-material/Star';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeletedCount } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { apiRequest } from '../../lib/api-client';
import { deferred, type FakeReply, type FakeRoute, fakeApi, listOf, renderAtWidth, renderPage } from '../../testing';
import { EntityList, type EntityListProps, type EntityListSpec } from './entity-list';
import type { RowAction } from './row-actions';

/** A made-up list, so that what is tested is the scaffold and no screen's own rules. */
interface Thing {
  id: number;
  name: string;
  colour: string;
}

/** The made-up list's own words, as a screen's namespace gives them (see entity-texts.ts). */
i18n.addResourceBundle('en', 'things', {
  entity: {
    table: 'Things',
    add: 'Add Thing',
    search: 'Search things',
    selectAll: 'Select all things',
    selectAllMatching: 'Select all matching things',
    fetchFailed: 'Failed to fetch things',
    deleted: 'Thing deleted successfully.',
    deleteFailed: 'Failed to delete thing',
    deleteSelectedFailed: 'Failed to delete things',
    confirmDeleteSelected: 'Are you sure you want to delete {{n}} thing(s)?',
    deletedSelected: 'Successfully deleted {{n}} thing(s).',
    count_one: '{{number}} thing',
    count_other: '{{number}} things',
    selected_one: '{{number}} thing selected',
    selected_other: '{{number}} things selected',
    allSelected: 'All {{number}} things selected',
    allMatchingSelected: 'All {{number}} matching things selected',
  },
});

const thing = (id: number): Thing => ({ id, name: `Thing ${id}`, colour: id % 3 === 0 ? 'blue' : 'red' });
const THINGS: EntityListSpec<Thing> = {
  namespace: 'things',
  columns: [
    { id: 'name', header: 'Name', cell: (row) => row.name },
    { id: 'colour', header: 'Colour', nowrap: true, cell: (row) => `Colour ${row.colour}` },
  ],
  nameOf: (row) => row.name,
  tableMinWidth: 600,
  search: {
    placeholder: 'Name or colour',
    filter: (rows, text) =>
      rows.filter((row) => `${row.name} ${row.colour}`.toLowerCase().includes(text.trim().toLowerCase())),
  },
  empty: { icon: null, title: 'No things yet', text: 'Click Add Thing to add the first one.' },
  noMatch: { icon: null, title: 'No things found', text: 'No thing matches your search.' },
};
const UNSEARCHABLE: EntityListSpec<Thing> = { ...THINGS, search: undefined, noMatch: undefined };

type Options = Partial<Pick<EntityListProps<Thing>, 'onAdd' | 'onEdit' | 'rowActions'>> & {
  canDelete?: boolean;
  searchable?: boolean;
};

/** The list over the things API, as a feature's page would wire it. */
function Things({ canDelete = true, searchable = true, onAdd = () => {}, onEdit = () => {}, rowActions }: Options) {
  const query = useQuery({
    queryKey: ['things'],
    queryFn: ({ signal }) => apiRequest<Thing[]>('/things/', { signal }),
  });
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['things'] });
  const one = useMutation({
    mutationFn: (id: number) => apiRequest<unknown>(`/things/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const many = useMutation({
    mutationFn: (ids: number[]) => apiRequest<DeletedCount>('/things/delete-multiple', { method: 'POST', json: ids }),
    onSuccess: refresh,
  });
  return (
    <EntityList
      list={searchable ? THINGS : UNSEARCHABLE}
      query={query}
      onAdd={onAdd}
      onEdit={onEdit}
      rowActions={rowActions}
      deleting={canDelete ? { one, many } : undefined}
    />
  );
}

/** Serves `things` (as they stand at each fetch) and the routes given; renders the list. */
function showThings(things: () => Thing[], routes: Record<string, FakeRoute> = {}, options: Options = {}) {
  const api = fakeApi({ 'GET /things/': () => [200, things()], ...routes });
  renderPage(<Things {...options} />);
  return api.calls;
}

const rowNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[row.querySelector('input') ? 1 : 0]?.textContent);

afterEach(() => vi.restoreAllMocks());

describe('the list states', () => {
  it('shows a spinner while the list loads, then the rows and their count', async () => {
    const reply = deferred<FakeReply>();
    fakeApi({ 'GET /things/': () => reply.promise });
    renderPage(<Things />);
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    reply.release([200, listOf(3, thing)]);
    expect(await screen.findByRole('table', { name: 'Things' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText('3 things')).toBeInTheDocument();
    expect(rowNames()).toEqual(['Thing 1', 'Thing 2', 'Thing 3']);
  });

  it('shows a failed fetch with the server detail, and Retry fetches again', async () => {
    const user = userEvent.setup({ delay: null });
    let fails = true;
    const calls = showThings(() => listOf(2, thing), {
      'GET /things/': () => (fails ? [503, { detail: 'Database is busy' }] : [200, listOf(2, thing)]),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Database is busy');
    expect(screen.queryByText(/\d things?/)).not.toBeInTheDocument();
    fails = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Thing 2')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/things/')).toHaveLength(2);
  });

  it('says Failed to fetch things when the server gives no reason', async () => {
    showThings(() => [], { 'GET /things/': () => new Response('oops', { status: 500 }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch things');
  });

  it('says so when there is nothing yet, and still offers Add', async () => {
    const user = userEvent.setup({ delay: null });
    const onAdd = vi.fn();
    showThings(() => [], {}, { onAdd });
    expect(await screen.findByText('No things yet')).toBeInTheDocument();
    expect(screen.getByText('Click Add Thing to add the first one.')).toBeInTheDocument();
    expect(screen.getByText('0 things')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Thing' }));
    expect(onAdd).toHaveBeenCalledTimes(1);
  });

  it('says so when the search matches nothing, and counts what matches', async () => {
    const user = userEvent.setup({ delay: null });
    showThings(() => listOf(6, thing));
    await screen.findByText('Thing 1');
    const search = screen.getByRole('searchbox', { name: 'Search things' });
    expect(search).toHaveAttribute('placeholder', 'Name or colour');
    await user.type(search, 'blue');
    await waitFor(() => expect(rowNames()).toEqual(['Thing 3', 'Thing 6']));
    expect(screen.getByText('2 things of 6')).toBeInTheDocument();
    await user.type(search, 'zzz');
    expect(await screen.findByText('No things found')).toBeInTheDocument();
    expect(screen.getByText('No thing matches your search.')).toBeInTheDocument();
    expect(screen.getByText('0 things of 6')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('the table', () => {
  it('shows the columns given, with the row actions after them', async () => {
    const user = userEvent.setup({ delay: null });
    const onEdit = vi.fn();
    const star = vi.fn();
    const rowActions: RowAction<Thing>[] = [
      {
        id: 'star',
        tooltip: 'Star',
        label: (row) => `Star ${row.name}`,
        icon: <StarIcon />,
        onClick: star,
        appliesTo: (row) => row.colour === 'blue',
      },
    ];
    showThings(() => listOf(3, thing), {}, { onEdit, rowActions });
    await screen.findByText('Thing 1');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      '',
      'Name',
      'Colour',
      'Actions',
    ]);
    const actionsOf = (name: string) =>
      within(screen.getByRole('row', { name: new RegExp(name) }))
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label'));
    expect(actionsOf('Thing 3')).toEqual(['Star Thing 3', 'Edit Thing 3', 'Delete Thing 3']);
    expect(actionsOf('Thing 1')).toEqual(['Edit Thing 1', 'Delete Thing 1']);
    expect(within(screen.getByRole('row', { name: /Thing 1/ })).getByText('Colour red')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Star Thing 3' }));
    expect(star).toHaveBeenCalledWith(thing(3));
    await user.click(screen.getByRole('button', { name: 'Edit Thing 1' }));
    expect(onEdit).toHaveBeenCalledWith(thing(1));
  });

  it('shows 25 rows a page, and more when asked', async () => {
    const user = userEvent.setup({ delay: null });
    showThings(() => listOf(60, thing));
    await screen.findByText('Thing 1');
    expect(rowNames()).toHaveLength(25);
    expect(screen.getByText('1–25 of 60')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to last page' }));
    expect(rowNames()).toEqual(listOf(10, (id) => `Thing ${50 + id}`));
    // A new search starts again at its first page.
    await user.type(screen.getByRole('searchbox', { name: 'Search things' }), 'red');
    await waitFor(() => expect(screen.getByText('1–25 of 40')).toBeInTheDocument());
    expect(rowNames()[0]).toBe('Thing 1');
    await user.clear(screen.getByRole('searchbox', { name: 'Search things' }));
    await user.click(screen.getByRole('combobox', { name: 'Rows:' }));
    await user.click(screen.getByRole('option', { name: '100' }));
    expect(rowNames()).toHaveLength(60);
    expect(screen.getByText('1–60 of 60')).toBeInTheDocument();
  });

  it('gives those who may not delete no checkboxes, no delete buttons and no selection bar', async () => {
    showThings(() => listOf(3, thing), {}, { canDelete: false });
    await screen.findByText('Thing 1');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Name',
      'Colour',
      'Actions',
    ]);
  });

  it('deletes one row after a confirmation naming it, and says how it went', async () => {
    const user = userEvent.setup({ delay: null });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
    let things = listOf(3, thing);
    const calls = showThings(() => things, {
      'DELETE /things/2': () => {
        things = things.filter((row) => row.id !== 2);
        return [200, { message: 'ok' }];
      },
      'DELETE /things/3': () => [409, { detail: 'Thing 3 is in use' }],
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Thing 2' }));
    expect(confirm).toHaveBeenLastCalledWith('Are you sure you want to delete Thing 2?');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Thing 2' }));
    expect(await screen.findByText('Thing deleted successfully.')).toBeInTheDocument();
    await waitFor(() => expect(rowNames()).toEqual(['Thing 1', 'Thing 3']));

    await user.click(screen.getByRole('button', { name: 'Delete Thing 3' }));
    expect(await screen.findByText('Thing 3 is in use')).toBeInTheDocument();
    expect(rowNames()).toEqual(['Thing 1', 'Thing 3']);
  });
});

describe('the selection toolbar', () => {
  it('appears with the first checked row and says what is selected; Clear selection empties it', async () => {
    const user = userEvent.setup({ delay: null });
    showThings(() => listOf(3, thing));
    await screen.findByText('Thing 1');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete Selected/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select Thing 2' }));
    expect(screen.getByRole('status')).toHaveTextContent('1 thing selected');
    expect(screen.getByRole('button', { name: 'Delete Selected (1)' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Thing 2/ })).toHaveClass('Mui-selected');
    const all = screen.getByRole('checkbox', { name: 'Select all matching things' });
    expect(all).toHaveAttribute('data-indeterminate', 'true');

    await user.click(within(screen.getByRole('status')).getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Thing 2' })).not.toBeChecked();
  });

  it('selects every matching row on every page, and keeps rows the search hides', async () => {
    const user = userEvent.setup({ delay: null });
    showThings(() => listOf(60, thing));
    await screen.findByText('Thing 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select Thing 1' }));
    const search = screen.getByRole('searchbox', { name: 'Search things' });
    await user.type(search, 'blue');
    await waitFor(() => expect(rowNames()).toHaveLength(20));

    await user.click(screen.getByRole('checkbox', { name: 'Select all matching things' }));
    expect(screen.getByRole('status')).toHaveTextContent('All 20 matching things selected (1 not shown by the search)');
    expect(screen.getByRole('button', { name: 'Delete Selected (21)' })).toBeInTheDocument();

    await user.clear(search);
    await waitFor(() => expect(rowNames()).toHaveLength(25));
    expect(screen.getByRole('status')).toHaveTextContent('21 things selected');
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(screen.getByRole('checkbox', { name: 'Select Thing 30' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Thing 31' })).not.toBeChecked();
  });

  it('says All n things selected once every row is, without a search', async () => {
    const user = userEvent.setup({ delay: null });
    showThings(() => listOf(3, thing), {}, { searchable: false });
    await screen.findByText('Thing 1');
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all things' }));
    expect(screen.getByRole('status')).toHaveTextContent('All 3 things selected');
    await user.click(screen.getByRole('checkbox', { name: 'Select all things' }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('deletes the selected rows in one call after the confirmation, then clears the selection', async () => {
    const user = userEvent.setup({ delay: null });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
    let things = listOf(4, thing);
    const calls = showThings(() => things, {
      'POST /things/delete-multiple': ({ body }) => {
        const ids = body as number[];
        // Another screen added Thing 1 back meanwhile: the selection is cleared by the success itself.
        things = things.filter((row) => row.id === 1 || !ids.includes(row.id));
        return [200, { deleted_count: ids.length, message: 'Deleted' }];
      },
    });
    await screen.findByText('Thing 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select Thing 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Thing 3' }));

    await user.click(screen.getByRole('button', { name: 'Delete Selected (2)' }));
    expect(confirm).toHaveBeenLastCalledWith('Are you sure you want to delete 2 thing(s)?');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    expect(screen.getByRole('status')).toHaveTextContent('2 things selected');

    await user.click(screen.getByRole('button', { name: 'Delete Selected (2)' }));
    expect(await screen.findByText('Successfully deleted 2 thing(s).')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([[1, 3]]);
    await waitFor(() => expect(rowNames()).toEqual(['Thing 1', 'Thing 2', 'Thing 4']));
    expect(screen.getByRole('checkbox', { name: 'Select Thing 1' })).not.toBeChecked();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete Selected/ })).not.toBeInTheDocument();
  });

  it('keeps the selection when the bulk delete fails, shows the reason, and can try again', async () => {
    const user = userEvent.setup({ delay: null });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const reply = deferred<FakeReply>();
    showThings(() => listOf(3, thing), { 'POST /things/delete-multiple': () => reply.promise });
    await screen.findByText('Thing 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select Thing 2' }));
    await user.click(screen.getByRole('button', { name: 'Delete Selected (1)' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete Selected (1)' })).toBeDisabled());

    reply.release([409, { detail: 'Thing 2 is in use' }]);
    expect(await screen.findByText('Thing 2 is in use')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Selected (1)' })).toBeEnabled();
    expect(screen.getByRole('status')).toHaveTextContent('1 thing selected');
    expect(screen.getByRole('checkbox', { name: 'Select Thing 2' })).toBeChecked();
  });

  it('says Failed to delete things when the server gives no reason', async () => {
    const user = userEvent.setup({ delay: null });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    showThings(() => listOf(2, thing), { 'POST /things/delete-multiple': () => [500, {}] });
    await screen.findByText('Thing 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select Thing 1' }));
    await user.click(screen.getByRole('button', { name: 'Delete Selected (1)' }));
    expect(await screen.findByText('Failed to delete things')).toBeInTheDocument();
  });
});

describe('on a phone (below the medium breakpoint)', () => {
  afterEach(() => vi.unstubAllGlobals());
  const cardNames = () =>
    within(screen.getByRole('list', { name: 'Things' }))
      .getAllByRole('listitem')
      .map((card) => card.getAttribute('aria-label'));

  it('shows a card a row, named for it, with every column as header and value and every action in view', async () => {
    renderAtWidth(390);
    const user = userEvent.setup({ delay: null });
    const onEdit = vi.fn();
    const rowActions: RowAction<Thing>[] = [
      { id: 'star', tooltip: 'Star', label: (row) => `Star ${row.name}`, icon: <StarIcon />, onClick: () => {} },
    ];
    showThings(() => listOf(3, thing), {}, { onEdit, rowActions });
    const list = await screen.findByRole('list', { name: 'Things' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(cardNames()).toEqual(['Thing 1', 'Thing 2', 'Thing 3']);

    const card = within(list).getByRole('listitem', { name: 'Thing 3' });
    // The first column heads the card; the others are labelled with their headers.
    expect(within(card).getByText('Thing 3')).toBeInTheDocument();
    const terms = card.querySelectorAll('dt');
    expect([...terms].map((term) => term.textContent)).toEqual(['Colour']);
    expect(terms[0]?.nextElementSibling).toHaveTextContent('Colour blue');
    // The checkbox first, then the actions: the table's order.
    expect(
      [...card.querySelectorAll('input, button')].map(
        (control) => control.getAttribute('aria-label') ?? control.textContent,
      ),
    ).toEqual(['Select Thing 3', 'Star Thing 3', 'Edit Thing 3', 'Delete Thing 3']);
    await user.click(within(card).getByRole('button', { name: 'Edit Thing 3' }));
    expect(onEdit).toHaveBeenCalledWith(thing(3));
  });

  it('selects in the cards and with the select-all box over them; Delete Selected deletes those', async () => {
    renderAtWidth(390);
    const user = userEvent.setup({ delay: null });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    let things = listOf(3, thing);
    const calls = showThings(() => things, {
      'POST /things/delete-multiple': ({ body }) => {
        const ids = body as number[];
        things = things.filter((row) => !ids.includes(row.id));
        return [200, { deleted_count: ids.length, message: 'Deleted' }];
      },
    });
    await screen.findByRole('list', { name: 'Things' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Thing 2' }));
    expect(screen.getByRole('status')).toHaveTextContent('1 thing selected');
    const all = screen.getByRole('checkbox', { name: 'Select all matching things' });
    expect(all).toHaveAttribute('data-indeterminate', 'true');
    // The select-all box says what it does in words, not only to screen readers.
    expect(screen.getByText('Select all matching things')).toBeVisible();

    await user.click(all);
    expect(screen.getByRole('status')).toHaveTextContent('All 3 things selected');
    await user.click(screen.getByRole('checkbox', { name: 'Select Thing 1' }));
    await user.click(screen.getByRole('button', { name: 'Delete Selected (2)' }));
    expect(await screen.findByText('Successfully deleted 2 thing(s).')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([[2, 3]]);
    await waitFor(() => expect(cardNames()).toEqual(['Thing 1']));
  });

  it('gives those who may not delete no checkboxes and no select-all', async () => {
    renderAtWidth(390);
    showThings(() => listOf(2, thing), {}, { canDelete: false });
    await screen.findByRole('list', { name: 'Things' });
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Edit Thing 2' })).toBeInTheDocument();
  });

  it('keeps the table from the medium breakpoint up', async () => {
    renderAtWidth(900);
    showThings(() => listOf(2, thing));
    expect(await screen.findByRole('table', { name: 'Things' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Things' })).not.toBeInTheDocument();
  });
});

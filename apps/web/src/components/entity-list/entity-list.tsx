import AddIcon from '@mui/icons-material/Add';
import { Button, Paper, Stack, Typography } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n';
import { useRowSelection } from '../../lib/row-selection';
import { useCardLayout } from '../row-cards';
import { EntityCards, type EntityColumn, type EntityRowsProps, EntityTable, type RowsSelection } from './entity-table';
import { type EntityNamespace, entityTexts, listCountText, selectionSummary } from './entity-texts';
import { type EmptyText, ListStateView, listState } from './list-states';
import { ListPagination, usePaging } from './paging';
import { type DeleteOne, type RowAction, useDeleteAction, useEditAction } from './row-actions';
import { SearchBox } from './search-box';
import { type DeleteMany, DeleteSelectedButton, SelectionBar } from './selection-toolbar';

const NO_ROWS: never[] = [];

/** What a list is, given as data: the namespace of its words, its columns, search and empty states. */
export interface EntityListSpec<T extends { id: number }> {
  /**
   * The namespace whose `entity.` texts name the rows (`Add Student`, `1 student`): see entity-texts.ts.
   * Its English is added by the module that gives the spec.
   */
  namespace: string;
  columns: readonly EntityColumn<T>[];
  /** The row's name, in the checkbox's and the actions' names and in the delete confirmation. */
  nameOf: (row: T) => string;
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  tableMinWidth: number;
  /** A search box over the rows; `filter` says which rows a text matches (a blank text matches all). */
  search?: { placeholder: string; filter: (rows: readonly T[], text: string) => readonly T[] };
  /** What the list says while it has no rows at all. */
  empty: EmptyText;
  /** What it says when the search matches no row. */
  noMatch?: EmptyText;
}

export interface EntityListProps<T extends { id: number }> {
  list: EntityListSpec<T>;
  query: Pick<UseQueryResult<T[]>, 'data' | 'isPending' | 'isError' | 'isSuccess' | 'error' | 'refetch'>;
  onAdd: () => void;
  onEdit: (row: T) => void;
  /** A row's own actions, placed before Edit and Delete. */
  rowActions?: readonly RowAction<T>[];
  /** Who may delete gets the checkboxes, Delete Selected and a Delete button on each row; others none. */
  deleting?: { one: DeleteOne; many: DeleteMany };
}

/**
 * A list screen: the count and the Add and Delete Selected buttons, the search, the selection bar,
 * the rows with their actions a page at a time, or the state that stands in for them (loading, the
 * failure with Retry, nothing yet, nothing matching). The selection holds ids, so it survives paging,
 * searching and refetching, and lasts until a bulk delete succeeds.
 */
export function EntityList<T extends { id: number }>({
  list,
  query,
  onAdd,
  onEdit,
  rowActions,
  deleting,
}: EntityListProps<T>) {
  const { namespace, columns, nameOf, tableMinWidth, search, empty, noMatch } = list;
  // Typed by the students' `entity.` keys, which every list's namespace has (see `EntityT`).
  const { t } = useTranslation([namespace as EntityNamespace, 'lists'] as const);
  const texts = useMemo(() => entityTexts(t), [t]);
  const [searchText, setSearchText] = useState('');
  const deferredSearch = useDeferredValue(searchText);
  const searching = search !== undefined && deferredSearch.trim() !== '';

  const all: readonly T[] = query.data ?? NO_ROWS;
  const filter = search?.filter;
  const matches = useMemo(() => (filter ? filter(all, deferredSearch) : all), [filter, all, deferredSearch]);
  const allIds = useMemo(() => all.map((row) => row.id), [all]);
  const matchingIds = useMemo(() => matches.map((row) => row.id), [matches]);
  const selection = useRowSelection(allIds);
  const header = selection.headerState(matchingIds);
  const paging = usePaging(matches);

  const edit = useEditAction(nameOf, onEdit);
  const remove = useDeleteAction(texts, nameOf, deleting?.one);
  const actions = useMemo(() => [...(rowActions ?? []), edit, ...(remove ? [remove] : [])], [rowActions, edit, remove]);
  const { toggle, toggleAll, clear: clearSelection } = selection;
  const onToggleAll = useCallback(() => toggleAll(matchingIds), [toggleAll, matchingIds]);
  const rowsSelection: RowsSelection | undefined = deleting && {
    header,
    selectAllLabel: texts.selectAll(search !== undefined),
    isSelected: selection.isSelected,
    toggle,
    toggleAll: onToggleAll,
  };

  const selectedCount = selection.selectedIds.length;
  const showSelection = deleting !== undefined && selectedCount > 0;
  const state = listState(query, all.length, matches.length);
  const cards = useCardLayout();
  const rowsProps: EntityRowsProps<T> = {
    rows: paging.pageRows,
    columns,
    actions,
    nameOf,
    label: texts.table,
    minWidth: tableMinWidth,
    selection: rowsSelection,
  };

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography color="text.secondary">
          {query.isSuccess && listCountText(t, matches.length, all.length, searching)}
        </Typography>
        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1} sx={{ justifyContent: 'flex-end' }}>
          {showSelection && (
            <DeleteSelectedButton
              texts={texts}
              selectedIds={selection.selectedIds}
              deleteMany={deleting.many}
              onDeleted={clearSelection}
            />
          )}
          <Button variant="contained" startIcon={<AddIcon />} onClick={onAdd}>
            {texts.add}
          </Button>
        </Stack>
      </Stack>

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        {search && (
          <SearchBox
            label={texts.search}
            placeholder={search.placeholder}
            value={searchText}
            onChange={(text) => {
              setSearchText(text);
              paging.state.setPage(0);
            }}
          />
        )}
        {showSelection && (
          <SelectionBar
            summary={selectionSummary(t, selectedCount, {
              total: matches.length,
              selected: header.selectedCount,
              searching,
            })}
            onClear={clearSelection}
          />
        )}
        {state === 'rows' ? (
          <>
            {/* Below the medium breakpoint the rows are cards, with every column and action in view. */}
            {cards ? <EntityCards {...rowsProps} /> : <EntityTable {...rowsProps} />}
            <ListPagination paging={paging} count={matches.length} />
          </>
        ) : (
          <ListStateView
            state={state}
            error={query.error}
            fetchFailed={texts.fetchFailed}
            onRetry={() => void query.refetch()}
            empty={empty}
            noMatch={noMatch}
          />
        )}
      </Paper>
    </Stack>
  );
}

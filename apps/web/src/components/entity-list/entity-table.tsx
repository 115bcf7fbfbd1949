import {
  Box,
  Checkbox,
  FormControlLabel,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { useCallback, useMemo } from 'react';
import { useTranslation } from '../../i18n';
import { ColumnRow } from '../data-table';
import { type CardSelection, type DataColumn, RowCards } from '../row-cards';
import { type RowAction, RowActionButtons } from './row-actions';

/** A column given as data: its header, and what a row shows in it (a table cell, or a line of a card). */
export type EntityColumn<T> = DataColumn<T>;

/** The checkboxes of a selectable list; a list without them has no selection at all. */
export interface RowsSelection {
  header: { checked: boolean; indeterminate: boolean };
  /** The header checkbox's name: it selects every matching row, on every page. */
  selectAllLabel: string;
  isSelected: (id: number) => boolean;
  toggle: (id: number) => void;
  toggleAll: () => void;
}

/** What shows one page of rows: the table (wider screens) and the cards (phones) take the same. */
export interface EntityRowsProps<T extends { id: number }> {
  rows: readonly T[];
  columns: readonly EntityColumn<T>[];
  actions: readonly RowAction<T>[];
  nameOf: (row: T) => string;
  /** The table's accessible name: `Students`. */
  label: string;
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number;
  selection?: RowsSelection;
}

/** One page of a list as a table: the checkboxes when it has a selection, the columns, the row actions. */
export function EntityTable<T extends { id: number }>({
  rows,
  columns,
  actions,
  nameOf,
  label,
  minWidth,
  selection,
}: EntityRowsProps<T>) {
  const { t } = useTranslation('lists');
  const rowActions = useCallback((row: T) => <RowActionButtons row={row} actions={actions} />, [actions]);
  const toggle = selection?.toggle;
  const toggleRow = useMemo(() => (toggle ? (row: T) => toggle(row.id) : undefined), [toggle]);
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        sx={{ minWidth, '& td, & th': { py: 1 }, '& th': { whiteSpace: 'nowrap' } }}
        aria-label={label}
      >
        <TableHead>
          <TableRow>
            {selection && (
              <TableCell padding="checkbox">
                <Checkbox
                  checked={selection.header.checked}
                  indeterminate={selection.header.indeterminate}
                  onChange={selection.toggleAll}
                  slotProps={{ input: { 'aria-label': selection.selectAllLabel } }}
                />
              </TableCell>
            )}
            {columns.map((column) => (
              <TableCell key={column.id} sx={column.minWidth ? { minWidth: column.minWidth } : undefined}>
                {column.header}
              </TableCell>
            ))}
            <TableCell align="right">
              <Box component="span" sx={{ pr: 1 }}>
                {t('actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <ColumnRow
              key={row.id}
              row={row}
              columns={columns}
              actions={rowActions}
              nameOf={nameOf}
              selected={selection?.isSelected(row.id) ?? false}
              onToggle={toggleRow}
              rowSx={undefined}
            />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * One page of a list as stacked cards, for phones: the select-all checkbox over them when the list has
 * a selection, then a card a row with its checkbox, every column (header and value) and its actions.
 */
export function EntityCards<T extends { id: number }>({
  rows,
  columns,
  actions,
  nameOf,
  label,
  selection,
}: EntityRowsProps<T>) {
  const isSelected = selection?.isSelected;
  const toggle = selection?.toggle;
  const cardSelection = useMemo<CardSelection<T> | undefined>(
    () => isSelected && toggle && { isSelected: (row) => isSelected(row.id), toggle: (row) => toggle(row.id) },
    [isSelected, toggle],
  );
  const rowActions = useMemo(() => (row: T) => <RowActionButtons row={row} actions={actions} />, [actions]);
  return (
    <>
      {selection && (
        <Box sx={{ px: 2, py: 0.5, borderBottom: 1, borderColor: 'divider' }}>
          <FormControlLabel
            label={selection.selectAllLabel}
            slotProps={{ typography: { variant: 'body2', color: 'text.secondary' } }}
            control={
              <Checkbox
                checked={selection.header.checked}
                indeterminate={selection.header.indeterminate}
                onChange={selection.toggleAll}
              />
            }
          />
        </Box>
      )}
      <RowCards
        label={label}
        rows={rows}
        rowKey={(row) => row.id}
        columns={columns}
        nameOf={nameOf}
        selection={cardSelection}
        actions={rowActions}
      />
    </>
  );
}

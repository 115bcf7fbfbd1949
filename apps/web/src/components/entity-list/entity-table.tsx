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
import { memo, type ReactNode, useMemo } from 'react';
import { cellSx } from '../data-table';
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

interface RowProps<T> {
  row: T;
  columns: readonly EntityColumn<T>[];
  actions: readonly RowAction<T>[];
  nameOf: (row: T) => string;
  selected: boolean;
  /** Absent when the list has no selection. */
  onToggle?: (id: number) => void;
}

// Rows re-render only when their own record or selection changes: paging and selecting stay quick.
const EntityRow = memo(function EntityRow<T extends { id: number }>({
  row,
  columns,
  actions,
  nameOf,
  selected,
  onToggle,
}: RowProps<T>) {
  return (
    <TableRow hover selected={selected}>
      {onToggle && (
        <TableCell padding="checkbox">
          <Checkbox
            checked={selected}
            onChange={() => onToggle(row.id)}
            slotProps={{ input: { 'aria-label': `Select ${nameOf(row)}` } }}
          />
        </TableCell>
      )}
      {columns.map((column) => (
        <TableCell key={column.id} sx={cellSx(column)}>
          {column.cell(row)}
        </TableCell>
      ))}
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <RowActionButtons row={row} actions={actions} />
      </TableCell>
    </TableRow>
  );
}) as <T extends { id: number }>(props: RowProps<T>) => ReactNode;

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
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <EntityRow
              key={row.id}
              row={row}
              columns={columns}
              actions={actions}
              nameOf={nameOf}
              selected={selection?.isSelected(row.id) ?? false}
              onToggle={selection?.toggle}
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

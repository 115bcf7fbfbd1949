import { Box, Checkbox, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { memo, type ReactNode } from 'react';
import { type RowAction, RowActionButtons } from './row-actions';

/** A column given as data: its header, and what a row shows in it. */
export interface EntityColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Keeps the cell's text on one line. */
  nowrap?: boolean;
  /** The narrowest the column may get, in pixels. */
  minWidth?: number;
}

/** The checkboxes of a selectable list; a list without them has no selection at all. */
export interface RowsSelection {
  header: { checked: boolean; indeterminate: boolean };
  /** The header checkbox's name: it selects every matching row, on every page. */
  selectAllLabel: string;
  isSelected: (id: number) => boolean;
  toggle: (id: number) => void;
  toggleAll: () => void;
}

/**
 * What shows one page of rows. The table takes it; a layout for narrow screens (cards) can take the
 * same and be chosen where the list picks its view.
 */
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
        <TableCell key={column.id} sx={column.nowrap ? { whiteSpace: 'nowrap' } : undefined}>
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

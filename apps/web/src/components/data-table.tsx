import {
  Box,
  Checkbox,
  Paper,
  type SxProps,
  Table,
  TableBody,
  type TableBodyProps,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  type Theme,
} from '@mui/material';
import { type Key, memo, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { type CardSelection, type DataColumn, RowCards, useCardLayout } from './row-cards';

interface TableHeadingsProps {
  labels: readonly string[];
  /** A first, narrow column of checkboxes, headed with this word. */
  select?: string | undefined;
}

/** A table's head: one row of column headings. */
export function TableHeadings({ labels, select }: TableHeadingsProps) {
  return (
    <TableHead>
      <TableRow>
        {select !== undefined && <TableCell padding="checkbox">{select}</TableCell>}
        {labels.map((label) => (
          <TableCell key={label}>{label}</TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

interface DataTableProps extends TableHeadingsProps {
  /** Names the table for screen readers. */
  label: string;
  /**
   * Names the box the table scrolls sideways in on a phone, and makes it a stop for the keyboard, so
   * that a keyboard can scroll it too.
   */
  region?: string;
  /** In an outlined paper of its own. */
  outlined?: boolean;
  /** Keeps the headings in view while the rows scroll. */
  stickyHeader?: boolean;
  /** The scroll box's styles (a border, a height). */
  boxSx?: SxProps<Theme>;
  /** The table's styles (a minimum width, no wrapping). */
  sx?: SxProps<Theme>;
  /** Said of the rows as a whole (busy while they are replaced). */
  bodyProps?: TableBodyProps;
  /** The rows. */
  children: ReactNode;
}

/** A small table with its headings, in a box that scrolls sideways when the screen is narrower. */
export function DataTable({
  label,
  labels,
  select,
  region,
  outlined = false,
  stickyHeader = false,
  boxSx,
  sx,
  bodyProps,
  children,
}: DataTableProps) {
  const table = (
    <Table size="small" stickyHeader={stickyHeader} aria-label={label} sx={sx}>
      <TableHeadings labels={labels} select={select} />
      <TableBody {...bodyProps}>{children}</TableBody>
    </Table>
  );
  const scroll = region ? { tabIndex: 0, role: 'region', 'aria-label': region } : {};
  return outlined ? (
    <TableContainer component={Paper} variant="outlined" sx={boxSx} {...scroll}>
      {table}
    </TableContainer>
  ) : (
    <TableContainer sx={boxSx} {...scroll}>
      {table}
    </TableContainer>
  );
}

interface ColumnRowProps<T> {
  row: T;
  columns: readonly DataColumn<T>[];
  nameOf: (row: T) => string;
  selected: boolean;
  /** Absent when the rows have no checkboxes. */
  onToggle: ((row: T) => void) | undefined;
  actions: ((row: T) => ReactNode) | undefined;
  rowSx: SxProps<Theme> | undefined;
}

/** A column's table cell styles: its own, and one line when it says `nowrap`. */
export function cellSx<T>(column: DataColumn<T>): SxProps<Theme> | undefined {
  if (!column.nowrap) return column.sx;
  return [{ whiteSpace: 'nowrap' }, ...(Array.isArray(column.sx) ? column.sx : [column.sx])];
}

// A row re-renders only when its record or its selection changes: paging and selecting stay quick.
export const ColumnRow = memo(function ColumnRow<T>({
  row,
  columns,
  nameOf,
  selected,
  onToggle,
  actions,
  rowSx,
}: ColumnRowProps<T>) {
  const { t } = useTranslation('lists');
  return (
    <TableRow hover selected={selected} sx={rowSx}>
      {onToggle && (
        <TableCell padding="checkbox">
          <Checkbox
            checked={selected}
            onChange={() => onToggle(row)}
            slotProps={{ input: { 'aria-label': t('selectRow', { name: nameOf(row) }) } }}
          />
        </TableCell>
      )}
      {columns.map((column) => (
        <TableCell key={column.id} sx={cellSx(column)}>
          {column.cell(row)}
        </TableCell>
      ))}
      {actions && (
        <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
          {actions(row)}
        </TableCell>
      )}
    </TableRow>
  );
}) as <T>(props: ColumnRowProps<T>) => ReactNode;

interface ColumnTableProps<T> extends Omit<DataTableProps, 'labels' | 'select' | 'children' | 'bodyProps'> {
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => Key;
  /** The row's name: a card's accessible name, and the checkbox's (`Select <name>`). */
  nameOf: (row: T) => string;
  /** The column that heads a card (the first unless said). */
  titleColumn?: string;
  /** Checkboxes on the rows, headed with this word in the table. */
  selection?: CardSelection<T> & { header: string };
  /** The row's buttons: the table's last column, under this header; the foot of a card, always in view. */
  actions?: { header: string; cell: (row: T) => ReactNode };
  /** Said instead of rows (loading, nothing found): one wide cell, or a line where the cards go. */
  message?: ReactNode;
  /** The previous rows, dimmed and marked busy, while the ones asked for load. */
  busy?: boolean;
  /** Each table row's styles. */
  rowSx?: SxProps<Theme>;
}

/**
 * A list given as columns: a table on wider screens (as DataTable), and below the medium breakpoint
 * the same columns as stacked cards (RowCards), so that no column or control is off the screen.
 */
export function ColumnTable<T>({
  columns,
  rows,
  rowKey,
  nameOf,
  titleColumn,
  selection,
  actions,
  message,
  busy = false,
  rowSx,
  ...table
}: ColumnTableProps<T>) {
  const cards = useCardLayout();
  if (cards) {
    const list = message ? (
      <Box sx={{ px: 2, py: 4, textAlign: 'center', color: 'text.secondary' }}>{message}</Box>
    ) : (
      <RowCards
        label={table.label}
        rows={rows}
        rowKey={rowKey}
        columns={columns}
        nameOf={nameOf}
        titleColumn={titleColumn}
        selection={selection}
        actions={actions?.cell}
        busy={busy}
      />
    );
    return table.outlined ? (
      <Paper variant="outlined" sx={table.boxSx}>
        {list}
      </Paper>
    ) : (
      <Box sx={table.boxSx}>{list}</Box>
    );
  }
  return (
    <DataTable
      {...table}
      labels={[...columns.map((column) => column.header), ...(actions ? [actions.header] : [])]}
      select={selection?.header}
      bodyProps={{ 'aria-busy': busy, sx: { opacity: busy ? 0.6 : 1 } }}
    >
      {message ? (
        <TableRow>
          <TableCell
            colSpan={columns.length + (selection ? 1 : 0) + (actions ? 1 : 0)}
            sx={{ py: 6, textAlign: 'center', color: 'text.secondary', whiteSpace: 'normal' }}
          >
            {message}
          </TableCell>
        </TableRow>
      ) : (
        rows.map((row) => (
          <ColumnRow
            key={rowKey(row)}
            row={row}
            columns={columns}
            nameOf={nameOf}
            selected={selection?.isSelected(row) ?? false}
            onToggle={selection?.toggle}
            actions={actions?.cell}
            rowSx={rowSx}
          />
        ))
      )}
    </DataTable>
  );
}

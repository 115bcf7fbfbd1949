import {
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
import type { ReactNode } from 'react';

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

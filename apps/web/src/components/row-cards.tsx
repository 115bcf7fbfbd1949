import { Box, Checkbox, type SxProps, type Theme, Typography, useMediaQuery, useTheme } from '@mui/material';
import { Fragment, type Key, memo, type ReactNode } from 'react';
import { useTranslation } from '../i18n';

/** A column given as data: its header, and what a row shows in it (a table cell, or a line of a card). */
export interface DataColumn<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Keeps the cell's text on one line (in the table). */
  nowrap?: boolean;
  /** The narrowest the column may get, in pixels (in the table). */
  minWidth?: number;
  /** The table cell's own styles. */
  sx?: SxProps<Theme>;
}

/**
 * Below the medium breakpoint (a phone, a small tablet upright) lists are cards: a table wider than the
 * screen hides its right-hand columns and their buttons off the screen, with nothing to say they are
 * there. The phone register switches at the same width.
 */
export function useCardLayout(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('md'));
}

/** The checkboxes of rows that can be selected: one a row, named `Select <the row's name>`. */
export interface CardSelection<T> {
  isSelected: (row: T) => boolean;
  toggle: (row: T) => void;
}

export interface RowCardsProps<T> {
  /** Names the list for screen readers, as the table's label does. */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => Key;
  columns: readonly DataColumn<T>[];
  /** The row's name: the card's accessible name, and its checkbox's. */
  nameOf: (row: T) => string;
  /** The column whose value heads the card, without its header (the first unless said). */
  titleColumn?: string;
  selection?: CardSelection<T>;
  /** The row's buttons, in a line at the foot of the card, always in view. */
  actions?: (row: T) => ReactNode;
  /** Said of the cards as a whole (busy while they are replaced). */
  busy?: boolean;
}

/**
 * A card's lines below its title: each column's header, then what the row holds in it. A column the
 * row leaves empty (a payment's "Charged") has no line: a header over nothing reads as missing data.
 */
export function CardFields<T>({ row, columns }: { row: T; columns: readonly DataColumn<T>[] }) {
  const lines = columns
    .map((column) => ({ column, value: column.cell(row) }))
    .filter(({ value }) => value !== '' && value !== null && value !== undefined && value !== false);
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'minmax(88px, max-content) minmax(0, 1fr)',
        columnGap: 2,
        rowGap: 0.75,
        alignItems: 'baseline',
        m: 0,
        mt: 1,
      }}
    >
      {lines.map(({ column, value }) => (
        <Fragment key={column.id}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {column.header}
          </Typography>
          <Box component="dd" sx={{ m: 0, minWidth: 0, typography: 'body2', overflowWrap: 'anywhere' }}>
            {value}
          </Box>
        </Fragment>
      ))}
    </Box>
  );
}

interface CardProps<T> {
  row: T;
  columns: readonly DataColumn<T>[];
  titleColumn: DataColumn<T> | undefined;
  nameOf: (row: T) => string;
  selected: boolean;
  /** Absent when the rows have no checkboxes. */
  onToggle: ((row: T) => void) | undefined;
  actions: ((row: T) => ReactNode) | undefined;
}

// A card re-renders only when its record or its selection changes, as a table row does.
const RowCard = memo(function RowCard<T>({
  row,
  columns,
  titleColumn,
  nameOf,
  selected,
  onToggle,
  actions,
}: CardProps<T>) {
  const { t } = useTranslation('lists');
  const name = nameOf(row);
  const lines = columns.filter((column) => column !== titleColumn);
  const buttons = actions?.(row);
  return (
    <Box
      component="li"
      aria-label={name}
      sx={{
        px: 2,
        py: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
        '&:last-of-type': { borderBottom: 0 },
        bgcolor: selected ? 'action.selected' : undefined,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minHeight: 40 }}>
        {onToggle && (
          <Checkbox
            checked={selected}
            onChange={() => onToggle(row)}
            slotProps={{ input: { 'aria-label': t('selectRow', { name }) } }}
            sx={{ ml: -1.25, my: -0.5 }}
          />
        )}
        <Box sx={{ flex: 1, minWidth: 0, fontWeight: 600, overflowWrap: 'anywhere' }}>
          {titleColumn ? titleColumn.cell(row) : name}
        </Box>
      </Box>
      {lines.length > 0 && <CardFields row={row} columns={lines} />}
      {buttons && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 0.5, mt: 1, mr: -0.5 }}>
          {buttons}
        </Box>
      )}
    </Box>
  );
}) as <T>(props: CardProps<T>) => ReactNode;

/**
 * A list's rows as stacked cards: the title column's value heads each card, every other column follows
 * as `header  value`, then the row's buttons. The keyboard meets them in the table's order: the
 * checkbox, the values' own controls, the actions.
 */
export function RowCards<T>({
  label,
  rows,
  rowKey,
  columns,
  nameOf,
  titleColumn,
  selection,
  actions,
  busy,
}: RowCardsProps<T>) {
  const title = titleColumn === undefined ? columns[0] : columns.find((column) => column.id === titleColumn);
  return (
    <Box
      component="ul"
      aria-label={label}
      aria-busy={busy || undefined}
      sx={{ listStyle: 'none', m: 0, p: 0, opacity: busy ? 0.6 : 1 }}
    >
      {rows.map((row) => (
        <RowCard
          key={rowKey(row)}
          row={row}
          columns={columns}
          titleColumn={title}
          nameOf={nameOf}
          selected={selection?.isSelected(row) ?? false}
          onToggle={selection?.toggle}
          actions={actions}
        />
      ))}
    </Box>
  );
}

import { MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import { SearchField } from '../../components/search-field';
import { useTranslation } from '../../i18n';
import { useClassChoices } from '../../lib/centre-classes';
import { ATTENDANCE_STATUSES, classLabel, isStatus, statusLabel } from './attendance-status';
import type { RecordFilters } from './record-filters';

interface Props {
  filters: RecordFilters;
  onChange: (filters: RecordFilters) => void;
  searchLabel?: string;
}

const fieldWidth = { xs: '100%', sm: 160 };

/** Search by name or ID, Status (All, Present…) and Class (All, Class 7…): approval and history alike. */
export function RecordFilterFields({ filters, onChange, searchLabel }: Props) {
  const { t } = useTranslation('attendance');
  // The centre's classes (ADR 043), archived ones too (their records are still kept), asked for once
  // the select is first opened; the spec's four stand in until then.
  const [opened, setOpened] = useState(false);
  const classes = useClassChoices({ enabled: opened });
  const offered = classes.offered(filters.className);
  return (
    <>
      <SearchField
        label={searchLabel ?? t('filters.search')}
        value={filters.search}
        onChange={(search) => onChange({ ...filters, search })}
        sx={{ width: { xs: '100%', sm: 240 } }}
      />
      <TextField
        select
        size="small"
        label={t('filters.status')}
        value={filters.status}
        onChange={(event) => onChange({ ...filters, status: isStatus(event.target.value) ? event.target.value : '' })}
        sx={{ width: fieldWidth }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">{t('filters.all')}</MenuItem>
        {ATTENDANCE_STATUSES.map((status) => (
          <MenuItem key={status} value={status}>
            {statusLabel(status)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('filters.class')}
        value={filters.className}
        onChange={(event) =>
          onChange({
            ...filters,
            className: classes.all.some((c) => c.value === event.target.value) ? event.target.value : '',
          })
        }
        sx={{ width: fieldWidth }}
        slotProps={{ select: { displayEmpty: true, onOpen: () => setOpened(true) }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">{t('filters.all')}</MenuItem>
        {[...offered, ...classes.all.filter((c) => c.archived && !offered.includes(c))].map((choice) => (
          <MenuItem key={choice.value} value={choice.value}>
            {classLabel(choice.value, choice.label)}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}

import { MenuItem, TextField } from '@mui/material';
import { SearchField } from '../../components/search-field';
import { useTranslation } from '../../i18n';
import { ATTENDANCE_STATUSES, CLASS_NAMES, classLabel, isClassName, isStatus, statusLabel } from './attendance-status';
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
          onChange({ ...filters, className: isClassName(event.target.value) ? event.target.value : '' })
        }
        sx={{ width: fieldWidth }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">{t('filters.all')}</MenuItem>
        {CLASS_NAMES.map((name) => (
          <MenuItem key={name} value={name}>
            {classLabel(name)}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}

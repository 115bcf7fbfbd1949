import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import type { TeacherAttendanceEntry } from '@tuitiondesk/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDay } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { useUpdateTeacherRemarks } from './api';

export const REMARKS_MAX = 500;

interface Props {
  /** The teacher whose remarks are edited; the dialog is open while one is given. */
  teacher: TeacherAttendanceEntry | null;
  date: string;
  onClose: () => void;
}

export function RemarksDialog({ teacher, date, onClose }: Props) {
  return (
    <Dialog open={teacher !== null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="remarks-dialog-title">
      {teacher && <RemarksForm key={teacher.teacher_id} teacher={teacher} date={date} onClose={onClose} />}
    </Dialog>
  );
}

function RemarksForm({
  teacher,
  date,
  onClose,
}: {
  teacher: TeacherAttendanceEntry;
  date: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('teacherAttendance');
  const { showToast } = useToast();
  const save = useUpdateTeacherRemarks();
  const [remarks, setRemarks] = useState(teacher.remarks ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { teacher_id: teacher.teacher_id, date, remarks },
      {
        onSuccess: () => {
          showToast(t('remarks.saved'), 'success');
          onClose();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogTitle id="remarks-dialog-title">{t('remarks.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {teacher.teacher_name} ({teacher.teacher_unique_id}), {formatDay(date)}
        </DialogContentText>
        {save.isError && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorText(save.error, t('remarks.saveFailed'))}
          </Alert>
        )}
        <TextField
          label={t('remarks.label')}
          placeholder={t('remarks.placeholder')}
          value={remarks}
          onChange={(event) => setRemarks(event.target.value)}
          multiline
          minRows={3}
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { maxLength: REMARKS_MAX } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('remarks.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          {save.isPending ? t('remarks.saving') : t('remarks.save')}
        </Button>
      </DialogActions>
    </form>
  );
}

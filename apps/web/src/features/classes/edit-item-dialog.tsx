import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import type { UpdateClassRequest, UpdateSubjectRequest } from '@tuitiondesk/contract';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import type { ListItem, ListKind } from './api';

/** How a class (label, section) or a subject (label) is shown; what it is stored as stays. */
export function EditItemDialog({
  kind,
  item,
  saving,
  onCancel,
  onSave,
}: {
  kind: ListKind;
  item: ListItem;
  saving: boolean;
  onCancel: () => void;
  onSave: (body: UpdateClassRequest | UpdateSubjectRequest) => void;
}) {
  const { t } = useTranslation('classes');
  const [label, setLabel] = useState(item.label);
  const [section, setSection] = useState('section' in item ? (item.section ?? '') : '');
  const isClass = kind === 'classes';
  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="xs">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSave(isClass ? { label, section } : { label });
        }}
      >
        <DialogTitle>{t(isClass ? 'edit.classTitle' : 'edit.subjectTitle', { value: item.value })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField label={t(isClass ? 'classes.value' : 'subjects.value')} value={item.value} disabled />
            <TextField
              label={t('form.label')}
              required
              autoFocus
              value={label}
              onChange={(event) => setLabel(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 60 } }}
            />
            {isClass && (
              <TextField
                label={t('form.section')}
                value={section}
                onChange={(event) => setSection(event.target.value)}
                helperText={t('classes.sectionHint')}
                slotProps={{ htmlInput: { maxLength: 40 } }}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{t('edit.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={saving || label.trim() === ''}>
            {t('edit.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

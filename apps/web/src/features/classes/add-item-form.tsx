import AddIcon from '@mui/icons-material/Add';
import { Box, Button, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { type ListKind, shownName, useAddItem } from './api';

/**
 * Adds a class (its name as stored, how it is shown, a section) or a subject at the end of its list.
 * The name cannot change later (students and teachers store it); how it is shown can.
 */
export function AddItemForm({ kind }: { kind: ListKind }) {
  const { t } = useTranslation('classes');
  const add = useAddItem(kind);
  const { showToast } = useToast();
  const [value, setValue] = useState('');
  const [label, setLabel] = useState('');
  const [section, setSection] = useState('');
  const [error, setError] = useState<string | null>(null);
  const isClass = kind === 'classes';
  const keys = isClass ? 'classes' : 'subjects';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const body = isClass
      ? { value, label: label || undefined, section: section || undefined }
      : { value, label: label || undefined };
    add.mutate(body, {
      onSuccess: (created) => {
        setValue('');
        setLabel('');
        setSection('');
        showToast(t('done.added', { name: shownName(created) }), 'success');
      },
      onError: (failure) => setError(errorText(failure, t('failed'))),
    });
  };

  return (
    <Box
      component="form"
      onSubmit={submit}
      aria-label={t(`${keys}.add`)}
      sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}
    >
      <TextField
        size="small"
        required
        label={t(`${keys}.value`)}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={error !== null}
        helperText={error ?? t(`${keys}.valueHint`)}
        sx={{ flex: '2 1 220px' }}
        slotProps={{ htmlInput: { maxLength: isClass ? 40 : 60 } }}
      />
      <TextField
        size="small"
        label={t('form.label')}
        value={label}
        onChange={(event) => setLabel(event.target.value)}
        helperText={t(isClass ? 'classes.labelHint' : 'subjects.labelHint')}
        sx={{ flex: '2 1 180px' }}
        slotProps={{ htmlInput: { maxLength: 60 } }}
      />
      {isClass && (
        <TextField
          size="small"
          label={t('form.section')}
          value={section}
          onChange={(event) => setSection(event.target.value)}
          helperText={t('classes.sectionHint')}
          sx={{ flex: '1 1 120px' }}
          slotProps={{ htmlInput: { maxLength: 40 } }}
        />
      )}
      <Button
        type="submit"
        variant="contained"
        startIcon={<AddIcon />}
        disabled={value.trim() === '' || add.isPending}
        sx={{ mt: 0.25 }}
      >
        {t(`${keys}.add`)}
      </Button>
    </Box>
  );
}

import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
} from '@mui/material';
import type { User } from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { LANGUAGE_INFO, LANGUAGES, type Language, languageFor, useTranslation } from '../../i18n';
import { apiRequest } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';

/**
 * The account menu's Language: the console's language for this account, kept on the server so that it
 * follows the account to every device. Each language is named in itself, so a reader finds their own
 * whatever the console shows now.
 */
export function LanguageDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { user, updateUser } = useAuth();
  const shown = languageFor(user?.language);
  const [choice, setChoice] = useState<Language>(shown);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (open) {
      setChoice(shown);
      setFailed(false);
    }
  }, [open, shown]);

  const save = async () => {
    setSaving(true);
    setFailed(false);
    try {
      updateUser(await apiRequest<User>('/auth/me/language', { method: 'PUT', json: { language: choice } }));
      onClose();
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="language-title" fullWidth maxWidth="xs">
      <DialogTitle id="language-title">{t('languageDialog.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="language-intro" sx={{ mb: 1 }}>
          {t('languageDialog.intro')}
        </DialogContentText>
        <RadioGroup
          aria-labelledby="language-title"
          aria-describedby="language-intro"
          value={choice}
          onChange={(event) => setChoice(event.target.value as Language)}
        >
          {LANGUAGES.map((language) => (
            <FormControlLabel
              key={language}
              value={language}
              control={<Radio />}
              label={LANGUAGE_INFO[language].name}
              lang={language}
              dir={LANGUAGE_INFO[language].rtl ? 'rtl' : 'ltr'}
            />
          ))}
        </RadioGroup>
        {failed && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {t('languageDialog.failed')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('languageDialog.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={saving}>
          {t('languageDialog.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

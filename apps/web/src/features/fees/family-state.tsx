import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { type FeeFamily, GST_STATES } from '@tuitiondesk/contract';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useGstSettings } from '../../lib/gst-settings';
import { useSetFamilyState } from './api';

/** The centre's own state in the select: no row on the server. */
const CENTRE = 'centre';

const stateText = (code: string) => `${GST_STATES[code] ?? code} (${code})`;

/**
 * A family's place of supply on its statement (ADR 063), only for a GST-registered centre: the
 * family's state, or the centre's when none was set, and a dialog to change it. A family in another
 * state is billed IGST from its next payment.
 */
export function FamilyState({ family }: { family: FeeFamily }) {
  const { t } = useTranslation('fees');
  const gst = useGstSettings();
  const [editing, setEditing] = useState(false);
  const centreState = gst.data?.state_code ?? null;
  if (!gst.data?.registered || centreState === null) return null;
  const shown =
    family.state_code === null || family.state_code === centreState
      ? t('familyState.centreState', { state: stateText(centreState) })
      : stateText(family.state_code);
  return (
    <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="family-state">
      {t('familyState.line', { state: shown })}{' '}
      <Button size="small" onClick={() => setEditing(true)}>
        {t('familyState.change')}
      </Button>
      {editing && <FamilyStateDialog family={family} centreState={centreState} onClose={() => setEditing(false)} />}
    </Typography>
  );
}

function FamilyStateDialog({
  family,
  centreState,
  onClose,
}: {
  family: FeeFamily;
  centreState: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('fees');
  const save = useSetFamilyState(family.family_id);
  const [choice, setChoice] = useState(
    family.state_code === null || family.state_code === centreState ? CENTRE : family.state_code,
  );
  const others = Object.keys(GST_STATES)
    .filter((code) => code !== centreState)
    .sort((a, b) => (GST_STATES[a] ?? a).localeCompare(GST_STATES[b] ?? b));
  const submit = () =>
    save.mutate(choice === CENTRE ? null : choice, {
      onSuccess: () => onClose(),
    });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="family-state-title">
      <DialogTitle id="family-state-title">{t('familyState.title', { name: family.parent_name })}</DialogTitle>
      <DialogContent>
        <TextField
          select
          fullWidth
          margin="dense"
          label={t('familyState.field')}
          value={choice}
          onChange={(event) => setChoice(event.target.value)}
          helperText={t('familyState.hint')}
        >
          <MenuItem value={CENTRE}>{t('familyState.centreState', { state: stateText(centreState) })}</MenuItem>
          {others.map((code) => (
            <MenuItem key={code} value={code}>
              {stateText(code)}
            </MenuItem>
          ))}
        </TextField>
        {save.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(save.error, t('familyState.saveFailed'))}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending}>
          {t('familyState.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

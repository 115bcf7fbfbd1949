import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FeeFamily, GST_STATES } from '@tuitiondesk/contract';
import { useState } from 'react';
import { LtrText } from '../../components/data-text';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useGstSettings } from '../../lib/gst-settings';
import { useSetFamilyGstDetails } from './api';

/** The centre's own state in the select: no row on the server. */
const CENTRE = 'centre';

const stateText = (code: string) => `${GST_STATES[code] ?? code} (${code})`;

/** The family as the GST details need it. */
export type GstFamily = Pick<
  FeeFamily,
  'family_id' | 'parent_name' | 'state_code' | 'billing_name' | 'billing_address' | 'billing_gstin'
>;

/**
 * A family's GST details on its statement (ADR 063, 065), only for a GST-registered centre: the place
 * of supply (the family's state, or the centre's when none was set) and whom its tax invoices are
 * billed to (name, address, GSTIN), with one dialog that changes them together. Changes apply from the
 * family's next payment.
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
    <Box sx={{ mt: 1 }} data-testid="family-state">
      <Typography color="text.secondary">{t('familyState.line', { state: shown })}</Typography>
      <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {t('familyState.billedTo', { name: family.billing_name ?? family.parent_name })}
        {family.billing_address ? `, ${family.billing_address}` : ''}
        {family.billing_gstin && (
          <>
            {`, ${t('receipt.gstin')} `}
            <LtrText>{family.billing_gstin}</LtrText>
          </>
        )}
        {!family.billing_address && ` ${t('familyState.noAddress')}`}{' '}
        <Button size="small" onClick={() => setEditing(true)}>
          {t('familyState.edit')}
        </Button>
      </Typography>
      {editing && <FamilyGstDialog family={family} centreState={centreState} onClose={() => setEditing(false)} />}
    </Box>
  );
}

/** The one dialog of a family's GST details: state, billing name, address and GSTIN, saved at once. */
export function FamilyGstDialog({
  family,
  centreState,
  onClose,
}: {
  family: GstFamily;
  centreState: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('fees');
  const save = useSetFamilyGstDetails(family.family_id);
  const [choice, setChoice] = useState(
    family.state_code === null || family.state_code === centreState ? CENTRE : family.state_code,
  );
  const [name, setName] = useState(family.billing_name ?? '');
  const [address, setAddress] = useState(family.billing_address ?? '');
  const [gstin, setGstin] = useState(family.billing_gstin ?? '');
  const others = Object.keys(GST_STATES)
    .filter((code) => code !== centreState)
    .sort((a, b) => (GST_STATES[a] ?? a).localeCompare(GST_STATES[b] ?? b));
  const changeGstin = (value: string) => {
    const typed = value.toUpperCase();
    setGstin(typed);
    // A registered payer's place of supply is its GSTIN's state.
    const state = typed.trim().slice(0, 2);
    if (/^[0-9A-Z]{15}$/.test(typed.trim()) && GST_STATES[state]) setChoice(state === centreState ? CENTRE : state);
  };
  const submit = () =>
    save.mutate(
      {
        state_code: choice === CENTRE ? null : choice,
        billing_name: name.trim() || null,
        billing_address: address.trim() || null,
        billing_gstin: gstin.trim() || null,
      },
      { onSuccess: () => onClose() },
    );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="family-gst-title">
      <DialogTitle id="family-gst-title">{t('familyState.title', { name: family.parent_name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            fullWidth
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
          <TextField
            fullWidth
            label={t('familyState.name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            helperText={t('familyState.nameHint', { name: family.parent_name })}
            slotProps={{ htmlInput: { maxLength: 120 } }}
          />
          <TextField
            fullWidth
            multiline
            minRows={2}
            label={t('familyState.address')}
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            helperText={t('familyState.addressHint')}
            slotProps={{ htmlInput: { maxLength: 300 } }}
          />
          <TextField
            fullWidth
            label={t('familyState.gstin')}
            value={gstin}
            onChange={(event) => changeGstin(event.target.value)}
            helperText={t('familyState.gstinHint')}
            autoComplete="off"
            slotProps={{ htmlInput: { maxLength: 20, dir: 'ltr', spellCheck: false } }}
          />
          {save.isError && <Alert severity="error">{errorText(save.error, t('familyState.saveFailed'))}</Alert>}
        </Stack>
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

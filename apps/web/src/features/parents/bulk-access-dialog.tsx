import GroupsIcon from '@mui/icons-material/Groups';
import PrintIcon from '@mui/icons-material/Print';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  InputLabel,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Select,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { AccessSlips } from './access-slips';
import { useBulkParentAccess, useClassChoices } from './api';
import { WhatsappShareLink } from './share-link';

/**
 * Parent-app codes for a whole class (issue 28, item 6; ADR 047): choose the class, issue, then print
 * the slips (eight to an A4 page) or send each family its link on WhatsApp from your own phone. The
 * codes are shown once, so the dialog closes only on Done.
 */
export function BulkAccessDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('parents');
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const classes = useClassChoices(true);
  const issue = useBulkParentAccess();
  const [className, setClassName] = useState('');
  const [regenerate, setRegenerate] = useState(false);
  const result = issue.data;
  const origin = window.location.origin;

  return (
    <Dialog
      open
      onClose={result ? () => undefined : onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      aria-labelledby="bulk-access-title"
    >
      <DialogTitle id="bulk-access-title">{t('bulk.title')}</DialogTitle>
      <DialogContent>
        {!result && (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">{t('bulk.intro')}</Typography>
            <FormControl fullWidth>
              <InputLabel id="bulk-class-label">{t('bulk.class')}</InputLabel>
              <Select
                labelId="bulk-class-label"
                label={t('bulk.class')}
                value={className}
                onChange={(event) => setClassName(event.target.value)}
              >
                {(classes.data ?? []).map((option) => (
                  <MenuItem key={option.value} value={option.value}>
                    {option.label}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <FormControlLabel
              control={<Checkbox checked={regenerate} onChange={(event) => setRegenerate(event.target.checked)} />}
              label={t('bulk.regenerate')}
            />
            {regenerate && <Alert severity="warning">{t('bulk.regenerateWarning')}</Alert>}
            {issue.isError && <Alert severity="error">{errorText(issue.error, t('bulk.failed'))}</Alert>}
          </Stack>
        )}
        {result && (
          <Stack spacing={2}>
            <Alert severity={result.issued.length > 0 ? 'success' : 'info'}>
              {t('bulk.done', { issued: result.issued.length, skipped: result.skipped.length })}
            </Alert>
            {result.issued.length > 0 && <Alert severity="warning">{t('bulk.onceOnly')}</Alert>}
            <List dense disablePadding aria-label={t('bulk.families')}>
              {result.issued.map((family) => (
                <ListItem key={family.phone} disableGutters divider>
                  <ListItemText
                    primary={family.parent_name}
                    secondary={
                      <>
                        <span dir="ltr">{family.phone}</span> · {family.children.join(', ')} ·{' '}
                        <span dir="ltr" style={{ fontFamily: 'monospace' }}>
                          {family.code}
                        </span>
                      </>
                    }
                  />
                  <WhatsappShareLink
                    family={{ ...family, share_text: family.slip.share_text }}
                    sx={{ flexShrink: 0, ml: 1 }}
                  />
                </ListItem>
              ))}
            </List>
            {result.skipped.length > 0 && (
              <Box>
                <Typography variant="subtitle2" component="h3">
                  {t('bulk.skippedTitle')}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {result.skipped.map((family) => family.parent_name).join(', ')}
                </Typography>
              </Box>
            )}
            <AccessSlips families={result.issued} origin={origin} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        {!result && (
          <>
            <Button onClick={onClose}>{t('bulk.cancel')}</Button>
            <Button
              variant="contained"
              onClick={() => issue.mutate({ class_name: className, regenerate })}
              disabled={!className || issue.isPending}
            >
              {issue.isPending ? t('bulk.issuing') : t('bulk.issue')}
            </Button>
          </>
        )}
        {result && (
          <>
            {result.issued.length > 0 && (
              <Button startIcon={<PrintIcon />} onClick={() => window.print()}>
                {t('bulk.print')}
              </Button>
            )}
            <Button variant="contained" onClick={onClose}>
              {t('bulk.close')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** The button the Students screen places for admins: codes for a class. */
export function BulkAccessButton() {
  const { t } = useTranslation('parents');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" startIcon={<GroupsIcon />} onClick={() => setOpen(true)}>
        {t('bulk.open')}
      </Button>
      {open && <BulkAccessDialog onClose={() => setOpen(false)} />}
    </>
  );
}

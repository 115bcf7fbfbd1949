import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Skeleton,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { type MarkingRules, TEACHER_MARK_DAYS_BACK_MAX } from '@tuitiondesk/contract';
import { useState } from 'react';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useMarkingRules, useUpdateMarkingRules } from './api';

export const DAYS_BACK_LABEL = 'Days back a teacher may mark';
export const ANY_CLASS_LABEL = 'Any teacher may mark any class';
const DAYS_BACK_PROBLEM = `Enter a whole number from 0 to ${TEACHER_MARK_DAYS_BACK_MAX}`;

/** The number typed, when it is one the server accepts. */
export function parseDaysBack(text: string): number | undefined {
  if (!/^\d{1,2}$/.test(text.trim())) return undefined;
  const days = Number(text.trim());
  return days <= TEACHER_MARK_DAYS_BACK_MAX ? days : undefined;
}

function RulesForm({ rules, onClose }: { rules: MarkingRules; onClose: () => void }) {
  const { showToast } = useToast();
  const update = useUpdateMarkingRules();
  const [daysBack, setDaysBack] = useState(String(rules.teacher_mark_days_back));
  const [anyClass, setAnyClass] = useState(rules.teachers_mark_any_class);
  const [touched, setTouched] = useState(false);
  const days = parseDaysBack(daysBack);
  const showProblem = touched && days === undefined;

  const save = () => {
    setTouched(true);
    if (days === undefined) return;
    update.mutate(
      { teacher_mark_days_back: days, teachers_mark_any_class: anyClass },
      {
        onSuccess: () => {
          showToast('Marking rules saved', 'success');
          onClose();
        },
      },
    );
  };

  return (
    <>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            Teachers mark attendance for the classes assigned to them on the Teachers screen, for today and a few days
            back. Admins can mark any class on any earlier day.
          </Typography>
          <TextField
            label={DAYS_BACK_LABEL}
            value={daysBack}
            onChange={(event) => setDaysBack(event.target.value)}
            onBlur={() => setTouched(true)}
            error={showProblem}
            helperText={showProblem ? DAYS_BACK_PROBLEM : '0 means today only.'}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 2 } }}
            size="small"
            sx={{ maxWidth: 260 }}
          />
          <FormControlLabel
            sx={{ m: 0, gap: 1, alignItems: 'flex-start' }}
            control={<Switch checked={anyClass} onChange={(_event, next) => setAnyClass(next)} />}
            label={
              <span>
                <Typography component="span" sx={{ display: 'block' }}>
                  {ANY_CLASS_LABEL}
                </Typography>
                <Typography component="span" variant="body2" color="text.secondary">
                  When off, each teacher marks only their own classes.
                </Typography>
              </span>
            }
          />
          {update.isError && <Alert severity="error">{errorText(update.error, 'Failed to save marking rules')}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={save}
          disabled={update.isPending}
          startIcon={update.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
        >
          Save
        </Button>
      </DialogActions>
    </>
  );
}

/** Admins only: the centre's two marking rules (ADR 019). */
export function MarkingRulesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const rules = useMarkingRules(open);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="marking-rules-title">
      <DialogTitle id="marking-rules-title">Marking rules</DialogTitle>
      {rules.isSuccess ? (
        // Keyed by the rules: opened again after a change, the form starts from what is saved.
        <RulesForm key={JSON.stringify(rules.data)} rules={rules.data} onClose={onClose} />
      ) : (
        <DialogContent>
          {rules.isError ? (
            <Alert severity="error">{errorText(rules.error, 'Failed to load marking rules')}</Alert>
          ) : (
            <Stack spacing={2} sx={{ pt: 1 }} aria-busy>
              <Skeleton height={40} />
              <Skeleton height={40} />
            </Stack>
          )}
        </DialogContent>
      )}
    </Dialog>
  );
}

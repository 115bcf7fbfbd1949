import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  FEE_DISCOUNT_MODES,
  type FeeDiscountMode,
  type FeeDiscounts,
  type UpdateFeeDiscountsRequest,
} from '@tuitiondesk/contract';
import { useState } from 'react';
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatMoney, paiseToInput, parseRupees } from '../../lib/money';
import { StudentPicker } from './student-picker';

type Rule = FeeDiscounts['sibling'];
type RuleName = 'sibling' | 'staff_child';

interface RuleDraft {
  mode: FeeDiscountMode;
  value: string;
}

const draftOf = (rule: Rule): RuleDraft => ({
  mode: rule.mode,
  value: rule.mode === 'flat' ? paiseToInput(rule.value) : rule.mode === 'percent' ? String(rule.value) : '',
});

/** A rule as one line says it: "10% off", "₹500.00 off", "None". */
export function ruleText(t: TFunction<'feePlans'>, rule: Rule): string {
  if (rule.mode === 'percent') return t('discounts.percentOff', { value: rule.value });
  if (rule.mode === 'flat') return t('discounts.flatOff', { amount: formatMoney(rule.value) });
  return t('discounts.none');
}

/** The draft as the server takes it, or the text of what to fix. */
function ruleFrom(t: TFunction<'feePlans'>, draft: RuleDraft): { rule: Rule } | { problem: string } {
  if (draft.mode === 'none') return { rule: { mode: 'none', value: 0 } };
  if (draft.mode === 'percent') {
    const value = Number(draft.value.trim());
    if (!/^\d+$/.test(draft.value.trim()) || value < 1 || value > 100) return { problem: t('discounts.percentRange') };
    return { rule: { mode: 'percent', value } };
  }
  const parsed = parseRupees(draft.value);
  return parsed.problem ? { problem: t(`money.${parsed.problem}`) } : { rule: { mode: 'flat', value: parsed.paise } };
}

function RuleFields({
  name,
  draft,
  problem,
  onChange,
}: {
  name: RuleName;
  draft: RuleDraft;
  problem: string | undefined;
  onChange: (draft: RuleDraft) => void;
}) {
  const { t } = useTranslation('feePlans');
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextField
        select
        label={t(`discounts.${name}Mode`)}
        value={draft.mode}
        onChange={(event) => onChange({ mode: event.target.value as FeeDiscountMode, value: '' })}
        sx={{ flex: 1 }}
      >
        {FEE_DISCOUNT_MODES.map((mode) => (
          <MenuItem key={mode} value={mode}>
            {t(`discounts.mode.${mode}`)}
          </MenuItem>
        ))}
      </TextField>
      {draft.mode !== 'none' && (
        <TextField
          label={t(draft.mode === 'percent' ? `discounts.${name}Percent` : `discounts.${name}Flat`)}
          value={draft.value}
          onChange={(event) => onChange({ ...draft, value: event.target.value })}
          error={problem !== undefined}
          helperText={problem ?? (draft.mode === 'percent' ? t('discounts.percentHint') : t('money.hint'))}
          slotProps={{
            input:
              draft.mode === 'percent'
                ? { endAdornment: <InputAdornment position="end">%</InputAdornment> }
                : { startAdornment: <InputAdornment position="start">₹</InputAdornment> },
            htmlInput: { inputMode: draft.mode === 'percent' ? 'numeric' : 'decimal' },
          }}
          sx={{ flex: 1 }}
        />
      )}
    </Stack>
  );
}

/**
 * The family-link discounts on tuition (ADR 052): one for a family's second, third… child, one for
 * the children of the centre's staff, picked by search. From the next charge run.
 */
export function DiscountDialog({
  discounts,
  saving,
  error,
  onCancel,
  onSave,
}: {
  discounts: FeeDiscounts;
  saving: boolean;
  error: unknown;
  onCancel: () => void;
  onSave: (body: UpdateFeeDiscountsRequest) => void;
}) {
  const { t } = useTranslation('feePlans');
  const [sibling, setSibling] = useState(() => draftOf(discounts.sibling));
  const [staff, setStaff] = useState(() => draftOf(discounts.staff_child));
  const [staffIds, setStaffIds] = useState<number[]>(discounts.staff_child_ids);
  const [checked, setChecked] = useState(false);
  const siblingRule = ruleFrom(t, sibling);
  const staffRule = ruleFrom(t, staff);
  const problem = (rule: ReturnType<typeof ruleFrom>) => (checked && 'problem' in rule ? rule.problem : undefined);

  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="sm">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setChecked(true);
          if ('rule' in siblingRule && 'rule' in staffRule)
            onSave({ sibling: siblingRule.rule, staff_child: staffRule.rule, staff_child_ids: staffIds });
        }}
      >
        <DialogTitle>{t('discounts.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {error ? <Alert severity="error">{errorText(error, t('discounts.saveFailed'))}</Alert> : null}
            <Typography variant="body2" color="text.secondary">
              {t('discounts.explain')}
            </Typography>
            <RuleFields name="sibling" draft={sibling} problem={problem(siblingRule)} onChange={setSibling} />
            <RuleFields name="staff_child" draft={staff} problem={problem(staffRule)} onChange={setStaff} />
            <StudentPicker
              value={staffIds}
              onChange={setStaffIds}
              label={t('discounts.staffChildren')}
              hint={t('discounts.staffChildrenHint')}
              optionText={(student) => t('discounts.studentOption', { name: student.full_name, id: student.unique_id })}
              offersLeft
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{t('dialog.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {t('dialog.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

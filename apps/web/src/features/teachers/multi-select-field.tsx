import { Box, Checkbox, Chip, ListItemText, MenuItem, TextField } from '@mui/material';

export interface SelectOption {
  value: string;
  label: string;
}

function asList(value: unknown): string[] {
  // Browser autofill hands a multiple select a comma-separated string.
  return typeof value === 'string' ? value.split(',').filter(Boolean) : (value as string[]);
}

/** A required select of several options: a checkbox beside each option, the chosen ones shown as chips. */
export function MultiSelectField({
  label,
  options,
  value,
  onChange,
  chipLabel,
  helperText,
  disabled = false,
}: {
  label: string;
  options: readonly SelectOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  /** What a chosen value's chip says. */
  chipLabel: (value: string) => string;
  helperText: string;
  disabled?: boolean;
}) {
  return (
    <TextField
      select
      label={label}
      required
      fullWidth
      disabled={disabled}
      helperText={helperText}
      value={value}
      onChange={(event) => onChange(asList(event.target.value))}
      slotProps={{
        select: {
          multiple: true,
          renderValue: (chosen) => (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {(chosen as string[]).map((item) => (
                <Chip key={item} label={chipLabel(item)} size="small" />
              ))}
            </Box>
          ),
        },
      }}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          <Checkbox checked={value.includes(option.value)} size="small" sx={{ p: 0.5, mr: 1 }} />
          <ListItemText primary={option.label} />
        </MenuItem>
      ))}
    </TextField>
  );
}

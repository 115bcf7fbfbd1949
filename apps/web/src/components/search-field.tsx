import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, type SxProps, TextField, type Theme } from '@mui/material';

interface SearchFieldProps {
  label: string;
  value: string;
  /** The text as typed. */
  onChange: (text: string) => void;
  placeholder?: string;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
}

/** A small search field with a magnifier in front. */
export function SearchField({ label, value, onChange, placeholder, fullWidth, sx }: SearchFieldProps) {
  return (
    <TextField
      type="search"
      size="small"
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      fullWidth={fullWidth}
      sx={sx}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

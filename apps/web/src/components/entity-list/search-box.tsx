import { Box } from '@mui/material';
import { SearchField } from '../search-field';

/** The list's search field, above the rows; on phones it takes the whole width. */
export function SearchBox({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Box sx={{ p: 2 }}>
      <SearchField
        label={label}
        placeholder={placeholder}
        value={value}
        onChange={onChange}
        fullWidth
        sx={{ maxWidth: { sm: 480 } }}
      />
    </Box>
  );
}

import { Avatar, Box, Stack, Typography } from '@mui/material';

/** `Asha Rao` → `AR`; one word gives one letter, nothing gives `?`. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '?';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

/**
 * A person's name as a list's first column: their initials in a coloured circle (left out on phones,
 * where the width goes to the name), the name, and a line of detail under it when there is one.
 */
export function NameCell({
  name,
  detail,
  colour,
}: {
  name: string;
  detail?: string;
  colour: 'primary.main' | 'secondary.main';
}) {
  return (
    <Stack direction="row" spacing={1.5} useFlexGap sx={{ alignItems: 'center' }}>
      <Avatar
        sx={{ width: 32, height: 32, fontSize: 14, bgcolor: colour, display: { xs: 'none', sm: 'flex' } }}
        aria-hidden
      >
        {initialsOf(name)}
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {name}
        </Typography>
        {detail && (
          <Typography variant="caption" color="text.secondary">
            {detail}
          </Typography>
        )}
      </Box>
    </Stack>
  );
}

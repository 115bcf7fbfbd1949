import { Typography } from '@mui/material';

// Replaced by the screen itself (issue 3, in progress).
export default function Page() {
  return <Typography color="text.secondary">This screen is being built.</Typography>;
}

import { Typography } from '@mui/material';
import { Fragment } from 'react';

/**
 * `asha.rao@example.org` as pieces a line may end between: after the @ and before each dot, the
 * places people break an address by hand. Never inside a piece.
 */
export function emailPieces(email: string): string[] {
  return email.split(/(?<=@)|(?=\.)/).filter(Boolean);
}

/**
 * An email address in a narrow column or a phone's card: it wraps only after the @ or before a dot,
 * so no name is cut in two ("asha.r / ao@…"). `break-word` (unlike `anywhere`) leaves the column as
 * wide as the longest piece, and cuts a piece only when one alone is wider than the whole screen.
 */
export function EmailAddress({ email }: { email: string }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'break-word' }} data-email={email}>
      {emailPieces(email).map((piece, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: pieces may repeat (".com" twice), and never move
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
    </Typography>
  );
}

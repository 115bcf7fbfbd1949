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
 * so no name is cut in two ("asha.r / ao@…"). Each piece keeps to one line, hyphens included: a line
 * ending in "tuition-" would read as a word hyphenated by the page, not as part of the address. The
 * column stays as wide as the longest piece (`overflow-wrap: anywhere` let it shrink to a few letters).
 */
export function EmailAddress({ email }: { email: string }) {
  return (
    <Typography variant="body2" color="text.secondary" data-email={email}>
      {emailPieces(email).map((piece, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: pieces may repeat (".com" twice), and never move
        <Fragment key={index}>
          {index > 0 && <wbr />}
          <span style={{ whiteSpace: 'nowrap' }}>{piece}</span>
        </Fragment>
      ))}
    </Typography>
  );
}

import { Box, type SxProps, type Theme } from '@mui/material';
import { Fragment, type ReactNode } from 'react';

/**
 * Data inside text that may read right to left (Urdu, ADR 048). Two rules, one place:
 *
 * - A phone number, a student ID, an access code or a count written with its sign reads left to right
 *   whatever the page's direction: `+918615895219`, never `918615895219+`. It is isolated (`<bdi
 *   dir="ltr">`, `unicode-bidi: isolate`), so neither the text around it reorders it nor it the text.
 * - A name takes its own direction from its first letter (`dir="auto"`), so a long one is cut at its
 *   END with an ellipsis ("Priya Saxe…", not "…ya Saxena"). It still lines up with the page's start:
 *   `text-align: left` is written, and the right-to-left style cache turns it into `right` in Urdu.
 *
 * The direction is set by the `dir` attribute, never by a style: the right-to-left style cache turns
 * `direction: ltr` into `rtl` (a browser test caught it). `LTR_DATA_SX` and `NAME_SX` go with that
 * attribute wherever the components themselves cannot.
 */
export const LTR_DATA_SX = { unicodeBidi: 'isolate' } as const;

export const NAME_SX = {
  display: 'block',
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  textAlign: 'left',
  unicodeBidi: 'isolate',
} as const;

/** A phone, an ID, a code: left to right inside any text. */
export function LtrText({ children, sx }: { children: ReactNode; sx?: SxProps<Theme> }) {
  return (
    <Box component="bdi" dir="ltr" className="ltr-data" sx={[LTR_DATA_SX, ...(Array.isArray(sx) ? sx : [sx])]}>
      {children}
    </Box>
  );
}

/** A person's name on one line, cut at its end when it does not fit, in either direction. */
export function NameText({ children, sx, title }: { children: string; sx?: SxProps<Theme>; title?: string }) {
  return (
    <Box
      component="span"
      dir="auto"
      className="name-text"
      title={title}
      sx={[NAME_SX, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {children}
    </Box>
  );
}

/**
 * A translated sentence with data in it, each piece of data its own element (`LtrText`, `<bdi>`), so
 * that it is isolated inside the language's words: `text` is given a stand-in for each placeholder
 * (characters of Unicode's private use area, which no catalogue holds) and the stand-ins are then
 * replaced by `data`'s elements.
 */
export function DataSentence<Name extends string>({
  text,
  data,
}: {
  text: (stand: Record<Name, string>) => string;
  data: Record<Name, ReactNode>;
}) {
  const names = Object.keys(data) as Name[];
  const stand = Object.fromEntries(names.map((name, index) => [name, String.fromCharCode(0xe000 + index)])) as Record<
    Name,
    string
  >;
  const byStand = new Map(names.map((name, index) => [String.fromCharCode(0xe000 + index), data[name]]));
  return (
    <>
      {text(stand)
        .split(/([\uE000-\uE0FF])/)
        .map((piece, index) =>
          // A fixed split of one sentence: a piece's place is its identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces never move
          byStand.has(piece) ? <Fragment key={index}>{byStand.get(piece)}</Fragment> : piece,
        )}
    </>
  );
}

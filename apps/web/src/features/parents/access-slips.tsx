import { GlobalStyles } from '@mui/material';
import type { BulkParentAccessResult } from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { signInLinkFor } from './share-link';

export type IssuedFamily = BulkParentAccessResult['issued'][number];

const SLIPS_CLASS = 'parent-access-slips';

/** The parent app's sign-in link for a family's code: the code rides in the fragment, never in a request. */
export function familyLink(origin: string, family: IssuedFamily): string {
  return signInLinkFor(origin, family.phone, family.code);
}

/** Each family's link as a QR code (SVG data URLs), drawn by the encoder two-factor sign-in already uses. */
function useQrCodes(links: readonly string[]): Record<string, string> {
  const [codes, setCodes] = useState<Record<string, string>>({});
  useEffect(() => {
    let current = true;
    import('qrcode')
      .then(async (QRCode) => {
        const drawn: Record<string, string> = {};
        for (const link of links) {
          const svg = await QRCode.toString(link, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' });
          drawn[link] = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
        }
        if (current) setCodes(drawn);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [links]);
  return codes;
}

const slipStyle = {
  border: '1px dashed #555',
  padding: '4mm',
  boxSizing: 'border-box' as const,
  height: '68mm',
  overflow: 'hidden',
  breakInside: 'avoid' as const,
  display: 'grid',
  gridTemplateColumns: '30mm 1fr',
  columnGap: '4mm',
  alignContent: 'start',
  fontFamily: 'Arial, Helvetica, "Noto Sans", sans-serif',
  color: '#000',
};

/**
 * The slips, printed alone (A4, eight a page: two columns of four, cut along the dashed lines); on
 * screen they are hidden. Each slip is in its family's language and direction.
 */
export function AccessSlips({ families, origin }: { families: readonly IssuedFamily[]; origin: string }) {
  const links = families.map((family) => familyLink(origin, family));
  const [stableLinks] = useState(() => links);
  const qr = useQrCodes(stableLinks);
  return createPortal(
    <div className={SLIPS_CLASS} data-testid="access-slips">
      <GlobalStyles
        styles={{
          '@media screen': { [`.${SLIPS_CLASS}`]: { display: 'none' } },
          '@media print': {
            '@page': { size: 'A4', margin: '10mm' },
            [`body > *:not(.${SLIPS_CLASS})`]: { display: 'none !important' },
            [`.${SLIPS_CLASS}`]: { display: 'grid !important' },
          },
          [`.${SLIPS_CLASS}`]: { gridTemplateColumns: '1fr 1fr', gridAutoRows: '68mm', gap: '1.5mm' },
        }}
      />
      {families.map((family, index) => {
        const link = links[index] as string;
        return (
          <section
            key={family.phone}
            lang={family.language}
            dir={family.language === 'ur' ? 'rtl' : 'ltr'}
            style={slipStyle}
            aria-label={family.parent_name}
          >
            <div style={{ gridColumn: '1 / -1', fontSize: 13, fontWeight: 700, marginBottom: '2mm' }}>
              {family.slip.title}
            </div>
            <div>
              {qr[link] && <img src={qr[link]} alt="" style={{ width: '30mm', height: '30mm', display: 'block' }} />}
              <div
                dir="ltr"
                style={{
                  fontFamily: 'ui-monospace, Menlo, Consolas, monospace',
                  fontSize: 15,
                  fontWeight: 700,
                  marginTop: '2mm',
                  textAlign: 'center',
                }}
              >
                {family.code}
              </div>
            </div>
            <div style={{ fontSize: 10, lineHeight: 1.35 }}>
              <div style={{ fontWeight: 600, marginBottom: '1mm' }}>{family.children.join(', ')}</div>
              <ol style={{ margin: 0, paddingInlineStart: '4mm' }}>
                {family.slip.steps.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ol>
            </div>
            <div dir="ltr" style={{ gridColumn: '1 / -1', fontSize: 7, wordBreak: 'break-all', marginTop: '1mm' }}>
              {link}
            </div>
          </section>
        );
      })}
    </div>,
    document.body,
  );
}

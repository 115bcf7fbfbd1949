import type { FastifyReply, FastifyRequest } from 'fastify';

/** The client asks for the PDF: `Accept` names application/pdf (not with q=0); JSON stays the default. */
function wantsPdf(accept: string | undefined): boolean {
  return (accept ?? '')
    .split(',')
    .some((part) => part.split(';')[0]?.trim().toLowerCase() === 'application/pdf' && !/;\s*q=0(\.0*)?\s*$/.test(part));
}

/**
 * A receipt as the client asked for it, for staff and parents alike: the PDF as an attachment named
 * after the receipt number, never kept by a cache, or else its JSON.
 */
export async function answerReceipt<Receipt>(
  request: FastifyRequest,
  reply: FastifyReply,
  receipt: { pdf: () => Promise<{ pdf: Buffer; filename: string }>; json: () => Promise<Receipt> },
): Promise<Receipt> {
  if (!wantsPdf(request.headers.accept)) return receipt.json();
  const { pdf, filename } = await receipt.pdf();
  return (
    reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      // A Buffer is sent as it is: the JSON schema of 200 describes the default answer only.
      .send(pdf) as never
  );
}

import { describe, expect, it, vi } from 'vitest';
import { testClientForBlock } from './helpers/client';
import { day, feeFamily, pay, postCharge } from './helpers/fees-ledger';

/**
 * The fee reports as versioned answers (migration 0037, ADR 024): an unchanged report is a 304, and
 * every change that alters one (a payment, a charge, a reversal, a renamed child, a new phone) gives
 * the new figures at once, never a kept answer of before.
 */
const api = testClientForBlock();
const admin = () => api().as('admin');

async function read(url: string, etag?: string) {
  const response = await admin().get(url, etag ? { headers: { 'if-none-match': etag } } : undefined);
  return { status: response.statusCode, etag: response.headers.etag as string | undefined, body: response.body };
}

describe('the fee reports', () => {
  it('answer 304 while nothing changed, and the new figures after each change', async () => {
    const family = await feeFamily(api(), 2, 'Versioned Parent');
    const [first, second] = family.children as [number, number];
    await postCharge(api().db, family.familyId, first, 120_000, day(-40));
    await postCharge(api().db, family.familyId, second, 80_000, day(-5));
    const urls = [
      '/api/v1/fees/dues',
      '/api/v1/fees/ageing',
      '/api/v1/fees/collections?period=today',
      `/api/v1/fees/families/${family.familyId}`,
      `/api/v1/fees/families/${family.familyId}/statement`,
    ];
    const tags = new Map<string, string>();
    for (const url of urls) {
      const answer = await read(url);
      expect(answer.status, url).toBe(200);
      expect(answer.etag, url).toBeTruthy();
      tags.set(url, answer.etag as string);
      expect((await read(url, answer.etag)).status, url).toBe(304);
    }

    // A payment changes every one of them.
    const payment = await pay(api(), family.familyId, 50_000);
    for (const url of urls) {
      const answer = await read(url, tags.get(url));
      expect(answer.status, url).toBe(200);
      tags.set(url, answer.etag as string);
    }
    const dues = JSON.parse((await read('/api/v1/fees/dues')).body) as { family_id: number; balance_paise: number }[];
    expect(dues.find((due) => due.family_id === family.familyId)?.balance_paise).toBe(150_000);
    const collected = JSON.parse((await read('/api/v1/fees/collections?period=today')).body) as {
      amount_paise: number;
    };
    expect(collected.amount_paise).toBe(50_000);

    // A reversal: the statement and the dues move back at once.
    const reversed = await admin().post(`/api/v1/fees/payments/${payment.payment_id}/reverse`, { reason: 'Mistake' });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const statement = await read(`/api/v1/fees/families/${family.familyId}/statement`, tags.get(urls[4] as string));
    expect(statement.status).toBe(200);
    expect((JSON.parse(statement.body) as { balance_paise: number }).balance_paise).toBe(200_000);

    // A child renamed: the dues name the child anew (the students' version names the answer too).
    const dueTag = (await read('/api/v1/fees/dues')).etag;
    const renamed = await admin().put(`/api/v1/students/${first}`, { full_name: 'Renamed Child' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = await read('/api/v1/fees/dues', dueTag);
    expect(after.status).toBe(200);
    expect(after.body).toContain('Renamed Child');
  });

  it('send an unchanged report compressed from what was kept, without adding up the ledger again', async () => {
    // Over 16 KB of text: a large answer, whose text is not kept on the embedded database (ADR 024).
    for (let i = 0; i < 90; i += 1) {
      const family = await feeFamily(api(), 1, `Kept Parent ${i}`);
      await postCharge(api().db, family.familyId, family.children[0] ?? null, 10_000 + i, day(-3));
    }
    const ask = () => admin().get('/api/v1/fees/dues', { headers: { 'accept-encoding': 'gzip' } });
    const first = await ask();
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('gzip');
    const reads = vi.spyOn(api().ctx.db, 'query');
    try {
      const second = await ask();
      expect(second.statusCode).toBe(200);
      expect(second.headers['content-encoding']).toBe('gzip');
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(reads.mock.calls.filter(([sql]) => String(sql).includes('ledger_entries'))).toEqual([]);
    } finally {
      reads.mockRestore();
    }
  });

  it('is refused to teachers before anything is read or kept', async () => {
    const response = await api().as('teacher').get('/api/v1/fees/dues');
    expect(response.statusCode).toBe(403);
  });
});

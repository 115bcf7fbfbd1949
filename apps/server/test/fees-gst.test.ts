import { GST_SAC, gstinProblem } from '@tuitiondesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitInclusiveAmount } from '../src/modules/fees/gst';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { feeFamily, pay } from './helpers/fees-ledger';
import { detailOf } from './helpers/test-app';

/**
 * GST (ADR 057): the settings an admin keeps (GSTIN checked to its check character, the rate), and
 * the tax invoice a registered centre's payment gets, its figures fixed when the payment is recorded.
 */
let api: TestClient;
let admin: Caller;
beforeAll(async () => {
  api = await testClient();
  admin = api.as('admin');
});
afterAll(async () => {
  await api?.close();
});

const VALID_GSTIN = '27AAPFU0939F1ZV';

async function setGst(body: Record<string, unknown>) {
  const response = await admin.put('/api/v1/fees/gst', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function receiptOf(paymentId: number) {
  const response = await admin.get(`/api/v1/fees/receipts/${paymentId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    document: string;
    amount_paise: number;
    tax: null | {
      gstin: string;
      state_code: string;
      state_name: string;
      sac: string;
      rate_basis_points: number;
      taxable_paise: number;
      cgst_paise: number;
      sgst_paise: number;
      igst_paise: number;
      place_of_supply_code: string;
      place_of_supply_name: string;
    };
  };
}

describe('the tax inside a fee (GST included)', () => {
  it('splits ₹1,180.00 at 18 % into ₹1,000.00 taxable and ₹90.00 each of CGST and SGST', () => {
    expect(splitInclusiveAmount(118_000, 1800)).toEqual({
      taxable_paise: 100_000,
      cgst_paise: 9_000,
      sgst_paise: 9_000,
      igst_paise: 0,
    });
    expect(splitInclusiveAmount(118_000, 1800, true)).toEqual({
      taxable_paise: 100_000,
      cgst_paise: 0,
      sgst_paise: 0,
      igst_paise: 18_000,
    });
  });

  it('always adds up to the amount, in whole paise, with CGST equal to SGST', () => {
    for (const rate of [500, 1200, 1800, 2800, 4000]) {
      for (let amount = 1; amount < 200_000; amount += 997) {
        const intra = splitInclusiveAmount(amount, rate);
        expect(intra.taxable_paise + intra.cgst_paise + intra.sgst_paise).toBe(amount);
        expect(intra.cgst_paise).toBe(intra.sgst_paise);
        expect(Number.isInteger(intra.taxable_paise) && intra.taxable_paise >= 0).toBe(true);
        // Each half is the rounded half of the tax an exact split would give.
        const exactHalf = (amount * rate) / (2 * (10_000 + rate));
        expect(Math.abs(intra.cgst_paise - exactHalf)).toBeLessThanOrEqual(0.5);
        const inter = splitInclusiveAmount(amount, rate, true);
        expect(inter.taxable_paise + inter.igst_paise).toBe(amount);
      }
    }
    // ₹1,250.00 at 18 %: 1059.32 taxable, 95.34 + 95.34.
    expect(splitInclusiveAmount(125_000, 1800)).toMatchObject({ taxable_paise: 105_932, cgst_paise: 9_534 });
  });

  it('checks a GSTIN to its check character', () => {
    expect(gstinProblem(VALID_GSTIN)).toBeNull();
    expect(gstinProblem('29AAGCB7383J1Z4')).toBeNull();
    expect(gstinProblem('27AAPFU0939F1ZW')).toMatch(/check character/);
    expect(gstinProblem('27AAPFU0939F1Z')).toMatch(/15 characters/);
    expect(gstinProblem('2AAAPFU0939F1ZV')).toMatch(/PAN/);
    expect(gstinProblem('99AAPFU0939F1ZV')).toMatch(/no state code/);
  });
});

describe('the GST settings', () => {
  it('start unregistered, SAC 999293 at 18 %, fees including GST', async () => {
    const response = await admin.get('/api/v1/fees/gst');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      registered: false,
      gstin: null,
      state_code: null,
      state_name: null,
      sac: GST_SAC,
      rate_basis_points: 1800,
      prices_include_gst: true,
    });
  });

  it('refuse a wrong GSTIN, a registration without one and a rate out of range, with the field to fix, and keep what was', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ registered: true, gstin: '27AAPFU0939F1ZW' }, 'gstin', /check character/],
      [{ registered: true, gstin: 'not a gstin' }, 'gstin', /15 characters/],
      [{ registered: true }, 'gstin', /required for a registered centre/],
      [{ registered: true, gstin: null }, 'gstin', /required for a registered centre/],
      [{ registered: true, gstin: VALID_GSTIN, rate_basis_points: 0 }, 'rate_basis_points', /more than 0/],
      [{ registered: true, gstin: VALID_GSTIN, rate_basis_points: 4001 }, 'rate_basis_points', /at most 4000/],
      [{ registered: true, gstin: VALID_GSTIN, rate_basis_points: 18.5 }, 'rate_basis_points', /whole number/],
      [{ registered: 'yes', gstin: VALID_GSTIN }, 'registered', /true or false/],
    ];
    for (const [body, field, words] of cases) {
      const response = await admin.put('/api/v1/fees/gst', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(detailOf(response), JSON.stringify(body)).toContain(field);
      expect(detailOf(response), JSON.stringify(body)).toMatch(words);
    }
    expect((await admin.get('/api/v1/fees/gst')).json()).toMatchObject({ registered: false, gstin: null });
  });

  it('are for admins only', async () => {
    const teacher = api.as('teacher');
    expect((await teacher.get('/api/v1/fees/gst')).statusCode).toBe(403);
    expect((await teacher.put('/api/v1/fees/gst', { registered: false })).statusCode).toBe(403);
  });

  it('take a GSTIN written in lower case with spaces, name its state, and are audited', async () => {
    const saved = await setGst({ registered: true, gstin: ' 27aapfu0939f1zv ', rate_basis_points: 1800 });
    expect(saved).toMatchObject({ registered: true, gstin: VALID_GSTIN, state_code: '27', state_name: 'Maharashtra' });
    const [row] = await api.db.query<{ after: Record<string, unknown> }>(
      "SELECT after FROM audit_log WHERE entity = 'fee_gst_settings' ORDER BY id DESC LIMIT 1",
    );
    expect(row?.after).toMatchObject({ registered: true, gstin: VALID_GSTIN });
    await setGst({ registered: false, gstin: null });
  });
});

describe("a registered centre's receipts", () => {
  it('are tax invoices with CGST and SGST, fixed at the moment of payment whatever the settings become', async () => {
    await setGst({ registered: false, gstin: null });
    const family = await feeFamily(api, 1);
    const plain = await pay(api, family.familyId, 118_000);
    expect(await receiptOf(plain.payment_id)).toMatchObject({ document: 'receipt', tax: null });

    await setGst({ registered: true, gstin: VALID_GSTIN, rate_basis_points: 1800 });
    const taxed = await pay(api, family.familyId, 118_000);
    const invoice = await receiptOf(taxed.payment_id);
    expect(invoice).toMatchObject({
      document: 'tax_invoice',
      amount_paise: 118_000,
      tax: {
        gstin: VALID_GSTIN,
        state_code: '27',
        state_name: 'Maharashtra',
        sac: '999293',
        rate_basis_points: 1800,
        taxable_paise: 100_000,
        cgst_paise: 9_000,
        sgst_paise: 9_000,
        igst_paise: 0,
        place_of_supply_code: '27',
        place_of_supply_name: 'Maharashtra',
      },
    });

    // A new rate applies to the next payment, without a restart; the issued invoice keeps its figures.
    await setGst({ registered: true, gstin: VALID_GSTIN, rate_basis_points: 500 });
    const fivePercent = await pay(api, family.familyId, 105_000);
    expect((await receiptOf(fivePercent.payment_id)).tax).toMatchObject({
      rate_basis_points: 500,
      taxable_paise: 100_000,
      cgst_paise: 2_500,
      sgst_paise: 2_500,
    });
    expect(await receiptOf(taxed.payment_id)).toEqual(invoice);

    await setGst({ registered: false, gstin: null });
    expect(await receiptOf(taxed.payment_id)).toEqual(invoice);
    expect(await receiptOf(plain.payment_id)).toMatchObject({ document: 'receipt', tax: null });
    const after = await pay(api, family.familyId, 10_000);
    expect(await receiptOf(after.payment_id)).toMatchObject({ document: 'receipt', tax: null });
  });

  it('keep their tax figures in an append-only row the database refuses to change', async () => {
    await setGst({ registered: true, gstin: VALID_GSTIN });
    const family = await feeFamily(api, 1);
    const taxed = await pay(api, family.familyId, 59_000);
    await expect(
      api.db.query('UPDATE fee_receipt_taxes SET cgst_paise = 0 WHERE payment_id = $1', [taxed.payment_id]),
    ).rejects.toThrow();
    await expect(
      api.db.query('DELETE FROM fee_receipt_taxes WHERE payment_id = $1', [taxed.payment_id]),
    ).rejects.toThrow();
    expect((await receiptOf(taxed.payment_id)).tax).toMatchObject({ taxable_paise: 50_000, cgst_paise: 4_500 });
    // A replay of the same payment fixes nothing twice.
    const rows = await api.db.query('SELECT 1 FROM fee_receipt_taxes WHERE payment_id = $1', [taxed.payment_id]);
    expect(rows).toHaveLength(1);
    await setGst({ registered: false, gstin: null });
  });
});

describe("a family's state: the place of supply (ADR 063)", () => {
  const setState = (familyId: number, state_code: unknown) =>
    admin.put(`/api/v1/fees/families/${familyId}/state`, { state_code });

  it('bills a family in another state IGST from its next payment; the issued invoices keep theirs', async () => {
    await setGst({ registered: true, gstin: VALID_GSTIN, rate_basis_points: 1800 });
    const family = await feeFamily(api, 1);
    expect((await admin.get(`/api/v1/fees/families/${family.familyId}`)).json()).toMatchObject({
      state_code: null,
      state_name: null,
    });
    const before = await pay(api, family.familyId, 118_000);

    const moved = await setState(family.familyId, '29');
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ family_id: family.familyId, state_code: '29', state_name: 'Karnataka' });
    expect((await admin.get(`/api/v1/fees/families/${family.familyId}`)).json()).toMatchObject({ state_code: '29' });
    const inter = await pay(api, family.familyId, 118_000);
    expect((await receiptOf(inter.payment_id)).tax).toEqual({
      gstin: VALID_GSTIN,
      state_code: '27',
      state_name: 'Maharashtra',
      sac: '999293',
      rate_basis_points: 1800,
      taxable_paise: 100_000,
      cgst_paise: 0,
      sgst_paise: 0,
      igst_paise: 18_000,
      place_of_supply_code: '29',
      place_of_supply_name: 'Karnataka',
    });
    expect((await receiptOf(before.payment_id)).tax).toMatchObject({
      cgst_paise: 9_000,
      igst_paise: 0,
      place_of_supply_code: '27',
    });

    // The PDF names the place of supply and IGST.
    const pdf = await admin.get(`/api/v1/fees/receipts/${inter.payment_id}?lang=en`, {
      headers: { accept: 'application/pdf' },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/^application\/pdf/);

    // The centre's own state again (null): CGST and SGST.
    expect((await setState(family.familyId, null)).json()).toMatchObject({ state_code: null, state_name: null });
    const home = await pay(api, family.familyId, 118_000);
    expect((await receiptOf(home.payment_id)).tax).toMatchObject({
      cgst_paise: 9_000,
      sgst_paise: 9_000,
      igst_paise: 0,
      place_of_supply_code: '27',
    });

    // Each change is in the audit log with before and after.
    const audit = await api.db.query<{ action: string; before: unknown; after: unknown }>(
      `SELECT action, before, after FROM audit_log WHERE entity = 'fee_family_states' AND record_id = $1 ORDER BY id`,
      [String(family.familyId)],
    );
    expect(audit.map((row) => row.action)).toEqual(['create', 'delete']);
    await setGst({ registered: false, gstin: null });
  });

  it("the centre's own state set by name bills CGST and SGST, as no state does", async () => {
    await setGst({ registered: true, gstin: VALID_GSTIN });
    const family = await feeFamily(api, 1);
    expect((await setState(family.familyId, '27')).statusCode).toBe(200);
    const paid = await pay(api, family.familyId, 59_000);
    expect((await receiptOf(paid.payment_id)).tax).toMatchObject({ cgst_paise: 4_500, igst_paise: 0 });
    await setGst({ registered: false, gstin: null });
  });

  it('refuses what is no state, no family or no admin, and changes nothing', async () => {
    const family = await feeFamily(api, 1);
    for (const wrong of ['28', '7', 'MH', 27, '', undefined]) {
      const refused = await setState(family.familyId, wrong);
      expect(refused.statusCode, String(wrong)).toBe(422);
      expect(detailOf(refused)).toMatch(/state_code/);
    }
    expect((await admin.put(`/api/v1/fees/families/${family.familyId}/state`, {})).statusCode).toBe(422);
    const missing = await setState(999_999, '29');
    expect(missing.statusCode).toBe(404);
    expect((await setState(0, '29')).statusCode).toBe(422);
    expect(
      (await api.as('teacher').put(`/api/v1/fees/families/${family.familyId}/state`, { state_code: '29' })).statusCode,
    ).toBe(403);
    expect(await api.db.query('SELECT 1 FROM fee_family_states WHERE family_id = $1', [family.familyId])).toEqual([]);
  });
});

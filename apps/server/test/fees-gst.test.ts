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
const ADDRESS = '14 MG Road, Pune 411001';

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
      address: null,
    });
  });

  it('refuse a wrong GSTIN, a registration without one and a rate out of range, with the field to fix, and keep what was', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ registered: true, gstin: '27AAPFU0939F1ZW', address: ADDRESS }, 'gstin', /check character/],
      [{ registered: true, gstin: 'not a gstin', address: ADDRESS }, 'gstin', /15 characters/],
      [{ registered: true, address: ADDRESS }, 'gstin', /required for a registered centre/],
      [{ registered: true, gstin: null, address: ADDRESS }, 'gstin', /required for a registered centre/],
      [{ registered: true, gstin: VALID_GSTIN }, 'address', /required for a registered centre/],
      [{ registered: true, gstin: VALID_GSTIN, address: ' \n ' }, 'address', /required for a registered centre/],
      [{ registered: true, gstin: VALID_GSTIN, address: 'x'.repeat(301) }, 'address', /at most 300/],
      [
        { registered: true, gstin: VALID_GSTIN, address: ADDRESS, rate_basis_points: 0 },
        'rate_basis_points',
        /more than 0/,
      ],
      [
        { registered: true, gstin: VALID_GSTIN, address: ADDRESS, rate_basis_points: 4001 },
        'rate_basis_points',
        /at most 4000/,
      ],
      [
        { registered: true, gstin: VALID_GSTIN, address: ADDRESS, rate_basis_points: 18.5 },
        'rate_basis_points',
        /whole number/,
      ],
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
    const saved = await setGst({
      registered: true,
      gstin: ' 27aapfu0939f1zv ',
      address: ADDRESS,
      rate_basis_points: 1800,
    });
    expect(saved).toMatchObject({
      registered: true,
      gstin: VALID_GSTIN,
      address: ADDRESS,
      state_code: '27',
      state_name: 'Maharashtra',
    });
    const [row] = await api.db.query<{ after: Record<string, unknown> }>(
      "SELECT after FROM audit_log WHERE entity = 'fee_gst_settings' ORDER BY id DESC LIMIT 1",
    );
    expect(row?.after).toMatchObject({ registered: true, gstin: VALID_GSTIN, address: ADDRESS });
    await setGst({ registered: false, gstin: null });
  });
});

describe("a registered centre's receipts", () => {
  it('are tax invoices with CGST and SGST, fixed at the moment of payment whatever the settings become', async () => {
    await setGst({ registered: false, gstin: null });
    const family = await feeFamily(api, 1);
    const plain = await pay(api, family.familyId, 118_000);
    expect(await receiptOf(plain.payment_id)).toMatchObject({ document: 'receipt', tax: null });

    await setGst({ registered: true, gstin: VALID_GSTIN, address: ADDRESS, rate_basis_points: 1800 });
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
    await setGst({ registered: true, gstin: VALID_GSTIN, address: ADDRESS, rate_basis_points: 500 });
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
    await setGst({ registered: true, gstin: VALID_GSTIN, address: ADDRESS });
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
    await setGst({ registered: true, gstin: VALID_GSTIN, address: ADDRESS, rate_basis_points: 1800 });
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
      supplier_address: ADDRESS,
      recipient_name: 'Meera Iyer',
      recipient_address: null,
      recipient_gstin: null,
      reverse_charge: false,
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
    await setGst({ registered: true, gstin: VALID_GSTIN, address: ADDRESS });
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

describe('what Rule 46 asks of a tax invoice (ADR 065)', () => {
  const setDetails = (familyId: number, body: Record<string, unknown>) =>
    admin.put(`/api/v1/fees/families/${familyId}/gst-details`, body);
  const B2B_GSTIN = '29AAGCB7383J1Z4';

  it("prints the centre's address on every invoice; a centre registered before without one still issues invoices", async () => {
    const saved = await setGst({ registered: true, gstin: VALID_GSTIN, address: '  14 MG Road,\n\n Pune   411001 ' });
    expect(saved).toMatchObject({ registered: true, address: '14 MG Road, Pune 411001' });
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 59_000);
    expect((await receiptOf(paid.payment_id)).tax).toMatchObject({
      supplier_address: '14 MG Road, Pune 411001',
      recipient_name: 'Meera Iyer',
      reverse_charge: false,
    });

    // A centre registered before migration 0042 has no address: its invoices still issue, without the line,
    // and the next save of its settings asks for one.
    await api.db.query('UPDATE fee_gst_settings SET address = NULL');
    expect((await admin.get('/api/v1/fees/gst')).json()).toMatchObject({ registered: true, address: null });
    const without = await pay(api, family.familyId, 59_000);
    expect(await receiptOf(without.payment_id)).toMatchObject({
      document: 'tax_invoice',
      tax: { supplier_address: null, cgst_paise: 4_500 },
    });
    const refused = await admin.put('/api/v1/fees/gst', { registered: true, gstin: VALID_GSTIN });
    expect(refused.statusCode).toBe(422);
    expect(detailOf(refused)).toMatch(/^address: is required for a registered centre/);
    expect((await admin.get('/api/v1/fees/gst')).json()).toMatchObject({ registered: true, address: null });
    // The invoice issued with the address keeps it.
    expect((await receiptOf(paid.payment_id)).tax).toMatchObject({ supplier_address: '14 MG Road, Pune 411001' });
    // An unregistered centre may leave it blank.
    expect(await setGst({ registered: false, gstin: null })).toMatchObject({ address: null });
  });

  it("bills the family's name, address and GSTIN as set, fixed on each invoice as issued", async () => {
    await setGst({ registered: true, gstin: VALID_GSTIN, address: ADDRESS });
    const family = await feeFamily(api, 1, 'Kavya Rao');
    const set = await setDetails(family.familyId, {
      state_code: null,
      billing_name: ' Rao Learning LLP ',
      billing_address: '2 Residency Road\nBengaluru 560025',
      billing_gstin: B2B_GSTIN.toLowerCase(),
    });
    expect(set.statusCode, set.body).toBe(200);
    // A registered payer's place of supply is its GSTIN's state.
    expect(set.json()).toMatchObject({
      state_code: '29',
      state_name: 'Karnataka',
      billing_name: 'Rao Learning LLP',
      billing_address: '2 Residency Road, Bengaluru 560025',
      billing_gstin: B2B_GSTIN,
    });
    expect((await admin.get(`/api/v1/fees/families/${family.familyId}`)).json()).toMatchObject({
      billing_address: '2 Residency Road, Bengaluru 560025',
    });
    // The state alone cannot leave the GSTIN's state: the place of supply of a registered payer.
    const moved = await admin.put(`/api/v1/fees/families/${family.familyId}/state`, { state_code: null });
    expect(moved.statusCode).toBe(422);
    expect(detailOf(moved)).toMatch(/^state_code: must be Karnataka \(29\), the state of the family's GSTIN/);
    expect((await admin.put(`/api/v1/fees/families/${family.familyId}/state`, { state_code: '29' })).statusCode).toBe(
      200,
    );
    const big = await pay(api, family.familyId, 5_900_000);
    const invoice = await receiptOf(big.payment_id);
    expect(invoice.tax).toMatchObject({
      supplier_address: ADDRESS,
      recipient_name: 'Rao Learning LLP',
      recipient_address: '2 Residency Road, Bengaluru 560025',
      recipient_gstin: B2B_GSTIN,
      place_of_supply_code: '29',
      igst_paise: 900_000,
      reverse_charge: false,
    });

    // Later changes (the centre's address, the family's details cleared) change no invoice issued.
    await setGst({ registered: true, gstin: VALID_GSTIN, address: '1 New Street, Pune 411002' });
    const cleared = await setDetails(family.familyId, {
      state_code: null,
      billing_name: null,
      billing_address: '',
      billing_gstin: null,
    });
    expect(cleared.json()).toMatchObject({
      state_code: null,
      billing_name: null,
      billing_address: null,
      billing_gstin: null,
    });
    expect(await receiptOf(big.payment_id)).toEqual(invoice);
    const next = await pay(api, family.familyId, 59_000);
    expect((await receiptOf(next.payment_id)).tax).toMatchObject({
      supplier_address: '1 New Street, Pune 411002',
      recipient_name: 'Kavya Rao',
      recipient_address: null,
      recipient_gstin: null,
      place_of_supply_code: '27',
    });

    // The PDF's lines: the address under the GSTIN, billed to, reverse charge, the signatory.
    const { layoutReceipt } = await import('../src/modules/fees/receipt-pdf');
    const receipt = (await admin.get(`/api/v1/fees/receipts/${big.payment_id}`)).json();
    const lines = layoutReceipt(receipt, 'en', (day) => day).lines;
    expect(lines).toContainEqual({ kind: 'note', text: ADDRESS });
    expect(lines).toContainEqual({ kind: 'row', label: 'Billed to', value: 'Rao Learning LLP' });
    expect(lines).toContainEqual({
      kind: 'row',
      label: 'Billing address',
      value: '2 Residency Road, Bengaluru 560025',
    });
    expect(lines).toContainEqual({ kind: 'row', label: 'GSTIN of recipient', value: B2B_GSTIN });
    expect(lines).toContainEqual({ kind: 'row', label: 'Reverse charge', value: 'No' });
    expect(lines.at(-1)).toMatchObject({ kind: 'signature', signatory: 'Authorised signatory' });
    const hindi = layoutReceipt(receipt, 'hi', (day) => day).lines;
    expect(hindi).toContainEqual({ kind: 'row', label: 'रिवर्स चार्ज', value: 'नहीं' });
    const pdf = await admin.get(`/api/v1/fees/receipts/${big.payment_id}?lang=ur`, {
      headers: { accept: 'application/pdf' },
    });
    expect(pdf.statusCode).toBe(200);

    // Every change is audited, with before and after.
    const audit = await api.db.query<{ action: string; before: unknown; after: unknown }>(
      `SELECT action, before, after FROM audit_log WHERE entity = 'fee_family_gst_details' AND record_id = $1 ORDER BY id`,
      [String(family.familyId)],
    );
    expect(audit).toEqual([
      {
        action: 'create',
        before: null,
        after: expect.objectContaining({ billing_name: 'Rao Learning LLP', billing_gstin: B2B_GSTIN }),
      },
      { action: 'delete', before: expect.objectContaining({ billing_name: 'Rao Learning LLP' }), after: null },
    ]);
    await setGst({ registered: false, gstin: null });
  });

  it('a plain receipt carries none of it', async () => {
    await setGst({ registered: false, gstin: null });
    const family = await feeFamily(api, 1);
    expect((await setDetails(family.familyId, { state_code: null, billing_address: 'Somewhere 1' })).statusCode).toBe(
      200,
    );
    const paid = await pay(api, family.familyId, 10_000);
    expect(await receiptOf(paid.payment_id)).toMatchObject({ document: 'receipt', tax: null });
    const { layoutReceipt } = await import('../src/modules/fees/receipt-pdf');
    const lines = layoutReceipt(
      (await admin.get(`/api/v1/fees/receipts/${paid.payment_id}`)).json(),
      'en',
      (d) => d,
    ).lines;
    expect(
      lines.filter((line) => line.kind === 'signature' || ('label' in line && line.label === 'Billed to')),
    ).toEqual([]);
  });

  it('refuses a wrong GSTIN, one of another state than chosen, too long a text, no family or no admin, writing nothing', async () => {
    const family = await feeFamily(api, 1);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ state_code: null, billing_gstin: '29AAGCB7383J1Z5' }, /^billing_gstin: .*check character/],
      [{ state_code: '27', billing_gstin: B2B_GSTIN }, /^billing_gstin: is registered in Karnataka \(29\)/],
      [{ state_code: null, billing_address: 'x'.repeat(301) }, /^billing_address: must be at most 300/],
      [{ state_code: null, billing_name: 'x'.repeat(121) }, /^billing_name: must be at most 120/],
      [{ state_code: '28', billing_name: 'A' }, /^state_code:/],
      [{ billing_name: 'A' }, /^state_code:/],
    ];
    for (const [body, words] of cases) {
      const refused = await setDetails(family.familyId, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(detailOf(refused), JSON.stringify(body)).toMatch(words);
    }
    expect((await setDetails(999_999, { state_code: '29', billing_name: 'A' })).statusCode).toBe(404);
    expect(
      (
        await api
          .as('teacher')
          .put(`/api/v1/fees/families/${family.familyId}/gst-details`, { state_code: null, billing_name: 'A' })
      ).statusCode,
    ).toBe(403);
    for (const table of ['fee_family_gst_details', 'fee_family_states']) {
      expect(await api.db.query(`SELECT 1 FROM ${table} WHERE family_id = $1`, [family.familyId])).toEqual([]);
    }
    expect(await api.db.query('SELECT 1 FROM fee_family_gst_details WHERE family_id = 999999')).toEqual([]);
    expect(
      await api.db.query(
        "SELECT 1 FROM audit_log WHERE entity IN ('fee_family_gst_details', 'fee_family_states') AND record_id = $1",
        [String(family.familyId)],
      ),
    ).toEqual([]);
  });

  it("keeps an invoice's recipient append-only: only the erasure of a forgotten family may empty it", async () => {
    await setGst({ registered: true, gstin: VALID_GSTIN, address: ADDRESS });
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 59_000);
    await expect(
      api.db.query('UPDATE fee_receipt_taxes SET recipient_name = NULL WHERE payment_id = $1', [paid.payment_id]),
    ).rejects.toThrow(/append-only/);
    await expect(
      api.db.transaction(async (tx) => {
        await tx.query("SELECT set_config('tuitiondesk.fee_erasure', 'on', true)");
        await tx.query('UPDATE fee_receipt_taxes SET recipient_name = NULL, cgst_paise = 0 WHERE payment_id = $1', [
          paid.payment_id,
        ]);
      }),
    ).rejects.toThrow(/append-only/);
    expect((await receiptOf(paid.payment_id)).tax).toMatchObject({ recipient_name: 'Meera Iyer', cgst_paise: 4_500 });
    await setGst({ registered: false, gstin: null });
  });
});

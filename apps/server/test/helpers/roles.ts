/**
 * Who may call each operation of the OpenAPI document, the staff console's and the parent app's:
 *
 * - public: no token (sign-in, health, push receipts, the WhatsApp webhook, which Meta's signature proves);
 * - staff: admin and teacher;
 * - admin: admin only (a teacher gets 403);
 * - parent: a parent token only (a staff token gets 403, as a parent token does on staff calls).
 *
 * One table for every test that walks the API (app.test.ts, auth-attacks.test.ts, fuzz-openapi.test.ts);
 * auth-attacks.test.ts fails when the document holds an operation that is not listed here.
 */
export type Access = 'public' | 'staff' | 'admin' | 'parent';

export const ACCESS: Readonly<Record<string, Access>> = {
  'GET /api/v1/health': 'public',
  'POST /api/v1/auth/login': 'public',
  'GET /api/v1/auth/me': 'staff',
  'PUT /api/v1/auth/me/language': 'staff',
  'POST /api/v1/auth/change-password': 'staff',
  'GET /api/v1/auth/two-factor': 'staff',
  'POST /api/v1/auth/two-factor/setup': 'staff',
  'POST /api/v1/auth/two-factor/confirm': 'staff',
  'POST /api/v1/auth/two-factor/disable': 'staff',
  'DELETE /api/v1/auth/two-factor/users/{id}': 'admin',
  'POST /api/v1/staff/{user_id}/reset-password': 'admin',
  'GET /api/v1/admins': 'admin',
  'POST /api/v1/admins': 'admin',
  'POST /api/v1/admins/{id}/disable': 'admin',
  'POST /api/v1/admins/{id}/enable': 'admin',
  'DELETE /api/v1/admins/{id}': 'admin',

  'GET /api/v1/students/': 'staff',
  'POST /api/v1/students/': 'staff',
  'GET /api/v1/students/classes': 'staff',
  'GET /api/v1/students/{id}': 'staff',
  'PUT /api/v1/students/{id}': 'staff',
  'DELETE /api/v1/students/{id}': 'admin',
  'POST /api/v1/students/delete-multiple': 'admin',
  'DELETE /api/v1/students/clear-all': 'admin',
  'POST /api/v1/students/{id}/leave': 'admin',
  'POST /api/v1/students/{id}/restore': 'admin',
  // Teachers hand codes to parents at the door.
  'GET /api/v1/students/{id}/parent-access': 'staff',
  'POST /api/v1/students/{id}/parent-access': 'staff',
  'POST /api/v1/parent-access/bulk': 'admin',

  'GET /api/v1/teachers/': 'admin',
  'POST /api/v1/teachers/': 'admin',
  'GET /api/v1/teachers/{id}': 'admin',
  'PUT /api/v1/teachers/{id}': 'admin',
  'DELETE /api/v1/teachers/{id}': 'admin',
  'POST /api/v1/teachers/delete-multiple': 'admin',
  'DELETE /api/v1/teachers/clear-all': 'admin',

  'GET /api/v1/classes': 'staff',
  'POST /api/v1/classes': 'admin',
  'PUT /api/v1/classes/{id}': 'admin',
  'POST /api/v1/classes/{id}/archive': 'admin',
  'POST /api/v1/classes/{id}/unarchive': 'admin',
  'PUT /api/v1/classes/order': 'admin',
  'DELETE /api/v1/classes/{id}': 'admin',
  'GET /api/v1/subjects': 'staff',
  'POST /api/v1/subjects': 'admin',
  'PUT /api/v1/subjects/{id}': 'admin',
  'POST /api/v1/subjects/{id}/archive': 'admin',
  'POST /api/v1/subjects/{id}/unarchive': 'admin',
  'PUT /api/v1/subjects/order': 'admin',
  'DELETE /api/v1/subjects/{id}': 'admin',

  'GET /api/v1/attendance/roster': 'staff',
  'GET /api/v1/attendance/marking-scope': 'staff',
  'POST /api/v1/attendance/mark': 'staff',
  'POST /api/v1/attendance/submissions': 'staff',
  'GET /api/v1/attendance/pending-approval': 'staff',
  'GET /api/v1/attendance/pending-days': 'admin',
  'GET /api/v1/attendance/not-marked': 'staff',
  'GET /api/v1/attendance/summary': 'staff',
  'POST /api/v1/attendance/approve': 'admin',
  'GET /api/v1/attendance/history': 'admin',
  'GET /api/v1/attendance/history/page': 'admin',

  'GET /api/v1/leave-requests': 'staff',
  'GET /api/v1/leave-requests/count': 'staff',
  'POST /api/v1/leave-requests/{id}/approve': 'admin',
  'POST /api/v1/leave-requests/{id}/decline': 'admin',

  'GET /api/v1/teacher-attendance/date/{date}': 'admin',
  'POST /api/v1/teacher-attendance/mark': 'admin',
  'POST /api/v1/teacher-attendance/update-remarks': 'admin',
  'POST /api/v1/teacher-attendance/lock/{date}': 'admin',

  'POST /api/v1/messages/send-to-parents': 'staff',
  'GET /api/v1/messages/family-count': 'staff',
  'GET /api/v1/communications/history': 'staff',
  'GET /api/v1/communications/history/grouped': 'staff',
  'GET /api/v1/communications/history/sends/{id}': 'staff',
  'POST /api/v1/communications/send-whatsapp': 'admin',
  'GET /api/v1/communications/call-list': 'staff',
  'GET /api/v1/communications/analytics': 'staff',
  'GET /api/v1/communications/conversations': 'staff',
  'GET /api/v1/communications/conversations/{phone}': 'staff',
  'PUT /api/v1/communications/call-list/{message_id}': 'staff',
  'PUT /api/v1/communications/call-list/{message_id}/sent-by-hand': 'staff',
  'GET /api/v1/message-templates': 'staff',
  'POST /api/v1/message-templates': 'admin',
  'PUT /api/v1/message-templates/{id}': 'admin',
  'DELETE /api/v1/message-templates/{id}': 'admin',
  'GET /api/v1/settings/messaging': 'staff',
  'PUT /api/v1/settings/messaging': 'admin',
  'GET /api/v1/settings/whatsapp': 'admin',
  'PUT /api/v1/settings/whatsapp': 'admin',
  'DELETE /api/v1/settings/whatsapp': 'admin',
  'POST /api/v1/settings/whatsapp/test': 'admin',
  'GET /api/v1/whatsapp/webhook': 'public',
  'POST /api/v1/whatsapp/webhook': 'public',
  // Online payment (ADR 053): a family's Razorpay link; Razorpay's webhook, proven by its signature.
  'POST /api/v1/fees/families/{family_id}/payment-link': 'admin',
  'POST /api/v1/payments/razorpay/webhook': 'public',

  'GET /api/v1/import/students/template': 'admin',
  'GET /api/v1/import/teachers/template': 'admin',
  'POST /api/v1/import/students/import': 'admin',
  'POST /api/v1/import/teachers/import': 'admin',

  'GET /api/v1/activities/recent': 'staff',
  'POST /api/v1/activities/mark-viewed': 'staff',
  'GET /api/v1/dashboard/summary': 'staff',
  'GET /api/v1/dashboard/my-classes': 'staff',

  'GET /api/v1/settings': 'staff',
  'PUT /api/v1/settings': 'admin',
  'GET /api/v1/settings/centre': 'staff',
  'PUT /api/v1/settings/centre': 'admin',
  'PUT /api/v1/settings/centre/logo': 'admin',
  'DELETE /api/v1/settings/centre/logo': 'admin',
  // The parent app's sign-in page shows the centre's name and logo before anyone signs in.
  'GET /api/v1/centre': 'public',
  'GET /api/v1/centre/logo': 'public',
  'GET /api/v1/settings/two-factor': 'staff',
  'PUT /api/v1/settings/two-factor': 'admin',
  'GET /api/v1/settings/marking': 'staff',
  'PUT /api/v1/settings/marking': 'admin',
  'GET /api/v1/settings/reminders': 'staff',
  'PUT /api/v1/settings/reminders': 'admin',
  // Every member of staff types phones; the fields say which code a local number takes.
  'GET /api/v1/settings/phones': 'staff',
  'PUT /api/v1/settings/phones': 'admin',
  // Staff devices for marking reminders: any signed-in staff member, their own devices only.
  'GET /api/v1/staff/push/public-key': 'staff',
  'POST /api/v1/staff/push/subscriptions': 'staff',
  'DELETE /api/v1/staff/push/subscriptions': 'staff',
  'GET /api/v1/settings/students': 'staff',
  'PUT /api/v1/settings/students': 'admin',

  'POST /api/v1/backups': 'admin',
  'GET /api/v1/backups': 'admin',

  'GET /api/v1/audit': 'admin',
  'GET /api/v1/audit/export': 'admin',
  'GET /api/v1/settings/audit': 'admin',
  'PUT /api/v1/settings/audit': 'admin',

  // Fees, the ledger's part (ADR 051): counter payments, receipts, families and reports. Teachers see no fees.
  'POST /api/v1/fees/payments': 'admin',
  'POST /api/v1/fees/payments/{payment_id}/reverse': 'admin',
  'GET /api/v1/fees/receipts/{payment_id}': 'admin',
  'GET /api/v1/fees/students/{student_id}/family': 'admin',
  'GET /api/v1/fees/families/{family_id}': 'admin',
  'GET /api/v1/fees/families/{family_id}/statement': 'admin',
  'GET /api/v1/fees/dues': 'admin',
  'GET /api/v1/fees/ageing': 'admin',
  'GET /api/v1/fees/collections': 'admin',
  // GST settings (ADR 057).
  'GET /api/v1/fees/gst': 'admin',
  'PUT /api/v1/fees/gst': 'admin',
  'PUT /api/v1/fees/families/{family_id}/state': 'admin',
  'PUT /api/v1/fees/families/{family_id}/gst-details': 'admin',
  // The accountant's exports of those reports, CSV or Excel.
  'GET /api/v1/fees/dues/export': 'admin',
  'GET /api/v1/fees/collections/export': 'admin',
  'GET /api/v1/fees/families/{family_id}/statement/export': 'admin',
  // Fees, plans and the charge run (ADR 052).
  'GET /api/v1/fees/plans': 'admin',
  'POST /api/v1/fees/plans': 'admin',
  'PUT /api/v1/fees/plans/{id}': 'admin',
  'POST /api/v1/fees/plans/{id}/archive': 'admin',
  'POST /api/v1/fees/plans/{id}/unarchive': 'admin',
  'DELETE /api/v1/fees/plans/{id}': 'admin',
  'GET /api/v1/fees/discounts': 'admin',
  'PUT /api/v1/fees/discounts': 'admin',
  'POST /api/v1/fees/charges/run': 'admin',
  'GET /api/v1/fees/charges/schedule': 'admin',
  'PUT /api/v1/fees/charges/schedule': 'admin',
  // Fee reminders, the schedule and a round by hand (ADR 061).
  'GET /api/v1/fees/reminders/settings': 'admin',
  'PUT /api/v1/fees/reminders/settings': 'admin',
  'POST /api/v1/fees/reminders/run': 'admin',
  // The families' answers to fee reminders (ADR 061): "Paid already" to match, and the promises.
  'GET /api/v1/fees/match-tasks': 'admin',
  'POST /api/v1/fees/match-tasks/{id}/match': 'admin',
  'POST /api/v1/fees/match-tasks/{id}/dismiss': 'admin',
  'GET /api/v1/fees/promises': 'admin',

  'POST /api/v1/parent/login': 'public',
  'POST /api/v1/parent/receipts': 'public',
  'POST /api/v1/parent/messages/{id}/reply': 'parent',
  'POST /api/v1/parent/messages/{id}/fee-reply': 'parent',
  'GET /api/v1/parent/whatsapp': 'parent',
  'PUT /api/v1/parent/whatsapp': 'parent',
  'GET /api/v1/parent/language': 'parent',
  'PUT /api/v1/parent/language': 'parent',
  'GET /api/v1/parent/me': 'parent',
  'GET /api/v1/parent/messages': 'parent',
  'POST /api/v1/parent/messages/{id}/read': 'parent',
  'POST /api/v1/parent/messages/shown': 'parent',
  'GET /api/v1/parent/children/{id}/attendance': 'parent',
  'GET /api/v1/parent/leave-requests': 'parent',
  'POST /api/v1/parent/leave-requests': 'parent',
  'POST /api/v1/parent/leave-requests/{id}/withdraw': 'parent',
  'GET /api/v1/parent/push/public-key': 'parent',
  'POST /api/v1/parent/push/subscriptions': 'parent',
  'DELETE /api/v1/parent/push/subscriptions': 'parent',
  // Fees in the parent app (ADR 059): the family's own only.
  'GET /api/v1/parent/fees': 'parent',
  'POST /api/v1/parent/fees/pay-link': 'parent',
  'GET /api/v1/parent/fees/receipts/{payment_id}': 'parent',
};

/** `/api/v1/students/12?x=1` → `/api/v1/students/{id}`: the OpenAPI path of a concrete URL. */
export function templateOf(url: string): string {
  const [pathname = ''] = url.split('?');
  return pathname
    .replace(/\/\d{4}-\d\d-\d\d$/, '/{date}')
    .replace(/\/(students|teachers|users|leave-requests)\/\d+(?=\/|$)/, '/$1/{id}')
    .replace(/\/parent\/(messages|children)\/\d+(?=\/)/, '/parent/$1/{id}');
}

/** Who may call `method url` (a concrete URL or an OpenAPI path); undefined for a call the table does not know. */
export function accessOf(method: string, url: string): Access | undefined {
  return ACCESS[`${method.toUpperCase()} ${templateOf(url)}`];
}

import type {
  AttendanceRecord,
  Communication,
  FamilyMessage,
  MarkingScope,
  MessageGroup,
  Role,
  RosterEntry,
  Student,
  Teacher,
  TeacherAttendanceEntry,
  User,
  WhatsappSetup,
} from '@tuitiondesk/contract';
import { todayIso } from '../lib/dates';

/** What the API answers, built for tests: each factory fills every field, the test overrides what it is about. */

const padded = (prefix: string, id: number) => `${prefix}${String(id).padStart(4, '0')}`;

/** `count` items numbered from 1: `listOf(3, student)`. */
export function listOf<T>(count: number, make: (id: number) => T): T[] {
  return Array.from({ length: count }, (_, index) => make(index + 1));
}

/** A signed-in account: the admin is Centre Admin, the teacher Asha Rao (tch0001). */
export function user(role: Role = 'admin', fields: Partial<User> = {}): User {
  return {
    id: role === 'admin' ? 1 : 2,
    username: role === 'admin' ? 'admin' : 'tch0001',
    full_name: role === 'admin' ? 'Centre Admin' : 'Asha Rao',
    role,
    email: null,
    must_change_password: false,
    ...fields,
  };
}

export function student(id: number, fields: Partial<Student> = {}): Student {
  return {
    id,
    unique_id: padded('STU', id),
    full_name: `Student ${id}`,
    class_name: '7',
    parent_name: `Parent ${id}`,
    parent_phone: `+9198000${String(id).padStart(5, '0')}`,
    parent_whatsapp_opt_in: false,
    parent_language: 'en',
    parent_whatsapp_opt_in_changed_at: null,
    parent_whatsapp_opt_in_changed_by: null,
    left_on: null,
    scrubbed_at: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    ...fields,
  };
}

export function teacher(id: number, fields: Partial<Teacher> = {}): Teacher {
  return {
    id,
    unique_id: padded('TCH', id),
    user_id: id + 100,
    two_factor_enabled: false,
    username: padded('tch', id),
    full_name: `Teacher ${id}`,
    first_name: 'Teacher',
    last_name: String(id),
    email: null,
    phone_number: `+9198000${String(id).padStart(5, '0')}`,
    subjects: ['Mathematics', 'Physics'],
    classes_assigned: ['9', '10'],
    qualification: 'B.Ed.',
    experience_years: 3,
    address: '',
    emergency_contact: '',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    ...fields,
  };
}

let nextRecordId = 1;

/** An attendance record as the API answers it; override what a test cares about. */
export function record(fields: Partial<AttendanceRecord> = {}): AttendanceRecord {
  const id = fields.id ?? nextRecordId++;
  return {
    id,
    student_id: id,
    student_name: `Student ${id}`,
    student_unique_id: padded('STU', id),
    class_name: '7',
    date: '2026-03-02',
    status: 'present',
    remarks: null,
    parent_reason: null,
    parent_phone: '+919800000000',
    marked_at: '2026-03-02T09:15:30+05:30',
    marked_by: 'Ravi Kumar',
    approved_by: null,
    approved_at: null,
    ...fields,
  };
}

/** A roster line as the API answers it: unmarked unless the test says otherwise. */
export function rosterEntry(fields: Partial<RosterEntry> & { student_id: number }): RosterEntry {
  return {
    student_unique_id: padded('STU', fields.student_id),
    student_name: `Student ${fields.student_id}`,
    parent_phone: '+919800000000',
    attendance_id: null,
    status: null,
    remarks: null,
    marked_by: null,
    marked_at: null,
    is_approved: false,
    leave: null,
    ...fields,
  };
}

/** A caller's marking scope as the API answers it: an admin's (every class, today and two days back). */
export function markingScope(fields: Partial<MarkingScope> = {}): MarkingScope {
  return {
    restricted: false,
    classes: ['7', '8', '9', '10'],
    any_class: false,
    days_back: 2,
    earliest_date: null,
    today: todayIso(),
    cannot_mark_reason: null,
    ...fields,
  };
}

/** WhatsApp's set-up as the API answers it: not connected, the webhook's address and token to paste. */
export function whatsappSetup(fields: Partial<WhatsappSetup> = {}): WhatsappSetup {
  return {
    connected: false,
    source: null,
    fixed_by_server: false,
    phone_number_id: null,
    business_account_id: null,
    access_token_set: false,
    app_secret_set: false,
    webhook_url: 'https://centre.example.com/api/v1/whatsapp/webhook',
    verify_token: 'k3Jd0-verify-token-for-meta-00000',
    connected_at: null,
    last_callback_at: null,
    live: null,
    live_problem: null,
    ...fields,
  };
}

/** A teacher's line on the teacher attendance day: not marked, not locked. */
export function teacherDayEntry(
  id: number,
  name: string,
  fields: Partial<TeacherAttendanceEntry> = {},
): TeacherAttendanceEntry {
  return {
    teacher_id: id,
    teacher_unique_id: `TCH000${id}`,
    teacher_name: name,
    phone_number: `+9198765432${id}0`,
    status: 'not_marked',
    remarks: null,
    check_in_time: null,
    check_out_time: null,
    is_locked: false,
    ...fields,
  };
}

/** A message in the centre's history, sent in the app to a parent. */
export function communication(id: number, fields: Partial<Communication> = {}): Communication {
  return {
    id,
    message_type: 'IN_APP',
    kind: 'notice',
    subject: `Subject ${id}`,
    message: `Message ${id}`,
    recipient: '+919876543210',
    recipient_name: 'Meera Shah',
    sent_at: '2026-11-22T09:05:00',
    sent_by: 'Centre Admin',
    delivery_status: 'sent',
    delivered_at: null,
    failure_reason: null,
    language: 'en',
    reply: null,
    attempts: [],
    ...fields,
  };
}

/** A family's message beneath a send of the grouped history (ADR 049): a communication with its reach. */
export function familyMessage(id: number, fields: Partial<FamilyMessage> = {}): FamilyMessage {
  return { ...communication(id), reach: 'waiting', sent_by_hand_at: null, sent_by_hand_by: null, ...fields };
}

/** A message to one family without a send, as the grouped history answers it: the family's row inside. */
export function loneMessageGroup(item: FamilyMessage, fields: Partial<MessageGroup> = {}): MessageGroup {
  return {
    send_id: null,
    kind: item.kind,
    subject: item.subject,
    message: item.message,
    recipients: null,
    sent_at: item.sent_at,
    sent_by: item.sent_by,
    families: 1,
    read: item.reach === 'read' ? 1 : 0,
    delivered: item.reach === 'delivered' ? 1 : 0,
    sent_by_hand: item.reach === 'sent_by_hand' ? 1 : 0,
    not_reached: item.reach === 'not_reached' ? 1 : 0,
    waiting: item.reach === 'waiting' ? 1 : 0,
    replies: item.reply ? 1 : 0,
    family: item,
    ...fields,
  };
}

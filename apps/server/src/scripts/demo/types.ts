/**
 * What the demo seed writes, as plain data: people are numbered by their place in `students` and
 * `teachers` until the database gives them their codes.
 */
import type {
  AttendanceStatus,
  DefaultClassName as ClassName,
  DeliveryStatus,
  ParentLanguage,
  TeacherAttendanceStatus,
} from '@tuitiondesk/contract';
import type { SendSpec, TeacherSpec } from './content';

export interface DemoStudent {
  full_name: string;
  class_name: ClassName;
  parent_name: string;
  parent_phone: string;
  created_at: string;
  /** Added by the start-of-term import (true) or one by one afterwards. */
  imported: boolean;
  /** The family's (the same for every child with this phone); who changed the consent last is in `consents`. */
  parent_whatsapp_opt_in: boolean;
  parent_language: ParentLanguage;
}

/** A change of a family's WhatsApp consent, as whatsapp_consent_log keeps it; `by` the admin or the parent. */
export interface DemoConsentChange {
  phone: string;
  opted_in: boolean;
  source: 'import' | 'staff' | 'whatsapp_reply';
  at: string;
}

export interface DemoTeacher extends Omit<TeacherSpec, 'joined_days_ago'> {
  created_at: string;
}

export interface DemoMark {
  /** Index into `students`. */
  student: number;
  status: AttendanceStatus;
  remarks: string | null;
}

export interface DemoClassMarking {
  class_name: ClassName;
  /** Index into `teachers`. */
  marked_by: number;
  marked_at: string;
  marks: DemoMark[];
}

export interface DemoTeacherMark {
  /** Index into `teachers`. */
  teacher: number;
  status: TeacherAttendanceStatus;
  remarks: string | null;
  check_in_time: string | null;
  check_out_time: string | null;
}

export interface DemoDay {
  date: string;
  classes: DemoClassMarking[];
  /** Null while the day waits for approval. */
  approved_at: string | null;
  teachers: DemoTeacherMark[];
  teachers_marked_at: string;
  /** Null while the day is open for changes. */
  locked_at: string | null;
}

export interface DemoRecipient {
  phone: string;
  name: string;
  delivery_status: DeliveryStatus;
  delivered_at: string | null;
  failure_reason: string | null;
}

export interface DemoSend extends Pick<SendSpec, 'subject' | 'message' | 'class_name' | 'sent_by'> {
  sent_at: string;
  recipients: DemoRecipient[];
}

/** The feed entries, written once the database has given students and teachers their codes. */
export type DemoActivity =
  | { kind: 'students_imported'; at: string; count: number }
  | { kind: 'student_created'; at: string; student: number }
  | { kind: 'teacher_created'; at: string; teacher: number }
  | { kind: 'attendance_marked'; at: string; teacher: number; count: number; class_name: ClassName; date: string }
  | { kind: 'attendance_approved'; at: string; count: number }
  | { kind: 'teacher_attendance_marked'; at: string; count: number; date: string }
  | { kind: 'teacher_attendance_locked'; at: string; count: number; date: string }
  | { kind: 'sent_to_parents'; at: string; send: number };

export interface DemoCentre {
  students: DemoStudent[];
  /** In the order they happened. */
  consents: DemoConsentChange[];
  teachers: DemoTeacher[];
  days: DemoDay[];
  sends: DemoSend[];
  activities: DemoActivity[];
}

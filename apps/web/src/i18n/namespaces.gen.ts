// Written by `npm run texts` from apps/web/src/i18n/locales/en/*.json: add or edit those, not this.

import type en_account from './locales/en/account.json';
import type en_activity from './locales/en/activity.json';
import type en_app from './locales/en/app.json';
import type en_attendance from './locales/en/attendance.json';
import type en_audit from './locales/en/audit.json';
import type en_auth from './locales/en/auth.json';
import type en_centre from './locales/en/centre.json';
import type en_classes from './locales/en/classes.json';
import type en_common from './locales/en/common.json';
import type en_dashboard from './locales/en/dashboard.json';
import type en_dates from './locales/en/dates.json';
import type en_feePlans from './locales/en/feePlans.json';
import type en_feeReminders from './locales/en/feeReminders.json';
import type en_fees from './locales/en/fees.json';
import type en_imports from './locales/en/imports.json';
import type en_leave from './locales/en/leave.json';
import type en_lists from './locales/en/lists.json';
import type en_messages from './locales/en/messages.json';
import type en_parents from './locales/en/parents.json';
import type en_settings from './locales/en/settings.json';
import type en_shell from './locales/en/shell.json';
import type en_students from './locales/en/students.json';
import type en_teacherAttendance from './locales/en/teacherAttendance.json';
import type en_teachers from './locales/en/teachers.json';
import type en_whatsapp from './locales/en/whatsapp.json';

/** The console's namespaces: a file each in `locales/<lang>/`. */
export const CONSOLE_NAMESPACES = ['account', 'activity', 'app', 'attendance', 'audit', 'auth', 'centre', 'classes', 'common', 'dashboard', 'dates', 'feePlans', 'feeReminders', 'fees', 'imports', 'leave', 'lists', 'messages', 'parents', 'settings', 'shell', 'students', 'teacherAttendance', 'teachers', 'whatsapp'] as const;

/** Each namespace's English, for i18next's typed keys. */
export interface EnglishResources {
  account: typeof en_account;
  activity: typeof en_activity;
  app: typeof en_app;
  attendance: typeof en_attendance;
  audit: typeof en_audit;
  auth: typeof en_auth;
  centre: typeof en_centre;
  classes: typeof en_classes;
  common: typeof en_common;
  dashboard: typeof en_dashboard;
  dates: typeof en_dates;
  feePlans: typeof en_feePlans;
  feeReminders: typeof en_feeReminders;
  fees: typeof en_fees;
  imports: typeof en_imports;
  leave: typeof en_leave;
  lists: typeof en_lists;
  messages: typeof en_messages;
  parents: typeof en_parents;
  settings: typeof en_settings;
  shell: typeof en_shell;
  students: typeof en_students;
  teacherAttendance: typeof en_teacherAttendance;
  teachers: typeof en_teachers;
  whatsapp: typeof en_whatsapp;
}

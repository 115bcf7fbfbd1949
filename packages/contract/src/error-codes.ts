/**
 * The stable codes of the server's errors, each with its English text. An error body carries the
 * English `detail` (what API clients show as it is), its `code` from this catalogue and, when the text
 * has placeholders, the `params` that fill them; a client that speaks another language looks the code
 * up in its own catalogue and fills the same params (ADR 036).
 *
 * Codes are dotted and lower case, `<module>.<what>`; a field's validation failure is `validation.<rule>`
 * with `field` among its params and a text that starts `{field}: `. A code, once published, keeps its
 * meaning: a changed meaning is a new code.
 *
 * Texts are ICU-style: `{name}` is a param; `{count, plural, one {…} other {…}}` chooses by a number
 * (`#` in a branch is the number), `{status, select, pending {…} other {…}}` by a value. A branch holds no other placeholder, which keeps the params' type
 * readable from the text itself.
 */
export const ERROR_CODES = {
  // Requests the server cannot read (the framework's own errors)
  'request.aborted': 'The request ended before all of it arrived; send it again',
  'request.invalid_json': 'body: is not valid JSON',
  'request.too_large': 'The request body is too large',
  'request.unsupported_media_type': 'Unsupported content type; send application/json',
  'request.content_length_mismatch': 'The Content-Length header does not match the body',
  'request.invalid': 'The request is invalid',
  'request.rejected': '{message}',
  'request.timeout':
    'The request took too long to arrive and was cut off; send it again, on a faster connection if it is large',
  'request.headers_too_large': 'The request headers are too large',
  'request.not_http': 'The request is not valid HTTP',
  'request.address_too_long': 'The address is too long: a part of it exceeds 100 characters',
  'request.malformed_escape': 'The address is not valid: it holds a malformed %-escape',
  'route.not_found': 'No such endpoint: {method} {path}',
  'file.not_found': 'No such file: {path}',
  'server.internal': 'Internal server error',
  'server.database_unavailable': 'The database is unavailable at the moment. Please try again shortly.',
  'server.contention': 'Someone else was saving the same records at the same moment. Please try again.',

  // Request validation: the contract's rules (zod), one code per rule; `message` is the English reason
  'validation.invalid_type': '{field}: {message}',
  'validation.too_small': '{field}: {message}',
  'validation.too_big': '{field}: {message}',
  'validation.invalid_format': '{field}: {message}',
  'validation.not_multiple_of': '{field}: {message}',
  'validation.unrecognized_keys': '{field}: {message}',
  'validation.invalid_union': '{field}: {message}',
  'validation.invalid_key': '{field}: {message}',
  'validation.invalid_element': '{field}: {message}',
  'validation.invalid_value': '{field}: {message}',
  'validation.custom': '{field}: {message}',
  'validation.invalid': '{field}: {message}',

  // Sign-in, sessions and passwords
  'auth.not_authenticated': 'Not authenticated',
  'auth.forbidden': 'You do not have permission to do this',
  'auth.session_ended': 'Your session is invalid or has expired. Please sign in again.',
  'auth.parents_only': 'This is for parents: staff use the console',
  'auth.staff_only': 'A parent sign-in cannot use the staff console',
  'auth.change_password_first':
    'Change your password first: this account still has the password it was given, and can do nothing else until it sets its own',
  'auth.enrol_two_factor_first': 'Set up two-factor sign-in to continue',
  'auth.incorrect_credentials': 'Incorrect username or password',
  'auth.otp_required': 'Enter the 6-digit code from your authenticator app',
  'auth.current_password_incorrect': 'Current password is incorrect',
  'auth.too_many_attempts':
    'Too many sign-in attempts. Try again in {minutes, plural, one {# minute} other {# minutes}}.',
  'validation.same_password': '{field}: must be different from the current password',
  'validation.password_blank': '{field}: cannot be only spaces',
  'validation.password_has_username': '{field}: must not contain your username ({username})',
  'validation.password_has_email': '{field}: must not contain your email address ({email})',
  'validation.password_has_name': '{field}: must not contain your name ({name})',
  'validation.password_has_app_name': '{field}: must not contain the name of this application ({word})',
  'validation.password_common': '{field}: is one of the most common passwords; choose one that is harder to guess',
  'validation.password_common_variant':
    '{field}: is a common password with a few characters added or swapped; choose one that is harder to guess',

  // Two-factor sign-in
  'two_factor.wrong_code':
    'That code is not right. Enter the current code from your authenticator app, or a recovery code.',
  'two_factor.wrong_setup_code':
    'That code is not right. Enter the code your authenticator app shows now (check the time on your phone is right).',
  'two_factor.already_on':
    'Two-factor sign-in is already on for your account. Turn it off first to use another authenticator.',
  'two_factor.not_on': 'Two-factor sign-in is not on for your account',
  'two_factor.required_for_admins':
    'The centre requires two-factor sign-in for every admin, so it cannot be turned off while that setting is on',
  'two_factor.setup_not_started': 'Start the setup first: there is no authenticator waiting to be confirmed',
  'two_factor.setup_expired': 'This setup can no longer be completed. Start the setup again.',
  'two_factor.reset_own': 'Turn off your own two-factor sign-in from the account menu (it asks for a code)',
  'two_factor.user_not_found': 'User not found',
  'two_factor.nothing_to_reset': '{name} has no two-factor sign-in to reset',
  'two_factor.own_first': 'Turn on two-factor sign-in for your own account first, then require it for every admin',

  // The parent app and family access
  'parents.incorrect_access': 'Phone number or access code is incorrect',
  'parents.no_child_attending': 'None of your children attends the centre any more, so this access has ended',
  'parents.message_not_found': 'Message not found',
  'parents.alert_not_found': 'This alert was not found',
  'parents.alert_already_answered': 'This alert was already answered',
  'parents.receipt_invalid': 'This delivery receipt is not valid',
  'student.not_found': 'Student not found',
  'parents.replace_needs_admin':
    "This family already has an access code. Only an admin can replace it, because a new code signs the parent's devices out: ask an admin if the parent has lost theirs.",
  'parents.phone_change_needs_admin':
    "Only an admin can change the parent phone of a family that uses the parent app (it has an access code): the child's records would move to another phone's app. Leave the phone as it is, or ask an admin.",
  'parents.student_left': '{name} left the centre: restore them before giving their family the app',

  // WhatsApp conversations
  'validation.phone_with_country_code': '{field}: must be a phone number with its country code',
  'conversations.not_found': 'This phone has not written to the centre on WhatsApp',

  // The call list
  'call_list.not_found': 'This message is not on the call list',

  // Attendance marking and approval
  'validation.not_in_future': '{field}: cannot be in the future',
  'student.not_found_by_id': 'Student with id {id} was not found',
  'attendance.already_approved': 'Attendance for {name} on {date} is already approved and cannot be changed',
  'attendance.record_not_found': 'Attendance record not found',
  'attendance.records_not_found': 'None of these attendance records exist',
  'attendance.records_already_approved': 'These attendance records are already approved',
  'validation.not_after': '{field}: must not be after {other}',
  'validation.range_too_long': '{field}: the range must not span more than {days} days',
  'validation.submission_reused': '{field}: was already used for other marks; send these marks with a new id',
  'validation.listed_twice':
    '{field}: {noun, select, student {student} teacher {teacher} other {record}} {id} is listed more than once',
  'attendance.student_left': '{name} left the centre on {left_on}: attendance for {date} cannot be marked',
  'attendance.not_linked_to_teacher':
    'Your account is not linked to a teacher record, so you cannot mark attendance. Ask an admin to check your account on the Teachers screen.',
  'attendance.no_class_assigned':
    'No class is assigned to you, so you cannot mark attendance. Ask an admin to assign your classes on the Teachers screen.',
  'attendance.class_not_yours':
    'You can mark attendance only for your {count, plural, one {class} other {classes}} ({classes}). Class {other} is not assigned to you.',
  'attendance.classes_not_yours':
    'You can mark attendance only for your {count, plural, one {class} other {classes}} ({classes}). Classes {others} and {last} are not assigned to you.',
  'validation.teacher_today_only':
    '{field}: teachers can mark attendance only for today ({today}); an admin can mark earlier days',
  'validation.teacher_window':
    '{field}: teachers can mark attendance only from {earliest} to {today} (today and the {days, plural, one {# day} other {# days}} before); an admin can mark earlier days',

  // Attendance answers that succeed but say what could not be done (ADR 036): a roster shown read-only
  // (`cannot_mark`), a queued mark that was not saved (`refused[].code`), a queued marking's summary.
  // Dates are yyyy-MM-dd where the English shows them so, else as the English writes them (23 Nov 2026).
  'attendance.future_date': 'Attendance cannot be marked for a future date.',
  'attendance.teacher_today_only':
    'Teachers can mark attendance only for today ({today}); an admin can mark earlier days.',
  'attendance.teacher_window':
    'Teachers can mark attendance only from {earliest} to {today} (today and the {days, plural, one {# day} other {# days}} before); an admin can mark earlier days.',
  'attendance.mark_in_future': 'Cannot be in the future.',
  'attendance.mark_student_deleted': 'This student is no longer on the register (the record was deleted).',
  'attendance.mark_class_not_yours': 'You may no longer mark class {class_name}.',
  'attendance.mark_student_left': '{name} left the centre on {left_on}: attendance for {date} cannot be marked.',
  'attendance.mark_already_approved':
    'Already approved for {date}, as {status, select, present {Present} absent {Absent} late {Late} leave {Leave} other {unknown}}: it was not changed.',
  'attendance.mark_already_approved_by':
    'Already approved by {name} for {date}, as {status, select, present {Present} absent {Absent} late {Late} leave {Leave} other {unknown}}: it was not changed.',
  'attendance.queued_marked': 'Attendance marked for {count} student(s)',
  'attendance.queued_marked_refused':
    'Attendance marked for {count} student(s); {refused, plural, one {# mark} other {# marks}} could not be saved',

  // Teacher attendance
  'teacher_attendance.locked': 'Attendance for this date is locked and cannot be modified',
  'teacher_attendance.already_locked': 'Attendance for this date is already locked',
  'teacher_attendance.nothing_marked': 'No attendance has been marked for this date yet',
  'teacher.not_found_by_id': 'Teacher with id {id} was not found',

  // Students and leaving
  'student.scrubbed_no_edit': '{name} cannot be edited: their personal data was removed after they left',
  'validation.left_on_future': '{field}: must be today or a day before, not in the future',
  'student.already_left': '{name} already left on {left_on}',
  'student.not_left': '{name} has not left, so cannot be restored',
  'student.scrubbed_no_restore':
    '{name} cannot be restored: their personal data was removed after they left. Add them as a new student',
  'student.class_change_not_yours':
    'Only an admin can move this student from Class {from} to Class {to}: you mark only {count, plural, one {Class} other {Classes}} {classes}. Ask an admin to change the class.',
  'student.class_change_no_class':
    'Only an admin can move this student from Class {from} to Class {to}: you have no class to mark. Ask an admin to change the class.',
  'student.bulk_not_found':
    '{count, plural, one {Student} other {Students}} not found: id {ids}. Nothing was deleted; reload the list and try again',
  'teacher.bulk_not_found':
    '{count, plural, one {Teacher} other {Teachers}} not found: id {ids}. Nothing was deleted; reload the list and try again',

  // Teachers
  'teacher.email_taken': 'email: {email} is already used by teacher {unique_id}; each teacher needs their own email',
  'teacher.email_taken_by_another':
    'email: {email} is already used by another teacher; each teacher needs their own email',

  // Analytics
  'validation.not_before_date': '{field}: must not be before from ({from})',
  'validation.period_too_long': '{field}: must be at most {days} days after from: choose a shorter period',

  // Leave requests
  'validation.leave_from_past': '{field}: must be today ({today}) or later: leave is told in advance',
  'validation.leave_from_too_far': '{field}: must be within a year from today (by {last})',
  'validation.not_before': '{field}: must not be before {other}',
  'validation.leave_too_long':
    '{field}: leave can cover at most {max} days in one request (this is {days}); for a longer absence, please call the centre',
  'leave.not_found': 'Leave request not found',
  'leave.overlaps_day':
    '{name} already has a leave request on {date} ({status, select, pending {waiting for the centre} approved {approved} declined {declined} withdrawn {withdrawn} other {pending}}) that overlaps these dates. Withdraw it first, or choose other dates.',
  'leave.overlaps_range':
    '{name} already has a leave request from {from} to {to} ({status, select, pending {waiting for the centre} approved {approved} declined {declined} withdrawn {withdrawn} other {pending}}) that overlaps these dates. Withdraw it first, or choose other dates.',
  'leave.cannot_withdraw':
    'This leave request was already {status, select, pending {waiting for the centre} approved {approved} declined {declined} withdrawn {withdrawn} other {decided}} and cannot be withdrawn.',
  'leave.already_decided':
    'This leave request was already {status, select, pending {waiting for the centre} approved {approved} declined {declined} withdrawn {withdrawn} other {decided}}.',
  'leave.already_decided_by':
    'This leave request was already {status, select, pending {waiting for the centre} approved {approved} declined {declined} withdrawn {withdrawn} other {decided}} by {name}.',
  'leave.already_withdrawn': 'This leave request was already withdrawn by the parent.',
  'leave.no_class_assigned':
    'You can see leave requests only for the classes you mark, and no class is assigned to you.',
  'leave.classes_only':
    'You can see leave requests only for your {count, plural, one {class} other {classes}} ({classes}).',

  // Backups
  'backups.write_failed': 'Could not write the backup: {reason}. No backup file was kept.',
  'backups.directory_unreadable': 'Could not read the backup directory {directory}: {reason}',
  'backups.before_clear_failed': 'Could not take a backup before clearing: {reason}. Nothing was deleted.',
  'backups.clear_contention':
    'Others kept changing the data while it was being cleared. Nothing was deleted; try again.',

  // Push subscriptions
  'validation.push_endpoint': '{field}: {message}',

  // Input guards
  'validation.nul_character': '{field}: must not contain the NUL character (\\u0000)',

  // Phones
  'validation.phone': '{field}: {message}',

  // Imports
  'imports.not_excel_extension': 'Please upload only Excel files (.xlsx or .xls)',
  'imports.too_large':
    'The file is larger than {size}, the most that can be imported at once; split it into smaller files and import them one by one',
  'imports.read_timeout':
    'The workbook could not be read within {seconds, plural, one {# second} other {# seconds}}; it may be damaged. Open it in Excel, save it again, or split it into smaller files',
  'imports.too_much_memory':
    'The workbook needs too much memory to read; it holds far more than a sheet of students or teachers. Split it into smaller files',
  'imports.not_excel':
    'The file is not an Excel workbook (.xlsx or .xls): it may be another kind of file (CSV, PDF, an image, a web page) saved with an Excel name. Open it in Excel and save it as an Excel Workbook',
  'imports.unreadable':
    'The file is not an Excel workbook (.xlsx or .xls): it may be another kind of file (CSV, PDF, an image, a web page) saved with an Excel name. Open it in Excel and save it as an Excel Workbook (it could not be read)',
  'imports.empty_file': 'The file is empty (0 bytes); choose the saved workbook and try again',
  'imports.no_data':
    'The workbook has no data: its sheets are empty. Put the column names in the first row and one record per row under them',
  'imports.too_many_rows':
    'The file has {count} rows under the header; at most {max} can be imported at once. Split it into smaller files and import them one by one',
  'imports.email_race':
    'Another teacher was saved with one of these emails while the file was being imported; nothing was imported. Upload the file again',
  'imports.not_multipart':
    'Send the spreadsheet as multipart/form-data, in a field named "file" (the file picker does this)',
  'imports.no_file': 'No file was sent: choose a spreadsheet for the field named "file"',
  'imports.wrong_field': 'The file must be sent in the field named "file", not "{field}"',
  'imports.too_many_parts': 'The upload holds too many parts; send one file only, in the field named "file"',
  'imports.invalid_multipart': 'The upload is not valid multipart/form-data; choose the file again and retry',
  'imports.no_data_rows':
    'The file has no data rows under the header (row {row}); add one row per record under the column names and try again',
  'imports.missing_columns':
    "Missing required {count, plural, one {column} other {columns}}: {columns}. The first row must hold the column names (this file's has: {found}); download the template to see them",
  'imports.unpacks_too_large':
    'The workbook unpacks to more than {size}, far more than a sheet of students or teachers needs; it cannot be imported',
  'imports.damaged':
    'The file is not an Excel workbook (.xlsx or .xls) that can be read: it is damaged. Open it in Excel, save it again and retry',
  'imports.damaged_part':
    'The file is not an Excel workbook (.xlsx or .xls) that can be read: it is damaged. Open it in Excel, save it again and retry (the part {part} is damaged)',
  'imports.too_many_zip_parts':
    'The file is not an Excel workbook that can be imported: it holds {count} parts where a workbook has a few dozen',
  'imports.unknown_compression':
    'The file is not an Excel workbook that can be imported: its part {part} is packed with a method Excel does not use',
  'imports.password_protected':
    'The workbook is password-protected; remove the password in Excel (File, Info, Protect Workbook), save it and upload it again',

  // Messages and WhatsApp
  'validation.no_parents': '{field}: no parents found',
  'validation.no_parents_in_class': '{field}: no parents found for Class {class_name}',
  'validation.unknown_template': '{field}: is not a known template',
  'validation.not_notice_template': '{field}: must be a notice template',
  'whatsapp.not_configured': 'WhatsApp is not configured',
  'messages.student_not_found': 'Student {reference} was not found',
  'messages.student_left': '{name} left the centre, so their parent is no longer written to',
  'whatsapp.opted_out': 'This parent has opted out of WhatsApp messages from the centre',
  'validation.parent_opted_out':
    '{field}: cannot be turned on by the centre: the parent turned WhatsApp messages off {how, select, parent_app {in the parent app} other {by replying STOP}}. Only the parent can turn them on again, by replying START on WhatsApp or in the parent app',
  'whatsapp.no_consent':
    "This parent has not agreed to WhatsApp messages and has not written to the centre in the last 24 hours. Record the parent's agreement on the student first.",
  'whatsapp.unreachable': 'WhatsApp could not be reached, so the message was not sent. Please try again later.',
  'whatsapp.rejected': 'WhatsApp did not accept the message: {reason}',
  'whatsapp.signature_mismatch': 'The callback signature (X-Hub-Signature-256) is missing or does not match',
  'whatsapp.verify_token_mismatch': 'The webhook verification token does not match',

  // Message templates
  'template.name_taken': 'A template named "{name}" already exists',
  'template.not_found': 'Template {id} was not found',
  'validation.notice_only': '{field}: only notice templates can be added; the absence and late alerts exist once',
  'validation.purpose_fixed':
    '{field}: cannot change: this is the {purpose, select, notice {Notice to parents} absence_alert {Absence alert} late_alert {Late alert} other {Notice to parents}} template',
  'template.in_use':
    'The {purpose, select, notice {Notice to parents} absence_alert {Absence alert} late_alert {Late alert} other {Notice to parents}} template cannot be deleted: {purpose, select, notice {notice to parents} absence_alert {absence alert} late_alert {late alert} other {notice to parents}}s use it. Change its texts instead.',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The names of a text's placeholders: `{a}` gives `a`; a plural `{n, plural, …}` gives `n`. */
type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? P extends `${infer Name},${string}`
    ? Name | (Rest extends `${string}}}${infer After}` ? Placeholders<After> : never)
    : P | Placeholders<Rest>
  : never;

export type ErrorParamValue = string | number;
export type ErrorParamName<C extends ErrorCode> = Placeholders<(typeof ERROR_CODES)[C]>;
export type ErrorParams<C extends ErrorCode> = { [K in ErrorParamName<C>]: ErrorParamValue };

/** What follows a code in a call: nothing when its text has no placeholder, else its params. */
export type ErrorParamsArg<C extends ErrorCode> = C extends ErrorCode
  ? [ErrorParamName<C>] extends [never]
    ? []
    : [params: ErrorParams<C>]
  : never;

/** A code with its params, as a value that can be passed along before it is thrown. */
export type ErrorWords = { [C in ErrorCode]: { code: C; params: ErrorParams<C> } }[ErrorCode];

export function errorWords<C extends ErrorCode>(code: C, ...params: ErrorParamsArg<C>): ErrorWords {
  return { code, params: (params[0] ?? {}) as ErrorParams<C> } as ErrorWords;
}

interface Piece {
  name: string;
  kind?: string;
  /** For a plural or a select: its branches by selector (`one`, `other`, `=0`; a select's values). */
  branches?: Record<string, string>;
  start: number;
  end: number;
}

function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new Error(`Unbalanced braces in error text: ${text}`);
}

/** The top-level placeholders of a text, in order. */
function pieces(text: string): Piece[] {
  const found: Piece[] = [];
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i)) {
    const end = closing(text, i);
    const inner = text.slice(i + 1, end);
    const comma = inner.indexOf(',');
    if (comma === -1) found.push({ name: inner.trim(), start: i, end });
    else {
      const rest = inner.slice(comma + 1);
      const kind = rest.slice(0, rest.indexOf(',')).trim();
      if (kind !== 'plural' && kind !== 'select') throw new Error(`Only plural and select are supported: ${text}`);
      const body = rest.slice(rest.indexOf(',') + 1);
      const branches: Record<string, string> = {};
      for (let j = body.indexOf('{'), from = 0; j !== -1; j = body.indexOf('{', from)) {
        const close = closing(body, j);
        branches[body.slice(from, j).trim()] = body.slice(j + 1, close);
        from = close + 1;
      }
      found.push({ name: inner.slice(0, comma).trim(), kind, branches, start: i, end });
    }
    i = end + 1;
  }
  return found;
}

/** The names a text's placeholders need, for the catalogue's own checks. */
export function errorTextParams(text: string): string[] {
  return [...new Set(pieces(text).map((piece) => piece.name))];
}

/** The branches of a text's plurals, for the catalogue's own checks. */
export function errorTextBranches(text: string): string[] {
  return pieces(text).flatMap((piece) => Object.values(piece.branches ?? {}));
}

/** Fills a text (this catalogue's or a translation's) with params; English plural rules unless `plural` is given. */
export function formatErrorText(
  text: string,
  params: Readonly<Record<string, ErrorParamValue>>,
  plural: (count: number) => string = (count) => (count === 1 ? 'one' : 'other'),
): string {
  let out = '';
  let at = 0;
  for (const piece of pieces(text)) {
    out += text.slice(at, piece.start);
    const value = params[piece.name];
    if (value === undefined) throw new Error(`The error text "${text}" needs the param ${piece.name}`);
    if (piece.branches && piece.kind === 'select') {
      out += piece.branches[String(value)] ?? piece.branches.other ?? '';
    } else if (piece.branches) {
      const count = Number(value);
      const branch = piece.branches[`=${count}`] ?? piece.branches[plural(count)] ?? piece.branches.other ?? '';
      out += branch.replaceAll('#', String(value));
    } else out += String(value);
    at = piece.end + 1;
  }
  return out + text.slice(at);
}

/** The English detail of an error. */
export function errorDetail(words: { code: ErrorCode; params: Readonly<Record<string, ErrorParamValue>> }): string {
  return formatErrorText(ERROR_CODES[words.code], words.params);
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

import { randomBytes } from 'node:crypto';
import { addDays, today } from '../../../src/lib/time';
import { hashAccessCode } from '../../../src/modules/families/access-codes';
import { ADMIN_PASSWORD, auth, createStudent, createTeacher, login, type TestApp, uniquePhone } from '../test-app';

/** Who sends a case: each case goes out as all four. */
export type Who = 'admin' | 'teacher' | 'none' | 'parent';

export interface StaffIdentity {
  userId: number;
  username: string;
  password: string;
  token: string;
}

export interface ParentIdentity {
  phone: string;
  token: string;
  /** The token version the token was signed for; -1 before the first. */
  version: number;
}

/** The parent's access code: every code issued for the parent's phone is put back to this one. */
export const KNOWN_CODE = 'K7M2-Q9XR';

/** Rows that exist now, for turning symbolic values into real ids. */
export interface Pools {
  students: { id: number; unique_id: string; full_name: string; parent_phone: string }[];
  teachers: { id: number; email: string | null; username: string | null; phone_number: string }[];
  users: { id: number }[];
  /** Days with teacher attendance marked and not yet locked: lock and remarks go through on them. */
  openTeacherDays: { date: string }[];
  attendance: { id: number }[];
  messages: { id: number; recipient: string }[];
  /** Leave requests, waiting ones first, with the phone of the child's family. */
  leaveRequests: { id: number; parent_phone: string }[];
}

/**
 * The app under fuzzing, its three identities and its data. The cases change the database as they go
 * (clear-all empties tables, deletes remove the teacher whose token is in use, a new access code ends
 * the parent's token); before each case the data is topped up through the API and the identities are
 * checked: a deleted teacher is replaced by a new one, a parent token whose code was re-issued is
 * signed again. The admin's session ending other than by a change of the admin's password fails the run.
 */
export class FuzzWorld {
  readonly setup = { requests: 0, teachersReplaced: 0, topUps: 0 };
  private pools: Pools | undefined;
  private markDayOffset = 0;
  private teacherDayOffset = 0;
  private leaveDayOffset = 0;

  private constructor(
    readonly t: TestApp,
    readonly admin: StaffIdentity,
    public teacher: StaffIdentity,
    readonly parent: ParentIdentity,
    private readonly knownCodeHash: string,
  ) {}

  static async open(t: TestApp): Promise<FuzzWorld> {
    const adminToken = await t.adminToken();
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth(adminToken) });
    const admin = { userId: me.json().id, username: 'admin', password: ADMIN_PASSWORD, token: adminToken };
    const teacher = await newTeacher(t, admin.token);
    const parent = { phone: uniquePhone(), token: '', version: -1 };
    return new FuzzWorld(t, admin, teacher, parent, await hashAccessCode(KNOWN_CODE.replace('-', '')));
  }

  /** The bearer token `who` sends, if any. */
  tokenOf(who: Who): string | undefined {
    if (who === 'admin') return this.admin.token;
    if (who === 'teacher') return this.teacher.token;
    if (who === 'parent') return this.parent.token;
    return undefined;
  }

  /** After a write went through: the pools are read again before the next symbolic value is resolved. */
  forgetPools(): void {
    this.pools = undefined;
  }

  async currentPools(): Promise<Pools> {
    const db = this.t.db;
    this.pools ??= {
      students: await db.query('SELECT id, unique_id, full_name, parent_phone FROM students ORDER BY id'),
      teachers: await db.query(
        'SELECT t.id, t.email, u.username, t.phone_number FROM teachers t LEFT JOIN users u ON u.id = t.user_id ORDER BY t.id',
      ),
      users: await db.query('SELECT id FROM users ORDER BY id'),
      openTeacherDays: await db.query(
        `SELECT DISTINCT date FROM teacher_attendance ta
          WHERE NOT EXISTS (SELECT 1 FROM teacher_attendance_locks l WHERE l.date = ta.date) ORDER BY date`,
      ),
      attendance: await db.query('SELECT id FROM attendance ORDER BY approved_at IS NULL DESC, id'),
      messages: await db.query('SELECT id, recipient FROM messages ORDER BY id DESC LIMIT 200'),
      leaveRequests: await db.query(
        `SELECT lr.id, s.parent_phone FROM leave_requests lr JOIN students s ON s.id = lr.student_id
          ORDER BY lr.status = 'pending' DESC, lr.id DESC LIMIT 200`,
      ),
    };
    return this.pools;
  }

  /** Before each request: every identity holds a token the server accepts. */
  async refreshIdentities(): Promise<void> {
    const { t, admin, parent } = this;
    const adminClaims = await t.ctx.tokens.verify(admin.token);
    if (adminClaims?.tokenVersion !== (await this.tokenVersion(admin.userId))) {
      throw new Error("The admin's session ended, though no case changed the admin's password");
    }
    const teacherClaims = await t.ctx.tokens.verify(this.teacher.token);
    if (teacherClaims?.tokenVersion !== (await this.tokenVersion(this.teacher.userId))) {
      // Deleted by a delete or clear-all case: a new teacher takes over.
      this.teacher = await newTeacher(t, admin.token);
      this.setup.teachersReplaced += 1;
    }
    const access = await t.db.query<{ token_version: number }>(
      'SELECT token_version FROM parent_access WHERE phone = $1',
      [parent.phone],
    );
    let version = access[0]?.token_version;
    if (version === undefined) {
      await t.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, $2, 'Fuzz')", [
        parent.phone,
        this.knownCodeHash,
      ]);
      version = 0;
    }
    if (version !== parent.version) {
      // A case issued a new code for the parent's phone: the parent "got" it, and still signs in with the known one.
      await t.db.query('UPDATE parent_access SET code_hash = $2 WHERE phone = $1', [parent.phone, this.knownCodeHash]);
      parent.token = await t.ctx.tokens.signParent({ phone: parent.phone, tokenVersion: version });
      parent.version = version;
    }
  }

  /**
   * Before each case: enough rows that ids exist and handlers go deep (students of every class and of
   * the parent's phone, teachers, pending and approved attendance, teacher attendance, messages, a push
   * subscription). Destructive cases empty tables; this puts rows back, through the API.
   */
  async ensureData(): Promise<void> {
    const { t, admin, parent } = this;
    const [counts] = await t.db.query<Record<string, number>>(
      `SELECT (SELECT count(*) FROM students WHERE left_on IS NULL)::int AS students,
              (SELECT count(*) FROM students WHERE parent_phone = $1 AND left_on IS NULL)::int AS children,
              (SELECT count(*) FROM teachers)::int AS teachers,
              (SELECT count(*) FROM attendance WHERE approved_at IS NULL)::int AS pending,
              (SELECT count(*) FROM attendance WHERE approved_at IS NOT NULL)::int AS approved,
              (SELECT count(*) FROM teacher_attendance ta
                WHERE NOT EXISTS (SELECT 1 FROM teacher_attendance_locks l WHERE l.date = ta.date))::int AS teacher_marks,
              (SELECT count(*) FROM messages WHERE recipient = $1)::int AS parent_messages,
              (SELECT count(*) FROM push_subscriptions WHERE phone = $1)::int AS devices,
              (SELECT count(*) FROM leave_requests lr JOIN students s ON s.id = lr.student_id
                WHERE lr.status = 'pending' AND s.parent_phone = $1)::int AS waiting_leave`,
      [parent.phone],
    );
    const c = counts as Record<string, number>;
    let toppedUp = false;
    if ((c.children ?? 0) < 2) {
      toppedUp = true;
      for (const className of ['7', '9']) {
        await createStudent(t.app, admin.token, {
          full_name: `Child ${className} Fuzz`,
          class_name: className,
          parent_phone: parent.phone,
          parent_name: 'Parent Fuzz',
        });
        this.setup.requests += 1;
      }
    }
    if ((c.students ?? 0) < 8) {
      toppedUp = true;
      for (const className of ['7', '8', '9', '10', '7', '8']) {
        await createStudent(t.app, admin.token, { full_name: `Student ${className} Fuzz`, class_name: className });
        this.setup.requests += 1;
      }
    }
    if ((c.teachers ?? 0) < 3) {
      toppedUp = true;
      for (let i = 0; i < 2; i += 1) {
        await createTeacher(t.app, admin.token, { email: `seed.${randomBytes(4).toString('hex')}@example.test` });
        this.setup.requests += 1;
      }
    }
    if ((c.pending ?? 0) < 3 || (c.approved ?? 0) < 3) {
      toppedUp = true;
      await this.markAndApproveSome();
    }
    if ((c.teacher_marks ?? 0) < 2) {
      toppedUp = true;
      await this.markTeachers();
    }
    if ((c.devices ?? 0) < 1) {
      toppedUp = true;
      await this.refreshIdentities();
      await this.setupCall(
        'POST',
        '/api/v1/parent/push/subscriptions',
        {
          endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`,
          keys: { p256dh: randomBytes(65).toString('base64url'), auth: randomBytes(16).toString('base64url') },
        },
        parent.token,
      );
    }
    if ((c.parent_messages ?? 0) < 2) {
      toppedUp = true;
      await this.setupCall('POST', '/api/v1/messages/send-to-parents', {
        subject: 'Fuzz notice',
        message: 'The centre is open on Saturday.',
        recipients: 'all_parents',
      });
    }
    if ((c.waiting_leave ?? 0) < 2) {
      toppedUp = true;
      await this.refreshIdentities();
      await this.askForLeave();
    }
    if (toppedUp) {
      this.setup.topUps += 1;
      this.forgetPools();
    }
  }

  /** Marks a day that has no record yet for most students (marking never meets an approved record), and approves half. */
  private async markAndApproveSome(): Promise<void> {
    this.markDayOffset = (this.markDayOffset % 40) + 1;
    const date = addDays(today(), -this.markDayOffset);
    const students = await this.t.db.query<{ id: number }>(
      `SELECT id FROM students s
        WHERE s.left_on IS NULL AND NOT EXISTS (SELECT 1 FROM attendance a WHERE a.student_id = s.id AND a.date = $1)
        LIMIT 12`,
      [date],
    );
    if (students.length === 0) return;
    const statuses = ['present', 'absent', 'late', 'leave'];
    await this.setupCall('POST', '/api/v1/attendance/mark', {
      date,
      records: students.map((s, i) => ({ student_id: s.id, status: statuses[i % 4], remarks: i % 3 ? null : 'ok' })),
    });
    const marked = await this.t.db.query<{ id: number }>(
      'SELECT id FROM attendance WHERE date = $1 AND approved_at IS NULL ORDER BY id',
      [date],
    );
    const half = marked.slice(0, Math.ceil(marked.length / 2)).map((row) => row.id);
    if (half.length > 0) await this.setupCall('POST', '/api/v1/attendance/approve', { attendance_ids: half });
  }

  /** The parent asks for a day of leave for each child, a day no earlier request of theirs holds. */
  private async askForLeave(): Promise<void> {
    const children = await this.t.db.query<{ id: number }>(
      'SELECT id FROM students WHERE parent_phone = $1 AND left_on IS NULL',
      [this.parent.phone],
    );
    for (const child of children) {
      // Within the year ahead a parent may ask for; a day still held is skipped.
      this.leaveDayOffset = (this.leaveDayOffset % 300) + 1;
      const day = addDays(today(), this.leaveDayOffset);
      const held = await this.t.db.query(
        `SELECT 1 FROM leave_requests WHERE student_id = $1 AND status IN ('pending', 'approved')
            AND from_date <= $2::date AND to_date >= $2::date`,
        [child.id, day],
      );
      if (held.length > 0) continue;
      await this.setupCall(
        'POST',
        '/api/v1/parent/leave-requests',
        { student_id: child.id, from_date: day, reason: 'Fuzz leave' },
        this.parent.token,
      );
    }
  }

  private async markTeachers(): Promise<void> {
    const teachers = await this.t.db.query<{ id: number }>('SELECT id FROM teachers ORDER BY id LIMIT 4');
    this.teacherDayOffset += 1;
    const date = addDays(today(), -(this.teacherDayOffset % 80) - 1);
    const locked = await this.t.db.query('SELECT 1 FROM teacher_attendance_locks WHERE date = $1', [date]);
    if (teachers.length === 0 || locked.length > 0) return;
    await this.setupCall('POST', '/api/v1/teacher-attendance/mark', {
      date,
      teacher_records: teachers.map((row, i) => ({
        teacher_id: row.id,
        status: ['present', 'absent', 'half_day', 'on_leave'][i % 4],
        check_in_time: '09:00',
        check_out_time: '17:30:00',
      })),
    });
  }

  private async setupCall(method: 'POST' | 'PUT', url: string, payload: unknown, token = this.admin.token) {
    this.setup.requests += 1;
    const response = await this.t.app.inject({ method, url, headers: auth(token), payload: payload as never });
    if (response.statusCode >= 300)
      throw new Error(`setup ${method} ${url} failed: ${response.statusCode} ${response.body}`);
    return response;
  }

  private async tokenVersion(userId: number): Promise<number | undefined> {
    const rows = await this.t.db.query<{ token_version: number }>('SELECT token_version FROM users WHERE id = $1', [
      userId,
    ]);
    return rows[0]?.token_version;
  }
}

async function newTeacher(t: TestApp, adminToken: string): Promise<StaffIdentity> {
  const created = await createTeacher(t.app, adminToken, {
    first_name: 'Fuzz',
    last_name: 'Teacher',
    email: `fuzz.teacher.${randomBytes(4).toString('hex')}@example.test`,
  });
  const token = await login(t.app, created.username, created.initial_password);
  const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth(token) })).json();
  return { userId: me.id, username: created.username, password: created.initial_password, token };
}

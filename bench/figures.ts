// The figures each bench script writes into bench/results/ as JSON, and bench/report.ts reads.

/** web-bundle.json: the JavaScript of a cold load of each route, gzipped. */
export interface BundleFigures {
  budget_kb: number;
  routes: { route: string; kb: number; files: number }[];
  /** What each language fetches beyond English when it is shown, as sent (JS and CSS gzipped, woff2 as is). */
  languages?: LanguageWeight[];
}

/** A part of a language's weight: its files and their size in KB. */
export interface WeightPart {
  kb: number;
  files: number;
}

export interface LanguageWeight {
  language: string;
  /** Its catalogues, locales/<lang>/*.json, one chunk per namespace. */
  catalogues: WeightPart;
  /** The server's texts by code: its errors (i18n/errors/<lang>.json) and the activity feed's (i18n/activity-texts/<lang>.json). */
  server_texts: WeightPart;
  /** Its script's @font-face CSS (400 and 700). */
  font_css: WeightPart;
  /** The woff2 files that CSS names (400 and 700), whether or not the page drew both. */
  font_files: WeightPart;
  /** The right-to-left style plugin (Urdu). */
  rtl: WeightPart;
  /** dayjs's locale for the date pickers (with dayjs itself, which the sign-in page has not fetched). */
  date_locale: WeightPart;
  /** Anything else fetched only in this language (shared chunks those pull in). */
  other: WeightPart & { names: string[] };
  total_kb: number;
}

/** students-search.json: keystroke to settled table in the Students search. */
export interface SearchFigures {
  students: number;
  keystrokes: number;
  median_ms: number;
  worst_ms: number;
}

/** phone-flow.json: a teacher's register on a phone, from the dashboard to a saved class. */
export interface PhoneFlowFigures {
  class_size: number;
  absent: number;
  attendance_records: number;
  rounds: {
    dashboard_to_register_ms: number;
    taps_to_open: number;
    taps_after_open: number;
    submit_to_saved_ms: number;
  }[];
  taps_to_open: number;
  taps_after_open: number;
  dashboard_to_register_ms: number;
  submit_to_saved_ms: number;
}

// api-pglite.json and api-postgres.json, below: the API bench.

/** One autocannon run, in milliseconds and requests per second. */
export interface Figure {
  p50: number;
  p99: number;
  rps: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** A call at 1 and 32 connections, ours beside the bare route answering the same bytes. */
export interface CallResult {
  name: string;
  /** The answer's size, uncompressed. */
  bytes: number;
  /** As sent to a client that accepts Brotli and gzip: ours, and the bare route compressing the same way. */
  wire_bytes?: number;
  bare_wire_bytes?: number;
  c1: { ours: Figure; bare: Figure };
  c32: { ours: Figure; bare: Figure };
  /** The server's resident memory at its highest while this call was measured. */
  peak_rss_mb?: number;
}

export interface ConsoleTimings {
  runs: { sign_in_ms: number; students_table_ms: number }[];
  sign_in_ms: number;
  students_table_ms: number;
  sign_in_to_table_ms: number;
}

export interface SendResult {
  recipients: number;
  devices: number;
  answer_ms: number;
  drained_s: number;
  malformed: number;
}

export interface ApproveResult {
  runs: number;
  median_ms: number;
  max_ms: number;
}

export interface ImportResult {
  kind: 'students' | 'teachers';
  rows: number;
  imported: number;
  seconds: number;
  peak_rss_mb: number;
}

/** What bench/tools/seed-large.ts made (rows per table), and how long each step took ("ms <step>"). */
export interface SeedCounts {
  students: number;
  teachers: number;
  attendance: number;
  pending: number;
  teacher_attendance: number;
  messages: number;
  activities: number;
  push_subscriptions: number;
  [timing: `ms ${string}`]: number;
}

export interface ApiResults {
  kind: 'pglite' | 'postgres';
  seconds: number;
  /** A remark shown above the run's table in the report (the bench writes none; added by hand). */
  note?: string;
  seeded: { seconds: number; counts: SeedCounts };
  calls: CallResult[];
  approve: ApproveResult | null;
  send: SendResult | null;
  console: ConsoleTimings | null;
  imports: ImportResult[];
  memory: { rest_mb?: number; load_peak_mb?: number; after_mb?: number };
  polling?: PollingFigures | null;
}

/** bench/whatsapp.ts: one send to every family, half on the parent app and half on WhatsApp only. */
export interface WhatsappFigures {
  families: number;
  send_answered_ms: number;
  in_app_count: number;
  whatsapp_count: number;
  all_pushes_accepted_s: number;
  all_whatsapp_sent_s: number;
  whatsapp_rate_per_s: number;
  messages_per_second_limit: number;
  whatsapp_refused: number;
  window_violations: number;
  webhook_not_200: number;
}

/** The simulated console of bench/api/polling.ts: staff polling with entity tags while one writes. */
export interface PollingFigures {
  staff: number;
  interval_s: number;
  seconds: number;
  writes: number;
  write_errors: number;
  write_p50_ms: number;
  polls: number;
  /** Polls sent with the tag of an answer held: all but each person's first read of an address. */
  conditional: number;
  not_modified: number;
  /** not_modified / conditional. */
  not_modified_share: number;
  poll_errors: number;
  /** The server process's CPU time over the run's wall time (1 = one core busy). */
  server_cpu_share: number;
  calls: {
    url: string;
    polls: number;
    conditional: number;
    not_modified: number;
    p50_ms: number;
    p99_ms: number;
    kb_received: number;
  }[];
}

/** bench/scaling.ts: the reads whose cost must not grow with the records, at two sizes. */
export interface ScalingFigures {
  kind: 'pglite' | 'postgres';
  seconds: number;
  sizes: { attendance: number; seed_seconds: number; calls: CallResult[] }[];
}

/** What the server logs on SIGUSR2 (apps/server/src/lib/memory-report.ts), in MB. */
export interface MemoryReport {
  rss_mb: number;
  js_heap_used_mb: number;
  js_heap_total_mb: number;
  array_buffers_mb: number;
  external_mb: number;
  read_cache_mb: number;
  kept_answers_mb: number;
}

/** bench/memory.ts: the embedded database's server at two centre sizes. */
export interface MemoryFigures {
  kind: 'pglite';
  sizes: {
    centre: 'demo' | 'large';
    students: number;
    rest: MemoryReport;
    after_reads: MemoryReport;
    peak_rss_mb: number;
    after_peak: MemoryReport;
  }[];
}

/** bench/crowd.ts: one autocannon run of a small answer at 32 connections. */
export interface CrowdRun extends Figure {
  /** The build measured (BENCH_SERVERS' label). */
  server: string;
  round: number;
  call: string;
  /** The machine's load average over the last minute as the run began (2 cores). */
  load_1m: number;
}

/** bench/crowd.ts: small answers under a crowd, round by round, and each call's medians. */
export interface CrowdFigures {
  kind: 'pglite' | 'postgres';
  seconds: number;
  connections: number;
  rounds: number;
  cpus: number;
  runs: CrowdRun[];
  medians: {
    server: string;
    call: string;
    rps: number;
    p50: number;
    p99: number;
    worst_p99: number;
    least_rps: number;
    load_1m: number;
    errors: number;
  }[];
}

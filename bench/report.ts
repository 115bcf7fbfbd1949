// Turns the figures the bench scripts wrote (bench/results/*.json) into bench/results/<date>.md:
// the machine, then every figure beside its target.
//   npx tsx bench/report.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  ApiResults,
  BundleFigures,
  CallResult,
  CrowdFigures,
  MemoryFigures,
  PhoneFlowFigures,
  ScalingFigures,
  SearchFigures,
  WhatsappFigures,
} from './figures';
import { resultsDir } from './support';

const dir = resultsDir();
function read<T>(name: string): T | undefined {
  const file = path.join(dir, name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}
const bundle = read<BundleFigures>('web-bundle.json');
const search = read<SearchFigures>('students-search.json');
const phone = read<PhoneFlowFigures>('phone-flow.json');
const whatsapp = read<WhatsappFigures>('whatsapp.json');
const memory = read<MemoryFigures>('memory-pglite.json');
const scaling = read<ScalingFigures>('scaling-postgres.json') ?? read<ScalingFigures>('scaling-pglite.json');
const crowds = ['pglite', 'postgres']
  .map((kind) => read<CrowdFigures>(`crowd-${kind}.json`))
  .filter((crowd): crowd is CrowdFigures => crowd !== undefined);
const apis = ['pglite', 'postgres']
  .map((kind) => read<ApiResults>(`api-${kind}.json`))
  .filter((api): api is ApiResults => api !== undefined);

const kb = (bytes: number | undefined) => (bytes === undefined ? '–' : (bytes / 1024).toFixed(1));
const ms = (value: number | undefined) => (value === undefined ? '–' : `${Math.round(value)} ms`);
const verdict = (value: number | undefined, limit: number) =>
  value === undefined ? '–' : value <= limit ? 'met' : `**missed** (${(value / limit).toFixed(1)}×)`;
const lines: string[] = [];
const date = new Date().toISOString().slice(0, 10);
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
lines.push(`# Bench results, ${date}`, '');
lines.push(
  `Machine: ${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}, ${os.platform()} ${os.release()}. Shared machine: figures are medians or percentiles of one run; compare ratios.`,
  '',
);

lines.push('## Targets', '', '| Figure | Measured | Target | Verdict |', '|---|---|---|---|');
const target = (name: string, value: number | undefined, limit: number, unit = 'ms') =>
  lines.push(
    `| ${name} | ${value === undefined ? '–' : `${unit === 'ms' || unit === 'taps' ? Math.round(value) : value.toFixed(1)} ${unit}`} | ≤ ${limit} ${unit} | ${verdict(value, limit)} |`,
  );
if (bundle) target('Sign-in route JavaScript (gzipped)', bundle.routes[0]?.kb, bundle.budget_kb, 'KB');
if (search) target('Students search, keystroke to table (median, 5,000 students)', search.median_ms, 100);
if (phone) {
  target(
    `Phone register, taps after it opens (class of ${phone.class_size}, ${phone.absent} absent)`,
    phone.taps_after_open,
    5,
    'taps',
  );
  target('Phone register, Submit to saved (median, large centre)', phone.submit_to_saved_ms, 1000);
}
if (whatsapp)
  target(
    `Send to ${whatsapp.families.toLocaleString('en')} families (half app, half WhatsApp), answered`,
    whatsapp.send_answered_ms,
    1000,
  );
for (const api of apis) {
  const pg = api.kind === 'postgres';
  const factor = pg ? 1 : 2;
  const label = pg ? 'PostgreSQL' : 'PGlite';
  // The whole-range history (every record of the range in one answer) is 10-45 MB: even the bare route cannot serve that within
  // the targets, so it is shown on its own lines, against the bare route.
  const wholeRange = (call: CallResult) => call.name.startsWith('history (');
  const reads = api.calls.filter((call) => call.name !== 'sign-in' && !wholeRange(call));
  const worst = (connections: 'c1' | 'c32') =>
    reads.reduce<CallResult | undefined>(
      (a, b) => (a === undefined || b[connections].ours.p99 > a[connections].ours.p99 ? b : a),
      undefined,
    );
  for (const [connections, limit] of [
    ['c1', 50 * factor],
    ['c32', 250 * factor],
  ] as const) {
    const call = worst(connections);
    target(
      `${label}: worst read p99 at ${connections === 'c1' ? '1 connection' : '32 connections'} (${call?.name})`,
      call?.[connections].ours.p99,
      limit,
    );
  }
  for (const call of api.calls.filter(wholeRange)) {
    lines.push(
      `| ${label}: ${call.name}, whole range (${(call.bytes / 2 ** 20).toFixed(0)} MB), p99 at 1 connection | ${call.c1.ours.p99} ms | the bare route: ${call.c1.bare.p99} ms | ${(call.c1.ours.p99 / Math.max(call.c1.bare.p99, 1)).toFixed(1)}× bare |`,
    );
  }
  const studentList = api.calls.find((call) => call.name === 'students');
  if (studentList?.wire_bytes !== undefined)
    target(
      `${label}: students list (${(studentList.bytes / 2 ** 20).toFixed(1)} MB) sent compressed`,
      studentList.wire_bytes / 1024,
      200,
      'KB',
    );
  const signIn = api.calls.find((call) => call.name === 'sign-in');
  target(`${label}: sign-in p50 at 1 connection`, signIn?.c1.ours.p50, 300);
  target(`${label}: approve 200 records (median)`, api.approve?.median_ms, 200);
  const students = api.imports.find((entry) => entry.kind === 'students');
  target(`${label}: import 5,000 students`, students?.seconds, 5, 's');
  target(`${label}: send to ${api.send?.recipients ?? '–'} parents, answered`, api.send?.answer_ms, 1000);
  target(`${label}: send, every push delivered to the fake push service`, api.send?.drained_s, 30, 's');
  target(`${label}: students table shown after sign-in (Chromium)`, api.console?.sign_in_to_table_ms, 1500);
  target(`${label}: server RSS under load`, api.memory?.load_peak_mb, pg ? 400 : 600, 'MB');
  if (api.polling)
    lines.push(
      `| ${label}: simulated console (${api.polling.staff} staff polling every ${api.polling.interval_s} s, one write a second): polls with a tag answered 304 | ${(100 * api.polling.not_modified_share).toFixed(0)} % of ${api.polling.conditional ?? api.polling.polls}; server CPU ${(100 * api.polling.server_cpu_share).toFixed(0)} % of a core | – | – |`,
    );
}
for (const crowd of crowds) {
  // The build measured last is the one under test (BENCH_SERVERS lists it last when comparing).
  const server = crowd.medians.at(-1)?.server;
  for (const entry of crowd.medians.filter(
    (median) => median.server === server && median.call.startsWith('dashboard'),
  )) {
    const met = entry.least_rps >= 1000 && entry.worst_p99 <= 100;
    lines.push(
      `| ${crowd.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}: ${entry.call} at ${crowd.connections} connections, every one of ${crowd.rounds} runs (median load ${entry.load_1m.toFixed(1)} on ${crowd.cpus} cores) | least ${Math.round(entry.least_rps)} req/s, worst p99 ${entry.worst_p99} ms | ≥ 1000 req/s, p99 ≤ 100 ms | ${met ? 'met' : '**missed**'} |`,
    );
  }
}
for (const size of memory?.sizes ?? []) {
  target(
    `PGlite, the ${size.centre} centre (${size.students.toLocaleString('en')} students): server RSS at peak (8 whole-range histories at once)`,
    size.peak_rss_mb,
    size.centre === 'demo' ? 200 : 600,
    'MB',
  );
}
if (scaling) {
  const [small, large] = scaling.sizes;
  for (const call of small?.calls ?? []) {
    const other = large?.calls.find((entry) => entry.name === call.name);
    if (!other) continue;
    const ratio = other.c1.ours.p99 / Math.max(call.c1.ours.p99, 1);
    lines.push(
      `| ${scaling.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}: ${call.name}, p99 at 1 connection, ${((large?.attendance ?? 0) / 1e6).toFixed(1)} M records against ${((small?.attendance ?? 0) / 1e6).toFixed(1)} M | ${other.c1.ours.p99} ms against ${call.c1.ours.p99} ms: ${ratio.toFixed(2)}× | < 1.5× | ${ratio < 1.5 ? 'met' : '**missed**'} |`,
    );
  }
}
lines.push('');

for (const api of apis) {
  lines.push(
    `## API on ${api.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}`,
    '',
    ...(api.note ? [`Note: ${api.note}`, ''] : []),
    `${api.seeded.counts.students} students, ${api.seeded.counts.teachers} teachers, ${api.seeded.counts.attendance.toLocaleString('en')} attendance records, ${api.seeded.counts.messages.toLocaleString('en')} messages; seeded in ${api.seeded.seconds.toFixed(0)} s. autocannon, ${api.seconds} s per figure; "bare" is a Fastify route with no database answering the same bytes.`,
    '',
    '| Call | KB | KB sent (bare) | 1 conn p50 / p99 | bare p99 | 32 conn p50 / p99 | bare p99 | req/s (32) | bare req/s | ratio |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const call of api.calls) {
    const ratio = call.c32.bare.rps / Math.max(call.c32.ours.rps, 0.01);
    lines.push(
      `| ${call.name} | ${(call.bytes / 1024).toFixed(1)} | ${kb(call.wire_bytes)} (${kb(call.bare_wire_bytes)}) | ${call.c1.ours.p50} / ${call.c1.ours.p99} | ${call.c1.bare.p99} | ${call.c32.ours.p50} / ${call.c32.ours.p99} | ${call.c32.bare.p99} | ${Math.round(call.c32.ours.rps)} | ${Math.round(call.c32.bare.rps)} | ${ratio.toFixed(1)}× |`,
    );
  }
  lines.push('');
  if (api.approve)
    lines.push(
      `- Approve 200 records: median ${ms(api.approve.median_ms)}, worst ${ms(api.approve.max_ms)} over ${api.approve.runs} calls.`,
    );
  for (const entry of api.imports) {
    lines.push(
      `- Import ${entry.rows.toLocaleString('en')} ${entry.kind}: ${entry.seconds.toFixed(2)} s, ${entry.imported} imported, peak RSS ${Math.round(entry.peak_rss_mb)} MB.`,
    );
  }
  if (api.send)
    lines.push(
      `- Send to all parents (${api.send.recipients} parents, ${api.send.devices} devices): answered in ${ms(api.send.answer_ms)}, last push received ${api.send.drained_s.toFixed(1)} s after the click; ${api.send.malformed} malformed.`,
    );
  if (api.console)
    lines.push(
      `- Console in Chromium: Sign In to dashboard ${ms(api.console.sign_in_ms)}, Students menu to first table row ${ms(api.console.students_table_ms)} (medians of ${api.console.runs.length}).`,
    );
  if (api.polling) {
    const polling = api.polling;
    lines.push(
      `- Simulated console: ${polling.staff} staff, each on a screen polling every ${polling.interval_s} s with the tags of what they hold, while one marks a record every second (${polling.writes} writes, median ${ms(polling.write_p50_ms)}, ${polling.write_errors} failed), for ${polling.seconds} s: ${polling.polls} polls, ${polling.conditional} of them with the tag of an answer held, ${polling.not_modified} answered 304 (${(100 * polling.not_modified_share).toFixed(0)} % of those), ${polling.poll_errors} errors; server CPU ${(100 * polling.server_cpu_share).toFixed(0)} % of one core.`,
      '',
      '  | Poll | polls | 304 | p50 / p99 | KB received |',
      '  |---|---|---|---|---|',
      ...polling.calls.map(
        (call) =>
          `  | ${call.url} | ${call.polls} | ${call.not_modified} | ${call.p50_ms} / ${call.p99_ms} ms | ${call.kb_received} |`,
      ),
      '',
    );
  }
  if (api.memory?.rest_mb !== undefined)
    lines.push(
      `- Server RSS: ${Math.round(api.memory.rest_mb)} MB at rest, ${Math.round(api.memory.load_peak_mb ?? Number.NaN)} MB peak under load, ${Math.round(api.memory.after_mb ?? Number.NaN)} MB after the imports.`,
      '',
    );
}

for (const crowd of crowds) {
  lines.push(
    `## Small answers under a crowd (${crowd.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'})`,
    '',
    `The large centre at ${crowd.connections} connections, autocannon, ${crowd.seconds} s per figure, ${crowd.rounds} rounds (when builds are compared, they take turns on one seeded database, each going first in turn); the dashboard once across the turn of a minute and once within one. Medians of the rounds, with the least req/s and the worst p99 of any round; the machine's load average over a minute as the runs began.`,
    '',
    '| Build | Call | req/s (least) | p50 | p99 (worst) | load | errors |',
    '|---|---|---|---|---|---|---|',
    ...crowd.medians.map(
      (entry) =>
        `| ${entry.server} | ${entry.call} | ${Math.round(entry.rps)} (${Math.round(entry.least_rps)}) | ${entry.p50} | ${entry.p99} (${entry.worst_p99}) | ${entry.load_1m.toFixed(1)} | ${entry.errors} |`,
    ),
    '',
  );
}

if (scaling) {
  lines.push(
    `## Reads at two sizes (${scaling.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'})`,
    '',
    `The same centre (5,000 students) with a year and with four years of attendance; autocannon, ${scaling.seconds} s per figure.`,
    '',
    '| Call | records | 1 conn p50 / p99 | 32 conn p50 / p99 | req/s (32) | bare req/s |',
    '|---|---|---|---|---|---|',
  );
  for (const size of scaling.sizes) {
    for (const call of size.calls) {
      lines.push(
        `| ${call.name} | ${(size.attendance / 1e6).toFixed(2)} M | ${call.c1.ours.p50} / ${call.c1.ours.p99} | ${call.c32.ours.p50} / ${call.c32.ours.p99} | ${Math.round(call.c32.ours.rps)} | ${Math.round(call.c32.bare.rps)} |`,
      );
    }
  }
  lines.push('');
}

if (memory) {
  lines.push(
    '## Memory of the embedded database server',
    '',
    'As the server reports it on SIGUSR2 (MB): resident set; V8 heap used; memory outside the V8 heap (mostly the WebAssembly heap of the embedded PostgreSQL, reserved, not all of it resident); the read cache (part of the V8 heap).',
    '',
    '| Centre | When | RSS | JS heap | outside the JS heap | read cache |',
    '|---|---|---|---|---|---|',
  );
  for (const size of memory.sizes) {
    for (const [when, entry] of [
      ['at rest', size.rest],
      ['after every console read once', size.after_reads],
      [`after 8 whole-range histories (peak RSS ${size.peak_rss_mb} MB)`, size.after_peak],
    ] as const) {
      lines.push(
        `| ${size.centre} (${size.students.toLocaleString('en')} students) | ${when} | ${entry.rss_mb} | ${entry.js_heap_used_mb} | ${entry.external_mb} | ${entry.read_cache_mb} |`,
      );
    }
  }
  lines.push('');
}

if (bundle) {
  lines.push('## Console JavaScript per route (cold load, gzipped)', '', '| Route | KB | Files |', '|---|---|---|');
  for (const route of bundle.routes) lines.push(`| ${route.route} | ${route.kb.toFixed(1)} | ${route.files} |`);
  lines.push('');
  if (bundle.languages?.length) {
    const part = ({ kb, files }: { kb: number; files: number }) => (files ? `${kb.toFixed(1)} (${files})` : '–');
    lines.push(
      '## Each language beyond English (KB as sent, files)',
      '',
      'Fetched only when the language is shown (a browser in that language at the sign-in page); JS and CSS gzipped, woff2 as it is; the font is both weights its CSS names.',
      '',
      '| Language | Catalogues | Server texts by code (errors, activity) | Font CSS | Font woff2 | RTL plugin | Date pickers | Other | Total |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const weight of bundle.languages)
      lines.push(
        `| ${weight.language} | ${part(weight.catalogues)} | ${part(weight.server_texts)} | ${part(weight.font_css)} | ${part(weight.font_files)} | ${part(weight.rtl)} | ${part(weight.date_locale)} | ${part(weight.other)} | ${weight.total_kb.toFixed(1)} |`,
      );
    lines.push('');
  }
}
if (search)
  lines.push(
    '## Students search',
    '',
    `${search.students} students: keystroke to settled table, median ${search.median_ms.toFixed(1)} ms, worst ${search.worst_ms.toFixed(1)} ms over ${search.keystrokes} keystrokes.`,
    '',
  );

if (phone)
  lines.push(
    '## A teacher on a phone',
    '',
    `Chromium at 390 × 844 on the large centre (${phone.attendance_records.toLocaleString('en')} attendance records), a teacher of a class of ${phone.class_size}: from the dashboard, ${phone.taps_to_open} tap on "Your classes today" opens the register (median ${Math.round(phone.dashboard_to_register_ms)} ms to its last row); ${phone.taps_after_open} taps after it opens (${phone.absent} Absent and Submit); Submit to the register's "Saved at": median ${Math.round(phone.submit_to_saved_ms)} ms over ${phone.rounds.length} rounds (${phone.rounds.map((round) => Math.round(round.submit_to_saved_ms)).join(', ')} ms).`,
    '',
  );

if (whatsapp)
  lines.push(
    '## Every family reached (app and WhatsApp)',
    '',
    `${whatsapp.families.toLocaleString('en')} families, ${whatsapp.in_app_count.toLocaleString('en')} with the parent app and ${whatsapp.whatsapp_count.toLocaleString('en')} on WhatsApp only, one send to all, against the fake push service and the fake Cloud API at ${whatsapp.messages_per_second_limit} messages a second: answered in ${whatsapp.send_answered_ms} ms; every push accepted ${whatsapp.all_pushes_accepted_s} s and every WhatsApp message sent ${whatsapp.all_whatsapp_sent_s} s after the click (${whatsapp.whatsapp_rate_per_s} messages a second); ${whatsapp.whatsapp_refused} refused, ${whatsapp.window_violations} outside a window, ${whatsapp.webhook_not_200} webhook answers other than 200.`,
    '',
  );

const file = path.join(dir, `${date}.md`);
writeFileSync(file, `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);

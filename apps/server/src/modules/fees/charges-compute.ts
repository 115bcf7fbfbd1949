/**
 * The charge run's arithmetic, pure (ADR 052): what a plan should have charged a student for a period.
 * The run compares it with what it already charged and posts only the difference, so repeating a run
 * changes nothing and a mark changed after billing becomes one correction.
 */

export interface DiscountRule {
  mode: 'none' | 'percent' | 'flat';
  value: number;
}

/** The number of days in a month written yyyy-MM. */
export function daysInMonth(month: string): number {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
}

/** The first and the last day of a month, yyyy-MM-dd. */
export function monthBounds(month: string): { first: string; last: string } {
  return { first: `${month}-01`, last: `${month}-${String(daysInMonth(month)).padStart(2, '0')}` };
}

/** The month after (or, with -1, before) `month`. */
export function shiftMonth(month: string, by: number): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const shifted = new Date(Date.UTC(year, monthNumber - 1 + by, 1));
  return `${shifted.getUTCFullYear()}-${String(shifted.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The plan's due date in a month: its due day (1–28, so every month has it). */
export function dueOn(month: string, dueDay: number): string {
  return `${month}-${String(dueDay).padStart(2, '0')}`;
}

/** Whole days from `from` to `to`, both counted (0 when `to` is before `from`). */
function daysBetween(from: string, to: string): number {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  return Math.max(0, days);
}

/**
 * The days of `month` a student was with the centre: from the day they joined (in the centre's zone)
 * to the day they left, both counted (a student who leaves on the 10th attended that day).
 */
export function daysWithCentre(month: string, joinedOn: string, leftOn: string | null): number {
  const { first, last } = monthBounds(month);
  const from = joinedOn > first ? joinedOn : first;
  const to = leftOn !== null && leftOn < last ? leftOn : last;
  return daysBetween(from, to);
}

/**
 * `amount` for `days` of a month of `monthDays`, rounded to the nearest paisa, a half paisa up: the
 * rule is fixed so the same month always charges the same (integer arithmetic, no float).
 */
export function prorate(amount: number, days: number, monthDays: number): number {
  if (days >= monthDays) return amount;
  if (days <= 0) return 0;
  return Math.floor((amount * days * 2 + monthDays) / (2 * monthDays));
}

/** What a discount rule takes off a charge: a percent rounded down to the paisa, or a flat sum (never more than the charge). */
export function discountOf(amount: number, rule: DiscountRule): number {
  if (amount <= 0 || rule.value <= 0) return 0;
  if (rule.mode === 'percent') return Math.floor((amount * Math.min(rule.value, 100)) / 100);
  if (rule.mode === 'flat') return Math.min(rule.value, amount);
  return 0;
}

/**
 * The discount on a tuition charge: a staff child's, or a second or later sibling's, whichever takes
 * more (they do not add up).
 */
export function tuitionDiscount(
  amount: number,
  options: { isStaffChild: boolean; isLaterSibling: boolean; sibling: DiscountRule; staffChild: DiscountRule },
): number {
  const staff = options.isStaffChild ? discountOf(amount, options.staffChild) : 0;
  const sibling = options.isLaterSibling ? discountOf(amount, options.sibling) : 0;
  return Math.max(staff, sibling);
}

/**
 * How many packages of `sessions` a student has started, having attended `used` sessions: the first
 * when they join the plan, the next when they attend beyond what the ones before covered.
 */
export function packagesStarted(used: number, sessions: number): number {
  return Math.max(1, Math.ceil(used / sessions));
}

/** A monthly plan's charge for a month: the whole amount, or prorated by the days the student was with the centre. */
export function monthlyCharge(
  amount: number,
  month: string,
  joinedOn: string,
  leftOn: string | null,
): { amount: number; days: number } {
  const days = daysWithCentre(month, joinedOn, leftOn);
  return { amount: prorate(amount, days, daysInMonth(month)), days };
}
